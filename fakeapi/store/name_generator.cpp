#include "fakeapi/store/name_generator.h"

namespace kun::store {

std::string NameGenerator::uid() {
  const std::uint64_t hi = uids_.next();
  const std::uint64_t lo = uids_.next();
  // Version 4, variant 10xx, as uuid.NewUUID() would look.
  const std::uint64_t h = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  const std::uint64_t l = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  // "{:08x}-{:04x}-{:04x}-{:04x}-{:012x}" of (h >> 32, h >> 16, h, l >> 48, l), written
  // digit by digit: every created object takes a uid, and fmt's parse was most of it.
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(36, '-');
  auto put = [&out](std::size_t at, std::uint64_t v, int digits) {
    for (int i = digits - 1; i >= 0; --i, v >>= 4) out[at + static_cast<std::size_t>(i)] = kHex[v & 0xf];
  };
  put(0, h >> 32, 8);
  put(9, h >> 16, 4);
  put(14, h, 4);
  put(19, l >> 48, 4);
  put(24, l, 12);
  return out;
}

std::string NameGenerator::suffix() {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string s(5, ' ');
  for (auto& c : s) c = kAlphabet[names_.below(kAlphabet.size())];
  return s;
}

}  // namespace kun::store
