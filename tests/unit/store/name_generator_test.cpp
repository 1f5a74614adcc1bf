// The uid text written digit by digit is the UUID v4 layout a format string gives.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "core/runtime/random.h"
#include "fakeapi/store/name_generator.h"

namespace kun::store {
namespace {

std::string byFormat(std::uint64_t hi, std::uint64_t lo) {
  const std::uint64_t h = (hi & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
  const std::uint64_t l = (lo & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
  return fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", h >> 32, (h >> 16) & 0xffff, h & 0xffff, l >> 48,
                     l & 0xffffffffffffULL);
}

TEST(NameGenerator, UidTextIsTheUuidLayout) {
  for (const auto& [hi, lo] : {std::pair<std::uint64_t, std::uint64_t>{0, 0},
                               {~0ULL, ~0ULL},
                               {0x0123456789abcdefULL, 0xfedcba9876543210ULL}})
    EXPECT_EQ(NameGenerator::formatUid(hi, lo), byFormat(hi, lo));
  Random r(42);
  for (int i = 0; i < 1000; ++i) {
    const std::uint64_t hi = r.next(), lo = r.next();
    ASSERT_EQ(NameGenerator::formatUid(hi, lo), byFormat(hi, lo));
  }
}

}  // namespace
}  // namespace kun::store
