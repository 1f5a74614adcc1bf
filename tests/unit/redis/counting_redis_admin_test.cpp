// CountingRedisAdmin: forwards every command and counts the state-changing ones by name.
#include <gtest/gtest.h>

#include "core/redis/counting_redis_admin.h"
#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

TEST(CountingRedisAdmin, ClassifiesCommandsByWhetherTheyChangeTheNode) {
  EXPECT_EQ(redisCommandName({"config", "set", "hz", "20"}), "CONFIG SET");
  EXPECT_EQ(redisCommandName({"sentinel", "config", "set", "x", "y"}), "SENTINEL CONFIG SET");
  EXPECT_EQ(redisCommandName({"replicaof", "no", "one"}), "REPLICAOF");
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"REPLICAOF", "NO", "ONE"}, {"slaveof", "10.0.0.1", "6379"}, {"CONFIG", "SET", "hz", "20"},
           {"config", "rewrite"}, {"SENTINEL", "MONITOR", "m", "10.0.0.1", "6379", "2"}, {"SENTINEL", "REMOVE", "m"},
           {"sentinel", "set", "m", "auth-pass", "x"}, {"SENTINEL", "RESET", "m"}, {"SENTINEL", "FAILOVER", "m"},
           {"FAILOVER"}, {"SET", "k", "v"}, {"CLIENT", "KILL", "TYPE", "normal"}})
    EXPECT_TRUE(isStateChanging(argv)) << argv[0];
  for (const auto& argv : std::vector<std::vector<std::string>>{
           {"INFO", "replication"}, {"ROLE"}, {"PING"}, {"CONFIG", "GET", "*"}, {"SENTINEL", "MASTER", "m"},
           {"SENTINEL", "REPLICAS", "m"}, {"sentinel", "get-master-addr-by-name", "m"}, {"GET", "k"}, {}})
    EXPECT_FALSE(isStateChanging(argv)) << (argv.empty() ? "(empty)" : argv[0]);
}

TEST(CountingRedisAdmin, ForwardsAndCounts) {
  SimWorld w;
  RedisNodeOptions o;
  o.ip = "10.0.0.1";
  RedisNode& n = w.sim.addRedis(o);
  w.runFor(milliseconds(100));
  CountingRedisAdmin admin{w.sim.admin(Topology::kClientIp)};
  ASSERT_TRUE(admin.command(n.endpoint(), {"CONFIG", "SET", "hz", "20"}).ok());
  ASSERT_TRUE(admin.command(n.endpoint(), {"CONFIG", "SET", "hz", "30"}).ok());
  auto got = admin.command(n.endpoint(), {"CONFIG", "GET", "hz"});
  ASSERT_TRUE(got.ok());
  EXPECT_EQ(got->elements.at(1).str, "30");  // really forwarded
  EXPECT_EQ(admin.total(), 3u);
  EXPECT_EQ(admin.stateChanging(), 2u);
  EXPECT_EQ(admin.stateChangingByName().at("CONFIG SET"), 2u);
  EXPECT_EQ(admin.describeStateChanging(), "CONFIG SET x2");
  admin.reset();
  EXPECT_EQ(admin.total(), 0u);
  EXPECT_EQ(admin.describeStateChanging(), "none");
}

}  // namespace
}  // namespace kun::redissim::test
