// Replicas and sentinels that point at the wrong address, and stale sentinel entries.
#include <gtest/gtest.h>

#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::test {
namespace {

TEST(HealReplicas, AReplicaOfADeadAddressFollowsTheMasterAgain) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  const std::string replica = w.redisPods[1].ip == master ? w.redisPods[2].name : w.redisPods[1].name;
  ASSERT_TRUE(w.admin.command({w.node(replica)->ip(), 6379}, {"REPLICAOF", "10.0.0.99", "6379"}).ok());
  auto r = w.pass();
  EXPECT_EQ(w.node(replica)->masterHost(), master) << w.allActions();
  EXPECT_EQ(r.phase, rediscluster::HealPhase::Recovering);
  ASSERT_TRUE(w.converge()) << w.why();
}

TEST(HealReplicas, AReplicaOfAReusedAddressFollowsTheMasterAgain) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  const auto replicas = w.replicaNames(master);
  ASSERT_EQ(replicas.size(), 2u);
  // The address it follows now belongs to another replica (an IP handed out again).
  ASSERT_TRUE(w.admin.command({w.node(replicas[0])->ip(), 6379}, {"REPLICAOF", w.node(replicas[1])->ip(), "6379"}).ok());
  (void)w.pass();
  EXPECT_EQ(w.node(replicas[0])->masterHost(), master) << w.allActions();
}

TEST(HealSentinels, ASentinelMonitoringAnotherAddressIsPointedAtTheMasterWithTheSettings) {
  HealWorld w(Object{{"sentinel", {{"customConfig", {"down-after-milliseconds 2500", "parallel-syncs 1"}}}}});
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  const RedisEndpoint s{w.sentinelPods[1].ip, 26379};
  ASSERT_TRUE(w.admin.command(s, {"SENTINEL", "REMOVE", "mymaster"}).ok());
  ASSERT_TRUE(w.admin.command(s, {"SENTINEL", "MONITOR", "mymaster", "10.0.0.77", "6379", "2"}).ok());
  (void)w.pass();
  auto m = parseSentinelMaster(*w.admin.command(s, {"SENTINEL", "MASTER", "mymaster"}));
  ASSERT_TRUE(m.ok());
  EXPECT_EQ(m->ip, master) << w.allActions();
  EXPECT_EQ(m->downAfterMs, 2500);
  EXPECT_EQ(m->failoverTimeoutMs, 3000);
  EXPECT_EQ(m->parallelSyncs, 1);
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
}

TEST(HealSentinels, ACustomConfigChangeIsSetOnlyWhereItDiffers) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  w.rc.spec.sentinel.customConfig = {"down-after-milliseconds 4000"};
  const auto before = w.admin.stateChangingCalls();
  (void)w.pass();
  EXPECT_EQ(w.admin.stateChangingCalls() - before, 3u) << w.allActions();  // one SET per sentinel
  for (const auto& p : w.sentinelPods) {
    auto m = parseSentinelMaster(*w.admin.command({p.ip, 26379}, {"SENTINEL", "MASTER", "mymaster"}));
    ASSERT_TRUE(m.ok());
    EXPECT_EQ(m->downAfterMs, 4000);
  }
  const auto after = w.admin.stateChangingCalls();
  (void)w.pass();
  EXPECT_EQ(w.admin.stateChangingCalls(), after);
}

// A replica pod re-created at a new IP: every sentinel keeps the old address. They are
// reset one at a time, each after the previous one rediscovered everything.
struct StaleReplica {
  explicit StaleReplica(rediscluster::HealOptions o = {}) {
    w.options = o;
    ok = w.converge();
    if (!ok) return;
    master = w.health().masterIP;
    for (const auto& p : w.redisPods)
      if (p.ip != master) replica = p.name;
    oldIp = w.node(replica)->ip();
    w.recreateRedisPod(replica);
    w.loop.runFor(milliseconds(200));
  }
  HealWorld w;
  bool ok = false;
  std::string master, replica, oldIp;
};

TEST(HealSentinelReset, StaleEntriesAreResetOneSentinelAtATime) {
  StaleReplica c;
  ASSERT_TRUE(c.ok) << c.w.why();
  int maxPerPass = 0;
  c.w.onPass = [&](const rediscluster::HealReport& r) {
    int resets = 0;
    for (const auto& a : r.actions)
      if (a.find("SENTINEL RESET") != std::string::npos) ++resets;
    maxPerPass = std::max(maxPerPass, resets);
  };
  ASSERT_TRUE(c.w.converge(120)) << c.w.why() << c.w.allActions();
  EXPECT_EQ(maxPerPass, 1);
  EXPECT_EQ(c.w.countActions("SENTINEL RESET"), 3) << c.w.allActions();
  for (auto* s : c.w.sim.sentinels()) {
    for (const auto& ep : s->knownReplicas("mymaster")) EXPECT_NE(ep.host, c.oldIp);
  }
  // Between two resets, the one reset before knew every replica and sentinel again.
  EXPECT_GE(c.w.countActions("rediscovering"), 1);
}

// Two of three sentinels answer, both able to lead a failover and both with the stale
// entry: resetting either would leave one, short of the quorum. The entries stay until
// the third answers again.
TEST(HealSentinelReset, NoResetLeavesTooFewSentinelsAbleToFailOver) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  w.loop.runFor(seconds(11));  // every sentinel has read the replicas' priorities (INFO every 10 s)
  const std::string master = w.health().masterIP;
  auto* hung = w.sim.sentinels().front();
  hung->hang();
  for (const auto& p : w.redisPods)
    if (p.ip != master) {
      w.recreateRedisPod(p.name);
      break;
    }
  for (int i = 0; i < 15; ++i) w.loop.runFor(w.pass().requeueAfter.value_or(seconds(1)));
  EXPECT_EQ(w.countActions("SENTINEL RESET"), 0) << w.allActions();
  EXPECT_GE(w.countActions("too few other sentinels could fail over without it"), 1) << w.allActions();
  hung->resume();
  ASSERT_TRUE(w.converge(120)) << w.why() << w.allActions();
  EXPECT_EQ(w.countActions("SENTINEL RESET"), 3) << w.allActions();
}

// A sentinel that kept its run id came back on an IP another sentinel had: Sentinel moves
// its entry there and keeps the other one, so the address is listed twice (one peer too
// many), and the sentinel at that address lists the newcomer at its own. Both are pods'
// addresses; the duplicate, and the self, are what is stale.
TEST(HealSentinelReset, TwoRunIdsAtOneAddressAreReset) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  w.loop.runFor(seconds(11));
  const std::string master = w.health().masterIP;
  const std::string reused = w.sentinelPods[0].ip;
  auto hello = [&](const std::string& ip) {
    return ip + ",26379,0123456789abcdef0123456789abcdef01234567,0,mymaster," + master + ",6379,0";
  };
  for (const std::string& ip : {std::string("10.0.5.5"), reused}) {
    ASSERT_TRUE(w.admin.command({master, 6379}, {"PUBLISH", "__sentinel__:hello", hello(ip)}).ok());
    w.loop.runFor(milliseconds(500));
  }
  const auto v = w.view();
  EXPECT_TRUE(std::any_of(v.sentinels.begin(), v.sentinels.end(), [&](const auto& s) {
    return std::count_if(s.peers.begin(), s.peers.end(), [&](const auto& p) { return p.ip == reused; }) == 2;
  }));
  EXPECT_FALSE(w.health().healthy);
  ASSERT_TRUE(w.converge(120)) << w.why() << w.allActions();
  EXPECT_GE(w.countActions("sentinel " + reused + ":26379 (twice)"), 1) << w.allActions();
  EXPECT_EQ(w.countActions("sentinel " + reused + ":26379 (its own address)"), 1) << w.allActions();
}

TEST(HealSentinelReset, ResetAllSentinelsForTestResetsThemTogether) {
  rediscluster::HealOptions o;
  o.resetAllSentinelsForTest = true;
  StaleReplica c(o);
  ASSERT_TRUE(c.ok) << c.w.why();
  bool together = false;
  c.w.onPass = [&](const rediscluster::HealReport& r) {
    int resets = 0;
    for (const auto& a : r.actions)
      if (a.find("SENTINEL RESET") != std::string::npos) ++resets;
    together = together || resets == 3;
  };
  (void)c.w.converge(40);
  EXPECT_TRUE(together) << c.w.allActions();
}

TEST(HealSentinelReset, SkipSentinelResetForTestLeavesTheStaleEntries) {
  rediscluster::HealOptions o;
  o.skipSentinelResetForTest = true;
  StaleReplica c(o);
  ASSERT_TRUE(c.ok) << c.w.why();
  EXPECT_FALSE(c.w.converge(30));
  EXPECT_EQ(c.w.countActions("SENTINEL RESET"), 0);
  EXPECT_NE(c.w.why().find("stale replica entry " + c.oldIp), std::string::npos) << c.w.why();
}

TEST(HealSentinelReset, AFreshSentinelIsNotResetWhileItDiscovers) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  // A sentinel pod re-created: it boots on the placeholder and gets MONITOR; knowing
  // nobody yet is no reason to reset it or anyone else.
  const std::string name = w.sentinelPods[0].name;
  w.deleteSentinelPod(name);
  w.addSentinelPod(0);
  w.loop.runFor(milliseconds(200));
  ASSERT_TRUE(w.converge(120)) << w.why() << w.allActions();
  // The gone sentinel's address is stale in the other two: reset, one at a time.
  EXPECT_LE(w.countActions("SENTINEL RESET"), 2) << w.allActions();
}

// A sentinel cut off from a replica that answers the operator shows the sign of an old
// auth-pass (it sees that replica down); the auth-pass is given again for it, but at most
// once per authPassResend, as each time drops the sentinel's connections.
TEST(HealSentinels, TheAuthPassIsGivenForASignAtMostOncePerPeriod) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  std::string replica;
  for (const auto& p : w.redisPods)
    if (p.ip != master) replica = p.ip;
  const rediscluster::PodInfo cut = w.sentinelPods.front();
  w.net.cutBoth(cut.ip, replica);
  const std::string given = cut.name + ": SENTINEL SET auth-pass ***";
  const auto passesFor = [&](Duration d) {
    for (const TimePoint until = w.loop.now() + d; w.loop.now() < until;) {
      (void)w.pass();
      w.loop.runFor(seconds(1));
    }
  };
  passesFor(seconds(20));
  EXPECT_EQ(w.countActions(given), 1) << w.allActions();
  passesFor(w.options.authPassResend);
  EXPECT_EQ(w.countActions(given), 2) << w.allActions();
}

}  // namespace
}  // namespace kun::test
