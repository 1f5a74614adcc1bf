// A RedisCluster created from nothing: the operator makes the objects, elects a master,
// points replicas and sentinels at it and reports Healthy; data reaches the replicas.
#include <map>

#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

TEST_F(OperatorScenario, SizeThreeBecomesHealthyAndReplicates) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const auto s = status("a");
  EXPECT_FALSE(s.masterIP.empty());
  EXPECT_FALSE(conditionTrue("a", rediscluster::conditions::kCreating));
  EXPECT_FALSE(conditionTrue("a", rediscluster::conditions::kFailed));
  EXPECT_EQ(masters("a", 3), 1);
  auto m = masterBySentinel("a", 3);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->host, s.masterIP);
  ASSERT_TRUE(write("a", "k1", "v1"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k1", "v1"));
  // Replicas refuse writes: only the master takes them.
  for (int i = 0; i < 3; ++i) {
    auto* n = redisOf(redisPod("a", i));
    ASSERT_NE(n, nullptr);
    if (n->isMaster()) continue;
    auto r = send(podIp(redisPod("a", i)), 6379, {"SET", "x", "y"}, "");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->errorCode(), "READONLY");
  }
}


TEST_F(OperatorScenario, TwoClustersSideBySideKeepTheirOwnSentinels) {
  startOperator();
  create("a", Object{{"size", 3}});
  create("b", Object{{"size", 3}});
  ASSERT_TRUE(world->runUntil([&] { return healthy("a") && healthy("b"); }, seconds(150)))
      << describe("a") << "\n" << describe("b");
  EXPECT_NE(status("a").masterIP, status("b").masterIP);
  ASSERT_TRUE(write("a", "only", "a"));
  ASSERT_TRUE(write("b", "only", "b"));
  EXPECT_TRUE(readableEverywhere("a", 3, "only", "a"));
  EXPECT_TRUE(readableEverywhere("b", 3, "only", "b"));
  // Each cluster's sentinels know exactly their own 2 replicas and 2 other sentinels.
  for (const std::string c : {"a", "b"}) {
    for (int i = 0; i < 3; ++i) {
      auto* s = sentinelOf(sentinelPod(c, i));
      ASSERT_NE(s, nullptr);
      auto r = send(podIp(sentinelPod(c, i)), 26379, {"SENTINEL", "MASTER", "mymaster"}, "");
      ASSERT_TRUE(r.ok());
      std::map<std::string, std::string> f;
      for (std::size_t k = 0; k + 1 < r->elements.size(); k += 2) f[r->elements[k].str] = r->elements[k + 1].str;
      EXPECT_EQ(f["ip"], status(c).masterIP) << c << i;
      EXPECT_EQ(f["num-slaves"], "2") << c << i;
      EXPECT_EQ(f["num-other-sentinels"], "2") << c << i;
    }
  }
}

TEST_F(OperatorScenario, InvalidSpecIsRejectedWithAConditionNamingTheField) {
  startOperator();
  create("bad", Object{{"size", 3}, {"config", {{"dir", "/tmp"}}}});
  ASSERT_TRUE(world->runUntil([&] { return conditionTrue("bad", rediscluster::conditions::kFailed); }, seconds(20)))
      << describe("bad");
  EXPECT_NE(condition("bad", rediscluster::conditions::kFailed)->message.find("spec.config.dir"), std::string::npos)
      << condition("bad", rediscluster::conditions::kFailed)->message;
  world->runFor(seconds(10));
  EXPECT_FALSE(world->store().get(res::statefulsets, kNs, rediscluster::names::redis("bad")).ok());

  // A healthy cluster edited into an invalid spec keeps running untouched.
  create("good", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("good")) << describe("good");
  const std::string sts = world->store().get(res::statefulsets, kNs, rediscluster::names::redis("good"))->dump();
  editSpec("good", [](Object& s) { s["size"] = 1; });
  ASSERT_TRUE(world->runUntil([&] { return conditionTrue("good", rediscluster::conditions::kFailed); }, seconds(20)))
      << describe("good");
  EXPECT_NE(condition("good", rediscluster::conditions::kFailed)->message.find("spec.size"), std::string::npos);
  world->runFor(seconds(10));
  EXPECT_EQ(world->store().get(res::statefulsets, kNs, rediscluster::names::redis("good"))->dump(), sts);
  EXPECT_EQ(masters("good", 3), 1);
  // Fixed again: Failed goes False and the cluster is Healthy for the new generation.
  editSpec("good", [](Object& s) { s["size"] = 3; });
  EXPECT_TRUE(waitHealthy("good", seconds(30))) << describe("good");
  EXPECT_FALSE(conditionTrue("good", rediscluster::conditions::kFailed));
}

}  // namespace
}  // namespace kun::scenario
