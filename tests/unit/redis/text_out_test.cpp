// TextOut writes what fmt wrote before it: INFO's bytes must not move.
#include <gtest/gtest.h>

#include <cstdint>
#include <limits>
#include <string>

#include <fmt/format.h>

#include "fakeapi/redis/text_out.h"

namespace kun::redissim::test {
namespace {

TEST(TextOut, NumbersAndTextAsFmtWritesThem) {
  std::string out = "x";
  const std::string runid(40, 'a');
  TextOut(out) << "port:" << 6379 << "\r\nrun_id:" << runid << "\r\n"
               << std::numeric_limits<std::int64_t>::min() << "," << std::numeric_limits<std::uint64_t>::max()
               << std::string_view(",") << -1 << std::size_t{0};
  EXPECT_EQ(out, fmt::format("xport:{}\r\nrun_id:{}\r\n{},{},{}{}", 6379, runid,
                             std::numeric_limits<std::int64_t>::min(), std::numeric_limits<std::uint64_t>::max(), -1, 0));
}

TEST(TextOut, LongerThanItsBuffer) {
  std::string out, want;
  {
    TextOut t(out);
    for (int i = 0; i < 400; ++i) {
      t << "line" << i << ":" << std::string(i % 37, 'v') << "\r\n";
      want += fmt::format("line{}:{}\r\n", i, std::string(i % 37, 'v'));
    }
    t << std::string(2000, 'z');
    want += std::string(2000, 'z');
  }
  EXPECT_EQ(out, want);
}

TEST(TextOut, MegabytesRoundAsFmt) {
  const auto check = [](std::int64_t bytes) {
    std::string out;
    TextOut(out).megabytes(bytes);
    EXPECT_EQ(out, fmt::format("{:.2f}", static_cast<double>(bytes) / (1024.0 * 1024.0))) << bytes;
  };
  for (std::int64_t b = 0; b < 3'000'000; b += 997) check(b);
  // Around every hundredth of a megabyte, ties (half a hundredth exactly) included.
  for (std::int64_t k = 0; k < 2000; ++k) {
    const std::int64_t tie2 = (2 * k + 1) * (std::int64_t{1} << 20);  // 200 * bytes at a tie
    for (std::int64_t d = -2; d <= 2; ++d) check(tie2 / 200 + d);
  }
  check(131072);  // 0.125 exactly
  check(870000);
  check(std::int64_t{1} << 52);
  check(std::int64_t{1} << 53);
  check(std::numeric_limits<std::int64_t>::max());
  check(-1048576);
}

}  // namespace
}  // namespace kun::redissim::test
