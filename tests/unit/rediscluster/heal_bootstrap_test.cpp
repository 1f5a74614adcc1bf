// Bootstrap from the boot placeholder, and the cost of a healthy cluster.
#include <gtest/gtest.h>

#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::test {
namespace {

using rediscluster::HealPhase;

// Pod 2 replaced by one that boots from `disk` (a volume kept from before); the others empty.
void keepVolumeOfPod2(HealWorld& w, redissim::RedisDisk disk) {
  w.deleteRedisPod(w.redisPod(2)->name);
  w.addRedisPod(2, std::move(disk));
  w.loop.runFor(milliseconds(200));
}

TEST(HealBootstrap, AllPodsOnThePlaceholderBecomeOneMasterTwoReplicasThreeSentinels) {
  HealWorld w;
  auto before = w.health();
  EXPECT_FALSE(before.healthy);
  EXPECT_TRUE(before.masterIP.empty());
  auto first = w.pass();
  EXPECT_TRUE(first.status.ok()) << first.status.error().toString();
  EXPECT_EQ(first.phase, HealPhase::Creating);
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  auto h = w.health();
  EXPECT_EQ(w.countActions("promoted to master"), 1);
  // Every sentinel names the master and carries the cluster's settings, not MONITOR's
  // defaults.
  for (const auto& p : w.sentinelPods) {
    auto* s = w.sim.sentinel({p.ip, 26379});
    ASSERT_NE(s, nullptr);
    ASSERT_TRUE(s->masterAddress("mymaster"));
    EXPECT_EQ(s->masterAddress("mymaster")->host, h.masterIP);
    auto m = w.admin.command({p.ip, 26379}, {"SENTINEL", "MASTER", "mymaster"});
    ASSERT_TRUE(m.ok());
    auto info = parseSentinelMaster(*m);
    ASSERT_TRUE(info.ok());
    EXPECT_EQ(info->downAfterMs, 1000);
    EXPECT_EQ(info->failoverTimeoutMs, 3000);
    EXPECT_EQ(info->parallelSyncs, 2);
    EXPECT_EQ(info->quorum, 2);
  }
}

TEST(HealBootstrap, ThePodWithTheMostDataBecomesMaster) {
  HealWorld w;
  redissim::RedisDisk disk;
  disk.rdb = redissim::Dataset{{"k1", "v1"}, {"k2", "v2"}};
  disk.rdbReplId = "0123456789012345678901234567890123456789";
  disk.rdbReplOffset = 5000;
  keepVolumeOfPod2(w, std::move(disk));
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  EXPECT_EQ(w.health().masterIP, w.redisPod(2)->ip) << w.allActions();
  EXPECT_EQ(w.node(w.redisPod(0)->name)->data().count("k1"), 1u);
}

// The same with the data in an AOF, which keeps no replication id: every pod reports
// offset 0, and the keys tell the pod with data from the empty ones (found by kun-sim prop
// --seed 1554: the empty pod-0 won on its ordinal and every write was lost).
TEST(HealBootstrap, WithNoOffsetsThePodWithTheMostKeysBecomesMaster) {
  HealWorld w;
  redissim::RedisDisk disk;
  disk.aof = redissim::Dataset{{"k1", "v1"}, {"k2", "v2"}};
  disk.rewrittenConfig = std::map<std::string, std::string>{{"appendonly", "yes"}};
  keepVolumeOfPod2(w, std::move(disk));
  for (const auto& n : w.view().redis) ASSERT_EQ(n.offset(), 0) << n.pod.name;
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  EXPECT_EQ(w.health().masterIP, w.redisPod(2)->ip) << w.allActions();
  EXPECT_EQ(w.node(w.redisPod(0)->name)->data().count("k1"), 1u);
}

TEST(HealBootstrap, WaitsUntilEveryPodAnswers) {
  HealWorld w;
  w.sim.redis(w.redisEp(1))->crash();
  auto r = w.pass();
  EXPECT_EQ(r.stateChangingCommands, 0);
  ASSERT_TRUE(r.requeueAfter.has_value());
  EXPECT_EQ(r.phase, HealPhase::Creating);
}

TEST(HealSteadyState, AHealthyClusterCostsNoStateChangingCommand) {
  HealWorld w(Object{{"config", {{"maxmemory", "100mb"}, {"maxmemory-policy", "allkeys-lru"}}},
                     {"sentinel", {{"customConfig", {"down-after-milliseconds 2000"}}}}});
  ASSERT_TRUE(w.converge()) << w.why() << w.allActions();
  w.loop.runFor(seconds(5));
  for (int i = 0; i < 3; ++i) {
    const auto before = w.admin.stateChangingCalls();
    auto r = w.pass();
    EXPECT_EQ(w.admin.stateChangingCalls(), before) << r.actions.size() << "\n" << w.allActions();
    EXPECT_EQ(r.stateChangingCommands, 0);
    EXPECT_FALSE(r.changed());
    EXPECT_FALSE(r.requeueAfter.has_value());
    EXPECT_EQ(r.phase, HealPhase::None);
    EXPECT_TRUE(r.status.ok());
    w.loop.runFor(seconds(3));
  }
}

}  // namespace
}  // namespace kun::test
