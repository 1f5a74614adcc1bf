// spec.config by CONFIG SET (only what differs) and password changes without losing
// replication or leaking the password.
#include <gtest/gtest.h>

#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::test {
namespace {

std::string configOf(HealWorld& w, const std::string& ip, const std::string& key, const std::string& pw = {}) {
  auto r = w.admin.command({ip, 6379}, {"CONFIG", "GET", key}, pw);
  if (!r.ok() || r->elements.size() < 2) return "?";
  return r->elements[1].str;
}

TEST(HealConfig, SpecConfigIsAppliedToEveryNodeWithoutRestart) {
  HealWorld w(Object{{"config", {{"maxmemory", "100mb"}, {"maxmemory-policy", "allkeys-lru"}}}});
  ASSERT_TRUE(w.converge()) << w.why();
  std::map<std::string, std::string> runIds;
  for (const auto& p : w.redisPods) {
    EXPECT_EQ(configOf(w, p.ip, "maxmemory"), "104857600");
    EXPECT_EQ(configOf(w, p.ip, "maxmemory-policy"), "allkeys-lru");
    runIds[p.ip] = w.node(p.name)->runId();
  }
  // A change is one CONFIG SET per node, of that parameter only.
  w.rc.spec.config["maxmemory-policy"] = "volatile-lru";
  const auto before = w.admin.stateChangingCalls();
  auto r = w.pass();
  EXPECT_EQ(w.admin.stateChangingCalls() - before, 3u) << w.allActions();
  EXPECT_EQ(r.phase, rediscluster::HealPhase::Updating);
  for (const auto& p : w.redisPods) {
    EXPECT_EQ(configOf(w, p.ip, "maxmemory-policy"), "volatile-lru");
    EXPECT_EQ(w.node(p.name)->runId(), runIds[p.ip]);  // no restart
  }
}

// The wanted config is kept across passes (ConfigChecks): a change of spec.config or of the
// password must rebuild it, or nodes found right for the old one would be skipped.
TEST(HealConfig, TheKeptWantedConfigFollowsSpecConfigAndPassword) {
  HealWorld w(Object{{"config", {{"maxmemory-policy", "allkeys-lru"}}}});
  rediscluster::ConfigChecks checks;
  w.configChecks = &checks;
  auto keptIsFresh = [&] {
    const auto fresh = rediscluster::wantedConfig(w.rc.spec.config, w.rc.spec.password);
    ASSERT_TRUE(checks.wanted.has_value());
    EXPECT_EQ(checks.wanted->wanted.want, fresh.want);
    EXPECT_EQ(checks.wanted->wanted.fingerprint, fresh.fingerprint);
    EXPECT_EQ(checks.wanted->wanted.configGet, fresh.configGet);
  };
  ASSERT_TRUE(w.converge()) << w.why();
  keptIsFresh();
  EXPECT_EQ(checks.wanted->wanted.want.at("maxmemory-policy"), "allkeys-lru");
  w.rc.spec.config["MaxMemory-Policy"] = "volatile-lru";
  w.rc.spec.config.erase("maxmemory-policy");
  w.pass();
  keptIsFresh();
  for (const auto& p : w.redisPods) EXPECT_EQ(configOf(w, p.ip, "maxmemory-policy"), "volatile-lru");
  w.olderPasswords = {w.rc.spec.password};
  w.rc.spec.password = "s3cret";
  ASSERT_TRUE(w.converge()) << w.why();
  keptIsFresh();
  EXPECT_EQ(checks.wanted->wanted.want.at("masterauth"), "s3cret");
}

TEST(HealConfig, ARecreatedPodGetsTheConfigAgain) {
  HealWorld w(Object{{"config", {{"maxmemory-policy", "allkeys-lfu"}}}});
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  std::string replica;
  for (const auto& p : w.redisPods)
    if (p.ip != master) replica = p.name;
  w.recreateRedisPod(replica);
  w.loop.runFor(milliseconds(200));
  ASSERT_TRUE(w.converge(120)) << w.why();
  EXPECT_EQ(configOf(w, w.node(replica)->ip(), "maxmemory-policy"), "allkeys-lfu");
}

TEST(HealConfig, AParameterRedisRefusesAtRuntimeIsReportedNotAnError) {
  HealWorld w(Object{{"config", {{"databases", "32"}}}});
  ASSERT_TRUE(w.converge()) << w.why();
  EXPECT_GE(w.countActions("refused"), 1) << w.allActions();
}

// Converged, every pod running with password `pw`.
::testing::AssertionResult convergeWithPassword(HealWorld& w, const std::string& pw) {
  w.password = pw;
  // The pods were created before the world knew: restart them with auth.conf.
  for (const auto& p : std::vector<rediscluster::PodInfo>(w.redisPods)) w.recreateRedisPod(p.name);
  w.loop.runFor(milliseconds(200));
  if (w.converge()) return ::testing::AssertionSuccess();
  return ::testing::AssertionFailure() << w.why() << w.allActions();
}

TEST(HealPassword, AChangeKeepsReplicationAndNeverShowsThePassword) {
  const std::string oldPw = "old-Secret-1", newPw = "new-Secret-2";
  HealWorld w(Object{{"password", oldPw}});
  ASSERT_TRUE(convergeWithPassword(w, oldPw));
  const std::string master = w.health().masterIP;
  ASSERT_TRUE(w.admin.command({master, 6379}, {"SET", "before", "1"}, oldPw)->isOk());

  w.rc.spec.password = newPw;
  w.olderPasswords = {oldPw};
  EXPECT_NE(w.why().find("older password"), std::string::npos);
  auto r = w.pass();
  EXPECT_TRUE(r.status.ok()) << r.status.error().toString();
  EXPECT_EQ(r.phase, rediscluster::HealPhase::Updating);
  for (const auto& p : w.redisPods) {
    auto* n = w.node(p.name);
    EXPECT_EQ(n->config().str("requirepass"), newPw);
    EXPECT_EQ(n->config().str("masterauth"), newPw);
    if (!n->isMaster()) {
      EXPECT_TRUE(n->masterLinkUp()) << p.name;  // the link never dropped
    }
  }
  // Replicas reconnecting (e.g. after a restart of the master) authenticate with the new one.
  w.olderPasswords.clear();
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  ASSERT_TRUE(w.admin.command({master, 6379}, {"SET", "after", "1"}, newPw)->isOk());
  w.loop.runFor(milliseconds(100));
  for (const auto& p : w.redisPods) EXPECT_EQ(w.node(p.name)->data().count("after"), 1u) << p.name;
  // The sentinels reach the master with it: no one sees it down.
  w.loop.runFor(seconds(5));
  EXPECT_TRUE(w.health().healthy) << w.why();
  const std::string all = w.allActions() + w.why();
  EXPECT_EQ(all.find(oldPw), std::string::npos);
  EXPECT_EQ(all.find(newPw), std::string::npos);
  EXPECT_NE(w.allActions().find("requirepass ***"), std::string::npos);
  for (const auto& e : w.trace.entries()) {
    EXPECT_EQ(e.text.find(oldPw), std::string::npos) << e.text;
    EXPECT_EQ(e.text.find(newPw), std::string::npos) << e.text;
  }
}

// While the objects cannot be written the auth Secret may not hold the new password and
// the old one: no node is moved to the new password until it does (an operator restarted
// meanwhile would know neither the nodes' password nor, on an invalid edit, the spec's).
TEST(HealPassword, NoChangeBeforeTheObjectsAreWritten) {
  const std::string oldPw = "old-Secret-1", newPw = "new-Secret-2";
  HealWorld w(Object{{"password", oldPw}});
  ASSERT_TRUE(convergeWithPassword(w, oldPw));
  w.rc.spec.password = newPw;
  w.olderPasswords = {oldPw};
  w.objectsEnsured = false;
  (void)w.pass();
  for (const auto& p : w.redisPods) EXPECT_EQ(w.node(p.name)->config().str("requirepass"), oldPw) << p.name;
  EXPECT_EQ(w.countActions("password change waits for the auth Secret to be written"), 1) << w.allActions();
  w.objectsEnsured = true;
  (void)w.pass();
  for (const auto& p : w.redisPods) EXPECT_EQ(w.node(p.name)->config().str("requirepass"), newPw) << p.name;
}

// A sentinel hung while the password changed keeps the old auth-pass, and nothing it
// reports shows it until a node restarts: heal remembers it and gives it the new one once
// it answers again.
// The first sentinel hung through one pass that sets a first password, then resumed;
// returns its pod.
rediscluster::PodInfo hangThroughAPasswordChange(HealWorld& w) {
  const rediscluster::PodInfo hung = w.sentinelPods.front();
  auto* s = w.sim.sentinel({hung.ip, 26379});
  EXPECT_NE(s, nullptr);
  s->hang();
  w.rc.spec.password = "first-Secret";
  w.olderPasswords = {""};
  (void)w.pass();
  EXPECT_EQ(w.authPassOwed.count(hung.uid), 1u) << w.allActions();
  EXPECT_EQ(w.allActions().find(hung.name + ": SENTINEL SET auth-pass ***"), std::string::npos);
  s->resume();
  w.loop.runFor(seconds(1));
  w.olderPasswords.clear();
  return hung;
}

TEST(HealPassword, ASentinelThatMissedTheChangeGetsItOnceItAnswers) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const rediscluster::PodInfo hung = hangThroughAPasswordChange(w);
  (void)w.pass();
  EXPECT_NE(w.allActions().find(hung.name + ": SENTINEL SET auth-pass ***"), std::string::npos) << w.allActions();
  EXPECT_EQ(w.authPassOwed.count(hung.uid), 0u);
  (void)w.pass();  // given once
  EXPECT_EQ(w.countActions(hung.name + ": SENTINEL SET auth-pass ***"), 1) << w.allActions();
}

// The master takes the new password but its reply is lost: the pass stops before the
// sentinels, and the next finds no node behind. The sentinels are owed the new auth-pass
// from the first requirepass on, and get it in that next pass (they kept the old one, and
// saw the master down, in kun-sim prop --vary-cluster --seed 53 --minutes 1).
TEST(HealPassword, TheSentinelsGetTheNewAuthPassWhenTheMastersReplyWasLost) {
  const std::string oldPw = "old-Secret-1", newPw = "new-Secret-2";
  HealWorld w(Object{{"password", oldPw}});
  ASSERT_TRUE(convergeWithPassword(w, oldPw));
  const std::string master = w.health().masterIP;
  w.rc.spec.password = newPw;
  w.olderPasswords = {oldPw};
  // The master's CONFIG SET requirepass runs, and its reply is lost.
  struct LosesTheMastersReply final : RedisAdmin {
    RedisAdmin& to;
    std::string master;
    LosesTheMastersReply(RedisAdmin& a, std::string m) : to(a), master(std::move(m)) {}
    Result<RedisReply> command(const RedisEndpoint& ep, const std::vector<std::string>& argv,
                               std::string_view password) override {
      auto r = to.command(ep, argv, password);
      if (ep.host == master && argv.size() == 4 && argv[2] == "requirepass")
        return makeError(Reason::Timeout, "read from " + ep.toString() + ": timed out");
      return r;
    }
  } losing(w.admin, master);
  w.healAdmin = &losing;
  auto r = w.pass();
  EXPECT_FALSE(r.status.ok()) << w.allActions();
  w.healAdmin = nullptr;
  for (const auto& p : w.redisPods) ASSERT_EQ(w.node(p.name)->config().str("requirepass"), newPw) << p.name;
  EXPECT_EQ(w.countActions("SENTINEL SET auth-pass ***"), 0) << w.allActions();
  EXPECT_EQ(w.authPassOwed.size(), w.sentinelPods.size());
  (void)w.pass();
  for (const auto& s : w.sentinelPods)
    EXPECT_EQ(w.countActions(s.name + ": SENTINEL SET auth-pass ***"), 1) << w.allActions();
  EXPECT_TRUE(w.authPassOwed.empty());
  w.olderPasswords.clear();
  // The sentinels reach the master with it: no one sees it down.
  w.loop.runFor(seconds(5));
  EXPECT_TRUE(w.health().healthy) << w.why();
  for (const auto& s : w.view().sentinels) EXPECT_FALSE(s.master.flags.down()) << s.pod.name;
}

// The same after an operator restart, which forgets what it owed: the sentinel sees a
// re-created replica down although that replica answers the operator — the sign of an
// old auth-pass — and is given the current one (found by kun-sim prop --seed 323).
TEST(HealPassword, ASentinelSeeingAReplicaDownThatAnswersUsIsGivenTheAuthPassAgain) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  const rediscluster::PodInfo hung = hangThroughAPasswordChange(w);
  w.authPassOwed.clear();  // an operator restarted since
  w.password = "first-Secret";
  std::string replica;
  for (const auto& p : w.redisPods)
    if (p.ip != master) replica = p.name;
  w.recreateRedisPod(replica);
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  EXPECT_GT(w.countActions(hung.name + ": SENTINEL SET auth-pass ***"), 0) << w.allActions();
}

// A replica hung through two password changes knows neither password the auth Secret
// keeps (the current one and the one before): nothing can be told to it and it cannot
// replicate. Its pod is made again, to start with the current password (found by kun-sim
// prop --seeds 416, 420).
TEST(HealPassword, APodHungThroughTwoPasswordChangesIsMadeAgain) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  rediscluster::PodInfo hung;
  for (const auto& p : w.redisPods)
    if (p.ip != master) hung = p;
  w.node(hung.name)->hang();
  w.rc.spec.password = "first-Secret";
  w.olderPasswords = {""};
  (void)w.pass();
  w.rc.spec.password = "second-Secret";
  w.olderPasswords = {"first-Secret"};
  (void)w.pass();
  EXPECT_TRUE(w.kube.deleted.empty()) << w.allActions();  // hung: it does not answer at all
  w.node(hung.name)->resume();
  w.loop.runFor(seconds(1));
  (void)w.pass();
  ASSERT_EQ(w.kube.deleted, std::vector<std::string>{hung.name}) << w.allActions();
  EXPECT_EQ(w.countActions("delete pod " + hung.name + " (refuses every password known"), 1) << w.allActions();
  w.olderPasswords.clear();
  w.password = "second-Secret";
  w.recreateRedisPod(hung.name);  // as the StatefulSet does
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  EXPECT_EQ(w.health().masterIP, master);
  EXPECT_EQ(w.kube.deleted.size(), 1u);
}

TEST(HealPassword, AFirstPasswordIsSetOnAClusterWithout) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  w.rc.spec.password = "first-Secret";
  w.olderPasswords = {""};
  (void)w.pass();
  for (const auto& p : w.redisPods) EXPECT_EQ(w.node(p.name)->config().str("requirepass"), "first-Secret");
  w.olderPasswords.clear();
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
}

// A node boots with replica-priority 0 and keeps it until it has the data: a re-created pod
// told its master is still unpromotable while its first sync runs (Sentinel would otherwise
// promote an empty node), and the cluster is not healthy until it has the spec's priority.
TEST(HealConfig, ReplicaPriorityIsTheSpecsOnlyOnceTheReplicaIsInSync) {
  HealWorld w;  // the defaults' slave-priority 1
  ASSERT_TRUE(w.converge()) << w.why();
  for (const auto& p : w.redisPods) EXPECT_EQ(configOf(w, p.ip, "replica-priority"), "1") << p.name;

  const std::string replica = w.redisPod(1)->ip == w.health().masterIP ? "redis-cluster-test-2" : "redis-cluster-test-1";
  w.recreateRedisPod(replica);
  const std::string ip = w.node(replica)->ip();
  w.loop.runFor(seconds(1));  // up, on the placeholder
  EXPECT_EQ(configOf(w, ip, "replica-priority"), "0");
  (void)w.pass();  // told its master; the full sync waits for the master's diskless delay
  EXPECT_NE(w.allActions().find(replica + ": replica of"), std::string::npos) << w.allActions();
  EXPECT_EQ(configOf(w, ip, "replica-priority"), "0");
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  EXPECT_EQ(configOf(w, ip, "replica-priority"), "1") << w.allActions();

  // Set back to 0 behind the operator's back: not healthy, and the next pass restores it.
  ASSERT_TRUE(w.admin.command({ip, 6379}, {"CONFIG", "SET", "replica-priority", "0"}).ok());
  const auto why = w.health().reasons;
  EXPECT_NE(std::find(why.begin(), why.end(), replica + ": replica-priority 0, Sentinel would not promote it"),
            why.end());
  (void)w.pass();
  EXPECT_EQ(configOf(w, ip, "replica-priority"), "1");
}

}  // namespace
}  // namespace kun::test
