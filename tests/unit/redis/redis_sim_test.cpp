// RedisSim's look-up of a node by endpoint (a hashed index kept beside the ordered maps
// that give the lists): it must follow every add, replace, recreate and removal.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

RedisNodeOptions redisAt(const std::string& ip) {
  RedisNodeOptions o;
  o.ip = ip;
  return o;
}

TEST(RedisSim, FindsNodesByEndpointThroughAddsRecreatesAndRemovals) {
  SimWorld w;
  const RedisEndpoint a{"10.0.0.1", 6379}, b{"10.0.0.2", 6379}, s{"10.0.0.1", 26379};
  RedisNode& first = w.sim.addRedis(redisAt(a.host));
  RedisNode& other = w.sim.addRedis(redisAt(b.host));
  SentinelOptions so;
  so.ip = s.host;
  SentinelNode& sent = w.sim.addSentinel(so);
  EXPECT_EQ(w.sim.redis(a), &first);
  EXPECT_EQ(w.sim.redis(b), &other);
  EXPECT_EQ(w.sim.sentinel(s), &sent);
  EXPECT_EQ(w.sim.redis(s), nullptr);  // same host, another port
  EXPECT_EQ(w.sim.sentinel(a), nullptr);

  RedisNode& replaced = w.sim.addRedis(redisAt(a.host));  // a new process at the same endpoint
  EXPECT_EQ(w.sim.redis(a), &replaced);

  RedisNode& moved = w.sim.recreateRedis(a, "10.0.0.7");
  EXPECT_EQ(w.sim.redis(a), nullptr);
  EXPECT_EQ(w.sim.redis({"10.0.0.7", 6379}), &moved);

  w.sim.remove(b);
  w.sim.remove(s);
  EXPECT_EQ(w.sim.redis(b), nullptr);
  EXPECT_EQ(w.sim.sentinel(s), nullptr);
  ASSERT_EQ(w.sim.redisNodes().size(), 1u);
  EXPECT_EQ(w.sim.redisNodes()[0], &moved);
  EXPECT_TRUE(w.sim.sentinels().empty());
}

// processChanges() moves with every add, replace, recreate and removal: a caller that kept
// what redis()/sentinel() answered (the pod bridge) asks again only then.
TEST(RedisSim, ProcessChangesMovesWithEveryAddAndRemoval) {
  SimWorld w;
  const RedisEndpoint a{"10.0.0.1", 6379};
  std::uint64_t seen = w.sim.processChanges();
  auto moved = [&] {
    const bool m = w.sim.processChanges() != seen;
    seen = w.sim.processChanges();
    return m;
  };
  w.sim.addRedis(redisAt(a.host));
  EXPECT_TRUE(moved());
  (void)w.sim.redis(a);
  EXPECT_FALSE(moved());
  w.sim.addRedis(redisAt(a.host));
  EXPECT_TRUE(moved());
  w.sim.recreateRedis(a, "10.0.0.7");
  EXPECT_TRUE(moved());
  SentinelOptions so;
  so.ip = "10.0.0.9";
  w.sim.addSentinel(so);
  EXPECT_TRUE(moved());
  w.sim.remove({"10.0.0.9", 26379});
  EXPECT_TRUE(moved());
}

}  // namespace
}  // namespace kun::redissim::test
