#include "fakeapi/store/name_generator.h"

namespace kun::store {

std::string NameGenerator::uid() {
  const std::uint64_t hi = uids_.next();
  const std::uint64_t lo = uids_.next();
  return formatUid(hi, lo);
}

std::string NameGenerator::formatUid(std::uint64_t hi, std::uint64_t lo) {
  // Version 4, variant 10xx, as uuid.NewUUID() would look.
  const std::uint64_t h = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  const std::uint64_t l = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  // Written digit by digit: every object created costs one, and a format string parsed
  // each time was most of it. Groups of 8-4-4-4-12 digits, the high word then the low.
  static constexpr char kHex[] = "0123456789abcdef";
  std::string out(36, '-');
  std::size_t at = 0;
  auto put = [&](std::uint64_t word, int fromDigit, int digits) {
    for (int i = 0; i < digits; ++i) out[at++] = kHex[(word >> (4 * (fromDigit - 1 - i))) & 0xf];
  };
  put(h, 16, 8);
  ++at;
  put(h, 8, 4);
  ++at;
  put(h, 4, 4);
  ++at;
  put(l, 16, 4);
  ++at;
  put(l, 12, 12);
  return out;
}

std::string NameGenerator::suffix() {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  std::string s(5, ' ');
  for (auto& c : s) c = kAlphabet[names_.below(kAlphabet.size())];
  return s;
}

}  // namespace kun::store
