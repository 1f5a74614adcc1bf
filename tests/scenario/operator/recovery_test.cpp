// Things that go wrong under a running cluster: pods and StatefulSets deleted, a zone
// lost, the operator restarted in the middle of a failover. Each ends Healthy again with
// the data readable.
#include <set>
#include <vector>

#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

TEST_F(OperatorScenario, DeletedMasterPodFailsOverAndHealsWithTheWritesReadable) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v"));
  ASSERT_TRUE(readableEverywhere("a", 3, "k", "v"));
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  const std::string oldIp = podIp(redisPod("a", m));
  const std::string oldUid = podUid(redisPod("a", m));
  ASSERT_TRUE(deletePod(redisPod("a", m)).ok());
  // Another pod takes over, and the replaced pod rejoins as a replica.
  ASSERT_TRUE(world->runUntil([&] { return podUid(redisPod("a", m)) != oldUid && !podUid(redisPod("a", m)).empty(); },
                              seconds(60)));
  ASSERT_TRUE(world->runUntil([&] { return healthy("a") && status("a").masterIP != oldIp; }, seconds(120)))
      << describe("a");
  EXPECT_EQ(masters("a", 3), 1);
  EXPECT_NE(masterOrdinal("a", 3), m);
  EXPECT_TRUE(readableEverywhere("a", 3, "k", "v"));
  ASSERT_TRUE(write("a", "k2", "v2"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k2", "v2"));
}

TEST_F(OperatorScenario, DeletedStatefulSetsAreRecreatedAndHealthyAgain) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v"));
  for (const std::string& sts : {rediscluster::names::sentinel("a"), rediscluster::names::redis("a")}) {
    SCOPED_TRACE(sts);
    const std::string oldUid = meta::uid(*world->store().get(res::statefulsets, kNs, sts));
    std::vector<std::string> podUids;
    for (int i = 0; i < 3; ++i) podUids.push_back(podUid(sts + "-" + std::to_string(i)));
    ASSERT_TRUE(world->client().remove(res::statefulsets, kNs, sts).ok());
    ASSERT_TRUE(world->runUntil([&] {
      auto o = world->store().get(res::statefulsets, kNs, sts);
      return o.ok() && meta::uid(*o) != oldUid;
    }, seconds(30)));
    // Its pods went with it (garbage collection); new ones come from the new StatefulSet,
    // and the status, Healthy until the operator looks, is Healthy again only after them.
    ASSERT_TRUE(world->runUntil([&] {
      for (int i = 0; i < 3; ++i) {
        const std::string u = podUid(sts + "-" + std::to_string(i));
        if (u.empty() || u == podUids[i]) return false;
      }
      return true;
    }, seconds(60)));
    ASSERT_TRUE(world->runUntil([&] {
      if (!healthy("a")) return false;
      for (int i = 0; i < 3; ++i)
        if (!redisOf(redisPod("a", i)) || !sentinelOf(sentinelPod("a", i))) return false;
      return masters("a", 3) == 1;
    }, seconds(180))) << describe("a");
    EXPECT_EQ(masters("a", 3), 1);
    ASSERT_TRUE(write("a", "after-" + sts, "1"));
    EXPECT_TRUE(readableEverywhere("a", 3, "after-" + sts, "1"));
  }
}

// A replica pod and a sentinel pod replaced (new IPs): no sentinel keeps a replica or a
// sentinel entry for an address that is gone.
TEST_F(OperatorScenario, StaleSentinelEntriesAreResetAfterPodsAreReplaced) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  std::set<std::string> gone;
  {
    const int i = masterOrdinal("a", 3) == 2 ? 1 : 2;  // a replica: its IP goes stale in Sentinel
    gone.insert(podIp(redisPod("a", i)));
    const std::string uid = podUid(redisPod("a", i));
    ASSERT_TRUE(deletePod(redisPod("a", i)).ok());
    ASSERT_TRUE(world->runUntil([&] { auto u = podUid(redisPod("a", i)); return !u.empty() && u != uid; }, seconds(60)));
    ASSERT_TRUE(waitHealthy("a")) << describe("a");
  }
  // A sentinel pod replaced as well: the others forget its old address.
  gone.insert(podIp(sentinelPod("a", 0)));
  const std::string suid = podUid(sentinelPod("a", 0));
  ASSERT_TRUE(deletePod(sentinelPod("a", 0)).ok());
  ASSERT_TRUE(world->runUntil([&] { auto u = podUid(sentinelPod("a", 0)); return !u.empty() && u != suid; }, seconds(60)));
  ASSERT_TRUE(world->runUntil([&] {
    if (!healthy("a")) return false;
    for (int s = 0; s < 3; ++s) {
      const std::string ip = podIp(sentinelPod("a", s));
      for (const char* what : {"REPLICAS", "SENTINELS"}) {
        auto r = send(ip, 26379, {"SENTINEL", what, "mymaster"}, "");
        if (!r.ok()) return false;
        for (const auto& e : r->elements)
          for (std::size_t k = 0; k + 1 < e.elements.size(); k += 2)
            if (e.elements[k].str == "ip" && gone.count(e.elements[k + 1].str)) return false;
      }
    }
    return true;
  }, seconds(120))) << describe("a");
  for (int s = 0; s < 3; ++s) {
    auto r = send(podIp(sentinelPod("a", s)), 26379, {"SENTINEL", "REPLICAS", "mymaster"}, "");
    ASSERT_TRUE(r.ok());
    EXPECT_EQ(r->elements.size(), 2u) << s;
  }
}

class ZoneScenario : public OperatorScenario {
 public:
  static sim::SimWorldOptions options() {
    auto o = scenarioWorld(3);
    o.cluster.nodeLifecycle.evictionDelay = seconds(20);
    return o;
  }
  ZoneScenario() : OperatorScenario(options()) {}
};

// Three nodes in three zones; the zone holding the master goes dark. The sentinels left
// (a majority) fail over; the evicted pods come back on the surviving nodes.
TEST_F(ZoneScenario, LosingTheMastersZoneFailsOverAndHeals) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v"));
  ASSERT_TRUE(readableEverywhere("a", 3, "k", "v"));
  // Spread: one redis and one sentinel pod per node.
  std::set<std::string> redisNodes, sentinelNodes;
  for (int i = 0; i < 3; ++i) {
    redisNodes.insert(nodeOf(redisPod("a", i)));
    sentinelNodes.insert(nodeOf(sentinelPod("a", i)));
  }
  EXPECT_EQ(redisNodes.size(), 3u);
  EXPECT_EQ(sentinelNodes.size(), 3u);
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  const std::string lost = nodeOf(redisPod("a", m));
  const std::string oldMaster = podIp(redisPod("a", m));
  ASSERT_TRUE(world->cluster().failNode(lost).ok());
  // Failover by the surviving sentinels, before any eviction.
  ASSERT_TRUE(world->runUntil([&] {
    auto e = masterBySentinel("a", 3);
    return e && e->host != oldMaster;
  }, seconds(20)));
  EXPECT_TRUE(write("a", "during", "1"));
  ASSERT_TRUE(waitHealthy("a", seconds(180))) << describe("a");
  for (int i = 0; i < 3; ++i) EXPECT_NE(nodeOf(redisPod("a", i)), lost) << i;
  EXPECT_EQ(masters("a", 3), 1);
  EXPECT_TRUE(readableEverywhere("a", 3, "k", "v"));
  EXPECT_TRUE(readableEverywhere("a", 3, "during", "1"));
}

// The operator goes away while Sentinel fails over a deleted master and a new one starts
// with nothing in memory: it must not interfere with the failover and must finish healing.
TEST_F(OperatorScenario, OperatorRestartedMidFailoverFinishesHealing) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  ASSERT_TRUE(write("a", "k", "v"));
  ASSERT_TRUE(readableEverywhere("a", 3, "k", "v"));
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  const std::string oldMaster = podIp(redisPod("a", m));
  // Kill the master's process (no shutdown hook): Sentinel has to notice and fail over.
  // The operator is stopped at once and comes back while that failover is running.
  stopOperator();
  ASSERT_TRUE(world->cluster().kubelet().crashContainer(kNs, redisPod("a", m), "redis").ok());
  ASSERT_TRUE(world->runUntil([&] {
    for (int s = 0; s < 3; ++s)
      if (auto* sn = sentinelOf(sentinelPod("a", s)); sn && sn->failoverInProgress("mymaster")) return true;
    return false;
  }, seconds(30)));
  startOperator();
  // The status still says Healthy from before the crash (nobody was there to change it):
  // wait for one that names the new master.
  ASSERT_TRUE(world->runUntil([&] { return healthy("a") && status("a").masterIP != oldMaster; }, seconds(120)))
      << describe("a");
  EXPECT_EQ(masters("a", 3), 1);
  EXPECT_TRUE(readableEverywhere("a", 3, "k", "v"));
  ASSERT_TRUE(write("a", "k2", "v2"));
  EXPECT_TRUE(readableEverywhere("a", 3, "k2", "v2"));
}

}  // namespace
}  // namespace kun::scenario
