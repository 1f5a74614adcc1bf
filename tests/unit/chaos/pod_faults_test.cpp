// Pod, process, object and node faults on a simulated cluster: each has the effect it
// names and ends when it says.
#include <gtest/gtest.h>

#include "chaos/faults/fault_injector.h"
#include "fakeapi/controllers/pod_state.h"
#include "tests/unit/chaos/chaos_world.h"

namespace kun::chaos {
namespace {

using chaostest::ChaosWorld;

Fault make(FaultKind k, std::string target = {}, Duration d = Duration{0}) {
  Fault f;
  f.kind = k;
  f.target = std::move(target);
  f.duration = d;
  return f;
}

class PodFaults : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(w.ready); }
  ChaosWorld w;
  FaultInjector inj{w.seams(), Random(7)};
};

TEST_F(PodFaults, TheMasterIsTheOneTheSentinelsName) {
  auto m = w.targets.master();
  ASSERT_TRUE(m.has_value());
  EXPECT_EQ(m->ip, w.masterIp);
  EXPECT_EQ(m->name, "redis-cluster-demo-0");
}

TEST_F(PodFaults, PodKillDeletesTheMastersPod) {
  const auto uid = w.cluster.client().get(res::pods, "default", "redis-cluster-demo-0")->at("metadata").at("uid");
  auto r = inj.begin(make(FaultKind::PodKill, "master"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_NE(r->detail.find("redis-cluster-demo-0"), std::string::npos);
  auto pod = w.cluster.client().get(res::pods, "default", "redis-cluster-demo-0");
  EXPECT_TRUE(!pod.ok() || pod->at("metadata").contains("deletionTimestamp"));
  // The StatefulSet brings a new pod of the same name.
  EXPECT_TRUE(w.cluster.runUntil(
      [&] {
        auto p = w.cluster.client().get(res::pods, "default", "redis-cluster-demo-0");
        return p.ok() && p->at("metadata").at("uid") != uid && sim::isRunningAndReady(*p);
      },
      minutes(2)));
}

TEST_F(PodFaults, PodKillByNameAndUnknownName) {
  ASSERT_TRUE(inj.begin(make(FaultKind::PodKill, "redis-sentinel-demo-1")).ok());
  auto p = w.cluster.client().get(res::pods, "default", "redis-sentinel-demo-1");
  EXPECT_TRUE(!p.ok() || p->at("metadata").contains("deletionTimestamp"));
  auto bad = inj.begin(make(FaultKind::PodKill, "no-such-pod"));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().reason, Reason::NotFound);
}

TEST_F(PodFaults, ReplicaTargetNeverPicksTheMaster) {
  Random rng(3);
  for (int i = 0; i < 20; ++i) {
    auto p = resolvePod(w.targets, "replica", rng);
    ASSERT_TRUE(p.ok());
    EXPECT_NE(p->ip, w.masterIp);
  }
}

TEST_F(PodFaults, ContainerKillRestartsTheContainer) {
  auto r = inj.begin(make(FaultKind::ContainerKill, "redis-cluster-demo-1"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(w.cluster.runUntil(
      [&] {
        auto p = w.cluster.client().get(res::pods, "default", "redis-cluster-demo-1");
        const auto& cs = p->value("/status/containerStatuses"_json_pointer, Object::array());
        return !cs.empty() && cs[0].value("restartCount", 0) == 1 && sim::isRunningAndReady(*p);
      },
      minutes(1)));
}

TEST_F(PodFaults, ProcessHangLastsUntilTheEnd) {
  auto r = inj.begin(make(FaultKind::ProcessHang, "master", seconds(10)));
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto* node = w.redisAt(w.masterIp);
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Hung);
  w.cluster.runFor(seconds(3));
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Hung);
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Running);
  EXPECT_EQ(inj.activeCount(), 0u);
}

TEST_F(PodFaults, OverlappingHangsResumeWhenBothEnd) {
  auto a = inj.begin(make(FaultKind::ProcessHang, "redis-cluster-demo-2", seconds(10)));
  auto b = inj.begin(make(FaultKind::ProcessHang, "redis-cluster-demo-2", seconds(10)));
  ASSERT_TRUE(a.ok() && b.ok());
  auto* node = w.redisAt(w.podIp("redis-cluster-demo-2"));
  ASSERT_TRUE(inj.end(a->id).ok());
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Hung);
  ASSERT_TRUE(inj.end(b->id).ok());
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Running);
}

TEST_F(PodFaults, PodFailureStopsTheProcessAndStartsItAtTheEnd) {
  auto r = inj.begin(make(FaultKind::PodFailure, "sentinel", seconds(20)));
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<redissim::SentinelNode*> down;
  for (auto* s : w.redis.sentinels())
    if (s->state() == redissim::SimProcess::State::Down) down.push_back(s);
  ASSERT_EQ(down.size(), 1u);
  // The pod itself stays (the process is gone, not the pod).
  EXPECT_EQ(w.targets.sentinelPods().size(), 3u);
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.cluster.runUntil([&] { return down[0]->state() == redissim::SimProcess::State::Running; }, seconds(5)));
}

TEST_F(PodFaults, ObjectDeletions) {
  ASSERT_TRUE(inj.begin(make(FaultKind::ServiceDelete, "sentinel")).ok());
  EXPECT_TRUE(w.cluster.client().get(res::services, "default", "redis-sentinel-demo").is(Reason::NotFound));
  ASSERT_TRUE(inj.begin(make(FaultKind::ConfigMapDelete, "redis")).ok());
  EXPECT_TRUE(w.cluster.client().get(res::configmaps, "default", "redis-cluster-demo").is(Reason::NotFound));
  ASSERT_TRUE(inj.begin(make(FaultKind::StatefulSetDelete, "redis")).ok());
  auto set = w.cluster.client().get(res::statefulsets, "default", "redis-cluster-demo");
  EXPECT_TRUE(!set.ok() || set->at("metadata").contains("deletionTimestamp"));
  // Its pods go with it (garbage collection of dependents).
  EXPECT_TRUE(w.cluster.runUntil([&] { return w.targets.redisPods().empty(); }, minutes(2)));
}

TEST_F(PodFaults, NodeFailureOfTheMastersNodeRecoversAtTheEnd) {
  const auto node = w.targets.master()->node;
  auto r = inj.begin(make(FaultKind::NodeFailure, "master-node", seconds(30)));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(w.cluster.nodeLifecycle().isFailed(node));
  EXPECT_TRUE(w.cluster.kubelet().isNodeDown(node));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_FALSE(w.cluster.nodeLifecycle().isFailed(node));
}

TEST_F(PodFaults, ZoneAndNodeFailureOverlap) {
  const auto node = w.targets.master()->node;
  auto zone = inj.begin(make(FaultKind::ZoneFailure, "master-zone", seconds(30)));
  auto one = inj.begin(make(FaultKind::NodeFailure, node, seconds(30)));
  ASSERT_TRUE(zone.ok() && one.ok());
  const auto zoneName = w.targets.zoneOf(node);
  for (const auto& n : w.targets.nodes())
    EXPECT_EQ(w.cluster.nodeLifecycle().isFailed(n), w.targets.zoneOf(n) == zoneName) << n;
  ASSERT_TRUE(inj.end(zone->id).ok());
  EXPECT_TRUE(w.cluster.nodeLifecycle().isFailed(node));  // the node fault still holds it
  ASSERT_TRUE(inj.end(one->id).ok());
  EXPECT_FALSE(w.cluster.nodeLifecycle().isFailed(node));
}

TEST_F(PodFaults, MissingSeamIsUnavailable) {
  FaultSeams s = w.seams();
  s.redis = nullptr;
  FaultInjector bare(s, Random(1));
  auto r = bare.begin(make(FaultKind::ProcessHang, "master", seconds(1)));
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Unavailable);
}

TEST_F(PodFaults, InvalidFaultIsRejectedBeforeAnything) {
  auto r = inj.begin(make(FaultKind::ProcessHang, "master"));  // no duration
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().field, "duration");
  EXPECT_EQ(w.redisAt(w.masterIp)->state(), redissim::SimProcess::State::Running);
}

}  // namespace
}  // namespace kun::chaos
