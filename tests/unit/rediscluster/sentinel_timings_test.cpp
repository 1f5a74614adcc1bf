// The sentinels' timings: customConfig's down-after-milliseconds and failover-timeout over
// the operator's own, as heal_sentinels leaves them.
#include <gtest/gtest.h>

#include "core/rediscluster/sentinel_timings.h"

namespace kun::rediscluster {
namespace {

constexpr SentinelTimings kOperator{1000, 3000};

TEST(SentinelTimings, WithoutCustomConfigTheOperatorsOwn) {
  EXPECT_EQ(effectiveSentinelTimings({}, kOperator), kOperator);
  EXPECT_EQ(effectiveSentinelTimings({"parallel-syncs 5"}, kOperator), kOperator);
}

TEST(SentinelTimings, CustomConfigOverridesEitherInAnyCase) {
  EXPECT_EQ(effectiveSentinelTimings({"down-after-milliseconds 30000"}, kOperator), (SentinelTimings{30000, 3000}));
  EXPECT_EQ(effectiveSentinelTimings({"Failover-Timeout 180000", "DOWN-AFTER-MILLISECONDS  500"}, kOperator),
            (SentinelTimings{500, 180000}));
}

TEST(SentinelTimings, AValueThatIsNotAPositiveIntegerLeavesTheOperatorsOwn) {
  for (const char* line : {"down-after-milliseconds", "down-after-milliseconds 0", "down-after-milliseconds -5",
                           "down-after-milliseconds 5s", "down-after-milliseconds 5 6", "down-after-milliseconds x"})
    EXPECT_EQ(effectiveSentinelTimings({line}, kOperator), kOperator) << line;
}

}  // namespace
}  // namespace kun::rediscluster
