#include "fakeapi/store/name_generator.h"

#include <fmt/format.h>

namespace kun::store {

std::string NameGenerator::uid() {
  const std::uint64_t hi = uids_.next();
  const std::uint64_t lo = uids_.next();
  // Version 4, variant 10xx, as uuid.NewUUID() would look.
  const std::uint64_t h = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  const std::uint64_t l = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", h >> 32, (h >> 16) & 0xffff, h & 0xffff, l >> 48,
                     l & 0xffffffffffffULL);
}

std::string NameGenerator::suffix() {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string s(5, ' ');
  for (auto& c : s) c = kAlphabet[names_.below(kAlphabet.size())];
  return s;
}

}  // namespace kun::store
