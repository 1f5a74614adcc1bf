#include "scenarios/failover_summary.h"

#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>

namespace kun {
namespace {

TEST(FailoverSummary, OddCountMedianIsTheMiddleValue) {
  auto s = summarize({5, 1, 3});
  EXPECT_EQ(s.min, 1);
  EXPECT_EQ(s.median, 3.0);
  EXPECT_EQ(s.max, 5);
  EXPECT_EQ(s.count, 3u);
}

TEST(FailoverSummary, EvenCountMedianIsTheMeanOfTheMiddleTwo) {
  auto s = summarize({4, 1, 2, 10});
  EXPECT_EQ(s.median, 3.0);
  auto half = summarize({1, 2});
  EXPECT_EQ(half.median, 1.5);
}

TEST(FailoverSummary, RunsWhereItDidNotHappenAreLeftOut) {
  auto s = summarize({std::nullopt, 7, std::nullopt, 9});
  EXPECT_EQ(s.count, 2u);
  EXPECT_EQ(s.min, 7);
  EXPECT_EQ(s.median, 8.0);
  EXPECT_EQ(s.max, 9);
}

TEST(FailoverSummary, NothingHappenedMeansNoStatistics) {
  auto s = summarize({std::nullopt, std::nullopt});
  EXPECT_EQ(s.count, 0u);
  EXPECT_FALSE(s.min);
  EXPECT_FALSE(s.median);
  EXPECT_FALSE(s.max);
  EXPECT_FALSE(summarize({}).median);
}

RC_GTEST_PROP(FailoverSummary, MedianSplitsTheValuesInHalf, (std::vector<std::int64_t> v)) {
  RC_PRE(!v.empty());
  for (auto& x : v) x %= 1000000;  // keep sums exact in a double
  std::vector<std::optional<std::int64_t>> in(v.begin(), v.end());
  auto s = summarize(in);
  RC_ASSERT(s.count == v.size());
  RC_ASSERT(*s.min == *std::min_element(v.begin(), v.end()));
  RC_ASSERT(*s.max == *std::max_element(v.begin(), v.end()));
  RC_ASSERT(*s.min <= *s.median && *s.median <= *s.max);
  const auto below = std::count_if(v.begin(), v.end(), [&](auto x) { return x < *s.median; });
  const auto above = std::count_if(v.begin(), v.end(), [&](auto x) { return x > *s.median; });
  RC_ASSERT(static_cast<std::size_t>(below) <= v.size() / 2);
  RC_ASSERT(static_cast<std::size_t>(above) <= v.size() / 2);
}

}  // namespace
}  // namespace kun
