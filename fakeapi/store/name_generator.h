#pragma once
// Deterministic identities: uids in UUID v4 layout and generateName suffixes, both drawn
// from seeded streams (never the OS), so one seed gives the same uids and names.
#include <string>

#include "core/runtime/random.h"

namespace kun::store {

class NameGenerator {
 public:
  explicit NameGenerator(const Random& base) : uids_(base.fork("uid")), names_(base.fork("generateName")) {}

  std::string uid();
  // Five characters from Kubernetes' alphabet for generated names (no vowels, no
  // look-alike digits), as utilrand.String draws them.
  std::string suffix();

  // generateName is cut so the generated name fits a DNS label (63), as Kubernetes does.
  static constexpr std::size_t kMaxGenerateNameBase = 58;

 private:
  Random uids_;
  Random names_;
};

}  // namespace kun::store
