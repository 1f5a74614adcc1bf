// parseInt follows Redis's string2ll on both of its paths (short numbers skip the
// per-digit overflow checks).
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <optional>
#include <string>
#include <string_view>

#include "fakeapi/redis/resp.h"

namespace kun::redissim::test {
namespace {

TEST(ParseInt, AcceptsWhatString2llAccepts) {
  EXPECT_EQ(parseInt("0"), 0);
  EXPECT_EQ(parseInt("-0"), 0);
  EXPECT_EQ(parseInt("7"), 7);
  EXPECT_EQ(parseInt("-1"), -1);
  EXPECT_EQ(parseInt("26379"), 26379);
  EXPECT_EQ(parseInt("999999999999999999"), 999999999999999999);     // 18 digits
  EXPECT_EQ(parseInt("-999999999999999999"), -999999999999999999);
  EXPECT_EQ(parseInt("1000000000000000000"), 1000000000000000000);   // 19 digits
  EXPECT_EQ(parseInt("9223372036854775807"), std::numeric_limits<std::int64_t>::max());
  EXPECT_EQ(parseInt("-9223372036854775808"), std::numeric_limits<std::int64_t>::min());
}

TEST(ParseInt, RefusesWhatString2llRefuses) {
  for (const char* s : {"", "-", "+1", " 1", "1 ", "01", "-01", "00", "1a", "a1", "-a", "1-", "1.5",
                        "9223372036854775808", "-9223372036854775809", "18446744073709551616",
                        "123456789012345678901"})
    EXPECT_EQ(parseInt(s), std::nullopt) << s;
}

// iequals compares bytes equal, or the two cases of an ASCII letter: every pair of bytes
// against lowering both (A-Z only), the rule it replaced.
TEST(Iequals, EveryBytePairAsLoweringBoth) {
  auto lowerByte = [](unsigned c) { return c >= 'A' && c <= 'Z' ? c + 32 : c; };
  for (unsigned x = 0; x < 256; ++x) {
    for (unsigned y = 0; y < 256; ++y) {
      const char a[2] = {'k', static_cast<char>(x)}, b[2] = {'K', static_cast<char>(y)};
      ASSERT_EQ(iequals(std::string_view(a, 2), std::string_view(b, 2)), lowerByte(x) == lowerByte(y)) << x << " " << y;
    }
  }
  EXPECT_TRUE(iequals("", ""));
  EXPECT_FALSE(iequals("ping", "pin"));
  EXPECT_TRUE(iequals("SENTINEL", "sentinel"));
}

}  // namespace
}  // namespace kun::redissim::test
