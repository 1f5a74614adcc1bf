// Per-key exponential backoff: 5 ms doubling to 1000 s, per key, reset by forget.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <limits>

#include "core/controller/rate_limiter.h"

namespace kun {
namespace {

TEST(BackoffRateLimiter, DoublesFromFiveMillisecondsToAThousandSeconds) {
  BackoffRateLimiter rl;
  EXPECT_EQ(rl.when("a"), milliseconds(5));
  EXPECT_EQ(rl.when("a"), milliseconds(10));
  EXPECT_EQ(rl.when("a"), milliseconds(20));
  EXPECT_EQ(rl.when("a"), milliseconds(40));
  EXPECT_EQ(rl.failures("a"), 4u);
  // 5 ms * 2^17 = 655.36 s is the last step below the cap; the next one is capped.
  EXPECT_EQ(rl.delayFor(18), milliseconds(655360));
  EXPECT_EQ(rl.delayFor(19), seconds(1000));
  EXPECT_EQ(rl.delayFor(1000), seconds(1000));
  EXPECT_EQ(rl.delayFor(std::numeric_limits<std::uint32_t>::max()), seconds(1000));
  EXPECT_EQ(rl.delayFor(0), Duration::zero());
}

TEST(BackoffRateLimiter, KeysAreIndependentAndForgetResets) {
  BackoffRateLimiter rl;
  rl.when("a");
  rl.when("a");
  EXPECT_EQ(rl.when("b"), milliseconds(5));
  EXPECT_EQ(rl.when("a"), milliseconds(20));
  EXPECT_EQ(rl.tracked(), 2u);
  rl.forget("a");
  EXPECT_EQ(rl.failures("a"), 0u);
  EXPECT_EQ(rl.tracked(), 1u);
  EXPECT_EQ(rl.when("a"), milliseconds(5));
  EXPECT_EQ(rl.when("b"), milliseconds(10));
  rl.forget("never-seen");  // harmless
}

TEST(BackoffRateLimiter, IsConfigurable) {
  BackoffRateLimiter rl({seconds(1), seconds(5)});
  EXPECT_EQ(rl.when("k"), seconds(1));
  EXPECT_EQ(rl.when("k"), seconds(2));
  EXPECT_EQ(rl.when("k"), seconds(4));
  EXPECT_EQ(rl.when("k"), seconds(5));
  EXPECT_EQ(rl.when("k"), seconds(5));
  BackoffRateLimiter zero({Duration::zero(), seconds(1)});
  EXPECT_EQ(zero.when("k"), Duration::zero());
  EXPECT_EQ(zero.delayFor(1u << 30), Duration::zero());
  BackoffRateLimiter inverted({seconds(3), seconds(1)});  // max below base: base wins
  EXPECT_EQ(inverted.when("k"), seconds(3));
  EXPECT_EQ(inverted.when("k"), seconds(3));
}

RC_GTEST_PROP(BackoffRateLimiter, EachFailureDoublesUntilTheCap, ()) {
  const auto baseUs = *rc::gen::inRange<std::int64_t>(1, 10'000'000);
  const auto maxUs = *rc::gen::inRange<std::int64_t>(baseUs, 4'000'000'000'000LL);
  const BackoffRateLimiter rl({microseconds(baseUs), microseconds(maxUs)});
  const auto n = *rc::gen::inRange<std::uint32_t>(1, 200);
  RC_ASSERT(rl.delayFor(1) == microseconds(baseUs));
  const Duration d = rl.delayFor(n);
  const Duration next = rl.delayFor(n + 1);
  RC_ASSERT(d <= microseconds(maxUs));
  RC_ASSERT(next == std::min(d * 2, microseconds(maxUs)));
}

}  // namespace
}  // namespace kun
