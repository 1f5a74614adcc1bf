#include <random>

#include "core/runtime/random.h"

namespace kun {

std::uint64_t Random::osSeed() {
  std::random_device rd;
  return (static_cast<std::uint64_t>(rd()) << 32) ^ rd();
}

}  // namespace kun
