// Spec changes a user makes to a running cluster: size, redis config, password.
#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

TEST_F(OperatorScenario, ScaleThreeToFiveAndBackKeepsOneMasterAndTheData) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "before", "1"));

  editSpec("a", [](Object& s) { s["size"] = 5; });
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  EXPECT_EQ(masters("a", 5), 1);
  EXPECT_TRUE(readableEverywhere("a", 5, "before", "1"));
  auto* sentinel = sentinelOf(sentinelPod("a", 0));
  ASSERT_NE(sentinel, nullptr);
  auto r = send(podIp(sentinelPod("a", 0)), 26379, {"SENTINEL", "REPLICAS", "mymaster"}, "");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->elements.size(), 4u);

  editSpec("a", [](Object& s) { s["size"] = 3; });
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  EXPECT_EQ(masters("a", 3), 1);
  EXPECT_EQ(redisOf(redisPod("a", 3)), nullptr);
  EXPECT_EQ(redisOf(redisPod("a", 4)), nullptr);
  auto m = masterBySentinel("a", 3);
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->host, status("a").masterIP);
  ASSERT_TRUE(write("a", "after", "2"));
  EXPECT_TRUE(readableEverywhere("a", 3, "before", "1"));
  EXPECT_TRUE(readableEverywhere("a", 3, "after", "2"));
}

TEST_F(OperatorScenario, ConfigChangeIsAppliedOnEveryRedisPod) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const std::string uid0 = podUid(redisPod("a", 0));
  editSpec("a", [](Object& s) { s["config"]["maxmemory-policy"] = "allkeys-lru"; s["config"]["hz"] = "20"; });
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(world->runUntil([&] {
    for (int i = 0; i < 3; ++i) {
      auto r = send(podIp(redisPod("a", i)), 6379, {"CONFIG", "GET", "maxmemory-policy"}, "");
      if (!r.ok() || r->elements.size() != 2 || r->elements[1].str != "allkeys-lru") return false;
      auto h = send(podIp(redisPod("a", i)), 6379, {"CONFIG", "GET", "hz"}, "");
      if (!h.ok() || h->elements.size() != 2 || h->elements[1].str != "20") return false;
    }
    return true;
  }, seconds(30)));
  EXPECT_EQ(podUid(redisPod("a", 0)), uid0);  // applied live, no restart
}

TEST_F(OperatorScenario, PasswordChangeNewOneWorksOldOneIsRefused) {
  startOperator();
  create("a", Object{{"size", 3}, {"password", "first-secret"}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v", "first-secret"));
  editSpec("a", [](Object& s) { s["password"] = "second-secret"; });
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(world->runUntil([&] {
    for (int i = 0; i < 3; ++i) {
      const std::string ip = podIp(redisPod("a", i));
      auto ok = send(ip, 6379, {"PING"}, "second-secret");
      auto old = send(ip, 6379, {"PING"}, "first-secret");
      if (!ok.ok() || ok->str != "PONG" || !old.ok() || old->errorCode() != "WRONGPASS") return false;
    }
    return true;
  }, seconds(30)));
  EXPECT_TRUE(write("a", "k2", "v2", "second-secret"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k", "v", "second-secret"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k2", "v2", "second-secret"));
  for (int i = 0; i < 3; ++i)
    if (auto* n = redisOf(redisPod("a", i)); n && !n->isMaster()) EXPECT_TRUE(n->masterLinkUp()) << i;
}

}  // namespace
}  // namespace kun::scenario
