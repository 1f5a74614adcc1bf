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
    if (auto* n = redisOf(redisPod("a", i)); n && !n->isMaster()) {
      EXPECT_TRUE(n->masterLinkUp()) << i;
    }
}

// The operator reads a node's config back at most every 30 s while nothing changes; a
// parameter changed by hand behind its back is still put back by the periodic recheck.
TEST_F(OperatorScenario, ConfigChangedByHandIsPutBackByTheRecheck) {
  startOperator();
  create("a", Object{{"size", 3}, {"config", {{"hz", "20"}}}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const std::string ip = podIp(redisPod("a", 1));
  auto hz = [&] {
    auto r = send(ip, 6379, {"CONFIG", "GET", "hz"}, "");
    return r.ok() && r->elements.size() == 2 ? r->elements[1].str : std::string();
  };
  ASSERT_TRUE(world->runUntil([&] { return hz() == "20"; }, seconds(30)));
  world->runFor(seconds(5));
  auto set = send(ip, 6379, {"CONFIG", "SET", "hz", "50"}, "");
  ASSERT_TRUE(set.ok() && set->isOk());
  const TimePoint changed = world->loop().now();
  ASSERT_TRUE(world->runUntil([&] { return hz() == "20"; }, seconds(75))) << "never put back";
  // Within one recheck (30 s) and the 30 s the node's last reading may still be trusted.
  EXPECT_LE(world->loop().now() - changed, seconds(61));
}

// Refuses one node's CONFIG SET requirepass (as if the node were unreachable for it), so
// that a password change stops half done.
class RefuseRequirepass final : public RedisAdmin {
 public:
  explicit RefuseRequirepass(RedisAdmin& inner) : inner_(inner) {}
  std::string refusedIp;
  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password) override {
    if (!refusedIp.empty() && to.host == refusedIp && argv.size() >= 3 && argv[0] == "CONFIG" && argv[1] == "SET" &&
        argv[2] == "requirepass")
      return makeError(Reason::Unavailable, "connection reset (test)");
    return inner_.command(to, argv, password);
  }

 private:
  RedisAdmin& inner_;
};

// The operator goes away in the middle of a password change, with one node still on the
// old password: the new operator has nothing in memory and must find the old password
// where it was kept (the auth Secret), finish the change and then drop it.
TEST_F(OperatorScenario, PasswordChangeFinishesAfterAnOperatorRestartInTheMiddle) {
  RefuseRequirepass refusing(world->operatorAdmin());
  operatorRedis = &refusing;
  startOperator();
  create("a", Object{{"size", 3}, {"password", "first-secret"}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v", "first-secret"));
  // Replicas change before the master, in ordinal order: the last replica is refused, so
  // the first one has the new password by then.
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  std::vector<int> replicas;
  for (int i = 0; i < 3; ++i)
    if (i != m) replicas.push_back(i);
  const std::string changed = podIp(redisPod("a", replicas.front()));
  const std::string stuck = podIp(redisPod("a", replicas.back()));
  refusing.refusedIp = stuck;
  editSpec("a", [](Object& s) { s["password"] = "second-secret"; });
  auto answers = [&](const std::string& ip, const char* pw) {
    auto r = send(ip, 6379, {"PING"}, pw);
    return r.ok() && r->str == "PONG";
  };
  // Half done: another node already on the new password, the refused one still on the old.
  ASSERT_TRUE(world->runUntil([&] {
    return answers(changed, "second-secret") && answers(stuck, "first-secret");
  }, seconds(30)));
  world->runFor(seconds(3));
  ASSERT_TRUE(answers(stuck, "first-secret"));
  ASSERT_FALSE(healthy("a"));
  stopOperator();
  refusing.refusedIp.clear();
  startOperator();
  ASSERT_TRUE(world->runUntil([&] {
    return healthy("a") && answers(stuck, "second-secret") && !answers(stuck, "first-secret");
  }, seconds(60))) << describe("a");
  for (int i = 0; i < 3; ++i) EXPECT_TRUE(answers(podIp(redisPod("a", i)), "second-secret")) << i;
  EXPECT_TRUE(readableEverywhere("a", 3, "k", "v", "second-secret"));
  ASSERT_TRUE(write("a", "k2", "v2", "second-secret"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k2", "v2", "second-secret"));
  // Done: the old password is no longer kept anywhere.
  auto secret = world->store().get(res::secrets, kNs, "redis-auth-a");
  ASSERT_TRUE(secret.ok());
  EXPECT_FALSE((*secret)["data"].contains("previous-password")) << "the old password is still kept";
  // Neither password was ever written into an Event.
  auto events = world->store().list(res::events, kNs);
  ASSERT_TRUE(events.ok());
  for (const auto& e : events->items) {
    const std::string text = e.dump();
    EXPECT_EQ(text.find("first-secret"), std::string::npos) << text;
    EXPECT_EQ(text.find("second-secret"), std::string::npos) << text;
  }
}

}  // namespace
}  // namespace kun::scenario
