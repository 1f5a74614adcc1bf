#include <gtest/gtest.h>

#include "fakeapi/controllers/ip_pool.h"

namespace kun::sim {
namespace {

TimePoint at(int s) { return TimePoint(seconds(s)); }

TEST(IpPool, HandsOutHostAddressesOfTheRangeInOrder) {
  auto pool = IpPool::fromCidr("10.244.1.0/24", seconds(30));
  ASSERT_TRUE(pool.ok());
  EXPECT_EQ(pool->capacity(), 253u);  // .2 .. .254
  EXPECT_EQ(*pool->allocate(at(0)), "10.244.1.2");
  EXPECT_EQ(*pool->allocate(at(0)), "10.244.1.3");
  EXPECT_EQ(pool->inUse(), 2u);
}

TEST(IpPool, AFreedAddressWaitsOutItsQuarantineThenIsReusedFirst) {
  auto pool = IpPool::fromCidr("10.244.1.0/24", seconds(30));
  ASSERT_TRUE(pool.ok());
  const std::string a = *pool->allocate(at(0));
  (void)*pool->allocate(at(0));
  pool->release(a, at(10));
  EXPECT_NE(*pool->allocate(at(20)), a);  // still quarantined: a fresh one
  EXPECT_EQ(*pool->allocate(at(40)), a);  // quarantine over: reused before fresh ones
}

TEST(IpPool, NeverGivesBackTheAddressToAvoid) {
  auto pool = IpPool::fromCidr("10.244.1.0/24", seconds(0));
  ASSERT_TRUE(pool.ok());
  const std::string a = *pool->allocate(at(0));
  pool->release(a, at(1));
  const std::string b = *pool->allocate(at(5), a);
  EXPECT_NE(b, a);
  EXPECT_EQ(*pool->allocate(at(5)), a);  // someone else may have it
}

TEST(IpPool, ExhaustionUsesQuarantinedAddressesThenFails) {
  auto pool = IpPool::fromCidr("10.0.0.0/29", seconds(100));  // .2 .. .6
  ASSERT_TRUE(pool.ok());
  std::vector<std::string> got;
  for (int i = 0; i < 5; ++i) got.push_back(*pool->allocate(at(0)));
  EXPECT_TRUE(pool->allocate(at(0)).is(Reason::Unavailable));
  pool->release(got[2], at(1));
  EXPECT_EQ(*pool->allocate(at(2)), got[2]);
  pool->release("10.0.0.99", at(3));  // never allocated: ignored
  EXPECT_TRUE(pool->allocate(at(3)).is(Reason::Unavailable));
}

TEST(IpPool, RejectsBadRanges) {
  EXPECT_TRUE(IpPool::fromCidr("10.244.1.0", seconds(1)).is(Reason::Invalid));
  EXPECT_TRUE(IpPool::fromCidr("10.244.1.300/24", seconds(1)).is(Reason::Invalid));
  EXPECT_TRUE(IpPool::fromCidr("10.244.1.0/33", seconds(1)).is(Reason::Invalid));
  EXPECT_EQ(IpPool::parse("1.2.3.4"), std::optional<std::uint32_t>(0x01020304));
  EXPECT_FALSE(IpPool::parse("1.2.3").has_value());
  EXPECT_FALSE(IpPool::parse("1.2.3.4.5").has_value());
}

}  // namespace
}  // namespace kun::sim
