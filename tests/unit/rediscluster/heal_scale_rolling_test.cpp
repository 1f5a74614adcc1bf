// Scale-down never removes the master; a rolling restart replaces replicas first, each in
// sync before the next, and moves the master away before its pod goes. Both move the
// master fenced, once a replica it may go to has its last write.
#include <gtest/gtest.h>

#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::test {
namespace {

// Converged with the master on the pod of the highest ordinal (it had the data).
void masterOnLastPod(HealWorld& w) {
  const std::int32_t last = w.rc.spec.size - 1;
  w.deleteRedisPod(w.redisPod(last)->name);
  redissim::RedisDisk disk;
  disk.rdb = redissim::Dataset{{"k", "v"}};
  disk.rdbReplId = "abcdefabcdefabcdefabcdefabcdefabcdefabcd";
  disk.rdbReplOffset = 1000;
  w.addRedisPod(last, disk);
  w.loop.runFor(milliseconds(200));
}

// The StatefulSet follows redisReplicasToKeep (the reconciler passes it to Ensure): pods
// past it go after each pass; `removedMaster` records one going while it is master.
void followKeptReplicas(HealWorld& w, bool& removedMaster) {
  w.onPass = [&w, &removedMaster](const rediscluster::HealReport&) {
    const auto keep = rediscluster::redisReplicasToKeep(w.rc, w.view());
    for (const auto& p : std::vector<rediscluster::PodInfo>(w.redisPods)) {
      if (p.ordinal < keep) continue;
      if (w.node(p.name) && w.node(p.name)->isMaster()) removedMaster = true;
      w.deleteRedisPod(p.name);
    }
  };
}

// Passes (each followed by onPass and its requeue) until an action containing `needle`.
bool passUntilAction(HealWorld& w, const std::string& needle, int maxPasses = 60) {
  for (int i = 0; i < maxPasses && w.countActions(needle) == 0; ++i) {
    auto r = w.pass();
    if (w.onPass) w.onPass(r);
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  return w.countActions(needle) > 0;
}

// A cluster of 5 with the master on pod 4, scaled down to 3 while the master's stream to
// the pods that stay is held up (a one-way cut: their links look up) after a last write.
struct LaggingScaleDown {
  LaggingScaleDown() : w(Object{{"size", 5}}) {
    masterOnLastPod(w);
    ok = w.converge(120) && w.health().masterIP == w.redisPod(4)->ip;
    if (!ok) return;
    master = w.redisPod(4)->ip;
    for (std::int32_t i = 0; i < 3; ++i) w.net.cut(master, w.redisPod(i)->ip);
    auto set = w.admin.command(masterEp(), {"SET", "last", "write"}, {});
    ok = set.ok() && set->isOk();
    w.rc.spec.size = 3;
    followKeptReplicas(w, removedMaster);
  }
  RedisEndpoint masterEp() const { return {master, rediscluster::layout::kRedisPort}; }
  void restore() {
    for (std::int32_t i = 0; i < 3; ++i) w.net.restore(master, w.redisPod(i)->ip);
  }
  HealWorld w;
  bool ok = false;
  bool removedMaster = false;
  std::string master;
};

TEST(HealScale, ScaleDownFailsTheMasterOverBeforeItsPodGoes) {
  HealWorld w(Object{{"size", 5}});
  masterOnLastPod(w);
  ASSERT_TRUE(w.converge(120)) << w.why();
  ASSERT_EQ(w.health().masterIP, w.redisPod(4)->ip);
  w.rc.spec.size = 3;
  EXPECT_EQ(rediscluster::redisReplicasToKeep(w.rc, w.view()), 5);
  bool removedMaster = false;
  followKeptReplicas(w, removedMaster);
  ASSERT_TRUE(w.converge(150)) << w.why() << w.allActions();
  EXPECT_FALSE(removedMaster);
  EXPECT_EQ(w.redisPods.size(), 3u);
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 1) << w.allActions();
  EXPECT_EQ(w.node(w.redisPod(0)->name)->data().count("k"), 1u);
}

// A sentinel in TILT (here after a 3 s hang) starts no failover for 30 s: health names
// it, and the master's move asks another sentinel.
TEST(HealScale, TheMasterMoveAsksASentinelNotInTilt) {
  HealWorld w(Object{{"size", 5}});
  masterOnLastPod(w);
  ASSERT_TRUE(w.converge(120)) << w.why();
  auto* tilted = w.sim.sentinel({w.sentinelPods[0].ip, rediscluster::layout::kSentinelPort});
  ASSERT_NE(tilted, nullptr);
  tilted->hang();
  w.loop.runFor(seconds(3));
  tilted->resume();
  w.loop.runFor(milliseconds(300));
  ASSERT_TRUE(w.view().sentinels[0].tilt);
  EXPECT_NE(w.why().find(w.sentinelPods[0].name + ": in TILT mode"), std::string::npos) << w.why();
  w.rc.spec.size = 3;
  bool removedMaster = false;
  followKeptReplicas(w, removedMaster);
  ASSERT_TRUE(passUntilAction(w, "SENTINEL FAILOVER")) << w.allActions();
  EXPECT_EQ(w.countActions(w.sentinelPods[0].name + ": SENTINEL FAILOVER"), 0) << w.allActions();
  ASSERT_TRUE(w.converge(150)) << w.why() << w.allActions();
  EXPECT_FALSE(removedMaster);
  EXPECT_FALSE(w.view().sentinels[0].tilt);
}

// As in a roll, the master that goes is fenced and moved only once a pod that stays has
// its last write: a staying replica whose link looks up is not enough.
TEST(HealScale, TheFencedMasterMovesOnlyOnceAStayingReplicaHasItsLastWrite) {
  LaggingScaleDown c;
  ASSERT_TRUE(c.ok) << c.w.why() << c.w.allActions();
  auto& w = c.w;
  ASSERT_TRUE(passUntilAction(w, "waits for a replica to have every write")) << w.allActions();
  for (int i = 0; i < 5; ++i) {
    auto r = w.pass();
    w.onPass(r);
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  // Fenced above the 4 replicas it has (spec.size, 3, would not fence it), not moved.
  EXPECT_EQ(w.countActions("CONFIG SET min-replicas-to-write 5"), 1) << w.allActions();
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 0) << w.allActions();
  EXPECT_EQ(w.health().masterIP, c.master);
  auto refused = w.admin.command(c.masterEp(), {"SET", "fenced", "write"}, {});
  ASSERT_TRUE(refused.ok());
  EXPECT_TRUE(refused->isError() && refused->str.rfind("NOREPLICAS", 0) == 0) << refused->str;

  c.restore();
  ASSERT_TRUE(w.converge(150)) << w.why() << w.allActions();
  EXPECT_FALSE(c.removedMaster);
  EXPECT_EQ(w.redisPods.size(), 3u);
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 1) << w.allActions();
  const std::string now = w.health().masterIP;
  ASSERT_NE(now, c.master);
  auto get = w.admin.command({now, rediscluster::layout::kRedisPort}, {"GET", "last"}, {});
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->str, "write");
}

// Size back up while the fenced master waits: it no longer moves, so its fence is lifted
// (it must not refuse writes for ever) and the pods that were to go are promotable again.
TEST(HealScale, AScaleDownRevertedWhileTheFencedMasterWaitsLiftsTheFence) {
  LaggingScaleDown c;
  ASSERT_TRUE(c.ok) << c.w.why() << c.w.allActions();
  auto& w = c.w;
  ASSERT_TRUE(passUntilAction(w, "CONFIG SET min-replicas-to-write 5")) << w.allActions();
  ASSERT_TRUE(w.admin.command(c.masterEp(), {"SET", "k", "v"}, {})->isError());
  w.rc.spec.size = 5;
  ASSERT_TRUE(passUntilAction(w, "CONFIG SET min-replicas-to-write 0", 10)) << w.allActions();
  auto set = w.admin.command(c.masterEp(), {"SET", "k", "v"}, {});
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE(set->isOk()) << set->str;

  c.restore();
  ASSERT_TRUE(w.converge(150)) << w.why() << w.allActions();
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 0) << w.allActions();
  EXPECT_EQ(w.health().masterIP, c.master);
  EXPECT_EQ(w.redisPods.size(), 5u);
  auto priority = w.admin.command(w.redisEp(3), {"CONFIG", "GET", "replica-priority"}, {});
  ASSERT_TRUE(priority.ok() && priority->elements.size() == 2);
  EXPECT_NE(priority->elements[1].str, "0");
}

TEST(HealScale, ScaleUpPodsJoinAsReplicas) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  w.rc.spec.size = 5;
  w.addRedisPod(3);
  w.addRedisPod(4);
  w.loop.runFor(milliseconds(200));
  auto r = w.pass();
  EXPECT_EQ(r.phase, rediscluster::HealPhase::Recovering);
  ASSERT_TRUE(w.converge(120)) << w.why() << w.allActions();
  EXPECT_EQ(w.health().masterIP, master);
  EXPECT_EQ(w.countActions("SENTINEL RESET"), 0) << w.allActions();
}

struct Rolling {
  explicit Rolling(rediscluster::HealOptions o = {}) {
    w.options = o;
    ok = w.converge();
    if (!ok) return;
    firstMaster = w.health().masterIP;
    w.revision = w.updateRevision = "redis-cluster-test-r2";
    w.onPass = [this](const rediscluster::HealReport&) {
      for (std::size_t i = seen; i < w.kube.deleted.size(); ++i) {
        const std::string& name = w.kube.deleted[i];
        auto* n = w.node(name);
        Deletion d{name, n && n->isMaster(), 0};
        for (const auto& p : w.redisPods)
          if (auto* o = w.node(p.name); o && p.name != name && !o->isMaster() && !o->masterLinkUp()) ++d.othersOutOfSync;
        deletions.push_back(d);
        w.recreateRedisPod(name);
      }
      seen = w.kube.deleted.size();
    };
  }
  struct Deletion {
    std::string pod;
    bool wasMaster;
    int othersOutOfSync;
  };
  HealWorld w;
  bool ok = false;
  std::string firstMaster;
  std::size_t seen = 0;
  std::vector<Deletion> deletions;
};

TEST(HealRolling, ReplicasFirstEachInSyncThenTheMasterMovesAway) {
  Rolling c;
  ASSERT_TRUE(c.ok) << c.w.why();
  // Healthy, but on the old revision: heal rolls.
  ASSERT_TRUE(c.w.health().healthy) << c.w.why();
  for (int i = 0; i < 200 && c.deletions.size() < 3; ++i) {
    auto r = c.w.pass();
    c.w.onPass(r);
    c.w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  ASSERT_TRUE(c.w.converge(200)) << c.w.why() << c.w.allActions();
  ASSERT_EQ(c.deletions.size(), 3u) << c.w.allActions();
  for (const auto& d : c.deletions) {
    EXPECT_FALSE(d.wasMaster) << d.pod;
    EXPECT_EQ(d.othersOutOfSync, 0) << d.pod;
  }
  EXPECT_EQ(c.w.countActions("SENTINEL FAILOVER"), 1) << c.w.allActions();
  // The old master was fenced (refuses writes) just before Sentinel was asked to move it.
  const std::string all = c.w.allActions();
  EXPECT_EQ(c.w.countActions("CONFIG SET min-replicas-to-write 3"), 1) << all;
  EXPECT_LT(all.find("min-replicas-to-write"), all.find("SENTINEL FAILOVER")) << all;
  for (const auto& p : c.w.redisPods) EXPECT_EQ(p.revision, "redis-cluster-test-r2");
  EXPECT_NE(c.w.health().masterIP, c.firstMaster);
  // Done: the next pass deletes nothing and changes nothing.
  auto r = c.w.pass();
  EXPECT_FALSE(r.changed()) << c.w.allActions();
}

// A replica whose link looks up while the master's stream to it is held up (a one-way cut)
// lacks the master's last writes: the fenced master is not moved until one has them.
TEST(HealRolling, TheFencedMasterMovesOnlyOnceAReplicaHasItsLastWrite) {
  Rolling c;
  ASSERT_TRUE(c.ok) << c.w.why();
  auto& w = c.w;
  const auto linked = [&] {
    int n = 0;
    for (const auto& p : w.redisPods)
      if (auto* o = w.node(p.name); o && !o->isMaster() && o->masterLinkUp()) ++n;
    return n == 2;
  };
  // Roll the two replicas and let them sync, stopping before the pass that fences.
  for (int i = 0; i < 200 && !(c.deletions.size() == 2 && linked()); ++i) {
    auto r = w.pass();
    w.onPass(r);
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  ASSERT_EQ(c.deletions.size(), 2u) << w.allActions();
  ASSERT_TRUE(linked());
  ASSERT_EQ(w.countActions("min-replicas-to-write"), 0) << w.allActions();

  const std::string master = w.health().masterIP;
  const auto replicas = w.replicaIps(master);
  for (const auto& r : replicas) w.net.cut(master, r);
  auto set = w.admin.command({master, rediscluster::layout::kRedisPort}, {"SET", "last", "write"}, {});
  ASSERT_TRUE(set.ok() && set->isOk());

  for (int i = 0; i < 8; ++i) {
    auto r = w.pass();
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  EXPECT_EQ(w.countActions("CONFIG SET min-replicas-to-write 3"), 1) << w.allActions();
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 0) << w.allActions();
  EXPECT_NE(w.allActions().find("waits for a replica to have every write"), std::string::npos) << w.allActions();

  for (const auto& r : replicas) w.net.restore(master, r);
  for (int i = 0; i < 200 && c.deletions.size() < 3; ++i) {
    auto r = w.pass();
    w.onPass(r);
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  ASSERT_TRUE(w.converge(200)) << w.why() << w.allActions();
  EXPECT_EQ(w.countActions("SENTINEL FAILOVER"), 1) << w.allActions();
  const std::string now = w.health().masterIP;
  ASSERT_NE(now, master);
  auto get = w.admin.command({now, rediscluster::layout::kRedisPort}, {"GET", "last"}, {});
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->str, "write");
}

// A fence the roll no longer needs (the change was reverted while the master waited) is
// lifted: the master must not refuse writes for ever.
TEST(HealRolling, AFenceLeftBehindIsLifted) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const std::string master = w.health().masterIP;
  const RedisEndpoint ep{master, rediscluster::layout::kRedisPort};
  ASSERT_TRUE(w.admin.command(ep, {"CONFIG", "SET", "min-replicas-to-write", "3"}, {}).ok());
  ASSERT_TRUE(w.admin.command(ep, {"SET", "k", "v"}, {})->isError());
  for (int i = 0; i < 40; ++i) {
    auto r = w.pass();
    w.loop.runFor(r.requeueAfter.value_or(seconds(1)));
  }
  EXPECT_GE(w.countActions("CONFIG SET min-replicas-to-write 0"), 1) << w.allActions();
  auto set = w.admin.command(ep, {"SET", "k", "v"}, {});
  ASSERT_TRUE(set.ok());
  EXPECT_TRUE(set->isOk()) << set->str;
}

TEST(HealRolling, RestartMasterBeforeSyncForTestDeletesTheMasterFirst) {
  rediscluster::HealOptions o;
  o.restartMasterBeforeSyncForTest = true;
  Rolling c(o);
  ASSERT_TRUE(c.ok) << c.w.why();
  auto r = c.w.pass();
  c.w.onPass(r);
  ASSERT_FALSE(c.deletions.empty()) << c.w.allActions();
  EXPECT_TRUE(c.deletions.front().wasMaster);
}

}  // namespace
}  // namespace kun::test
