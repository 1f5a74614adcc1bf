// observe() records each node on its own, and assessHealth's reasons.
#include <gtest/gtest.h>

#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::test {
namespace {

TEST(Observe, AnUnreachableNodeIsRecordedNotAnErrorOfTheView) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  w.node(w.redisPod(1)->name)->crash();
  w.net.cutBoth(HealWorld::kOperatorIp, w.sentinelPods[2].ip);
  auto v = w.view();
  ASSERT_EQ(v.redis.size(), 3u);
  EXPECT_TRUE(v.redis[0].reachable);
  EXPECT_FALSE(v.redis[1].reachable);
  EXPECT_EQ(v.redis[1].error.reason, Reason::Unavailable);
  EXPECT_TRUE(v.redis[2].reachable);
  EXPECT_FALSE(v.sentinels[2].reachable);
  EXPECT_EQ(v.sentinels[2].error.reason, Reason::Timeout);
  EXPECT_TRUE(v.sentinels[0].monitoring);
  auto h = rediscluster::assessHealth(w.rc, v);
  EXPECT_FALSE(h.healthy);
  EXPECT_FALSE(h.masterIP.empty());
  bool named = false;
  for (const auto& r : h.reasons) named = named || r.find(w.redisPod(1)->name + ": unreachable") == 0;
  EXPECT_TRUE(named);
}

TEST(Observe, ReadsReplicationAndSentinelStateOfAHealthyCluster) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  const auto calls = w.admin.stateChangingCalls();
  auto v = w.view();
  EXPECT_EQ(w.admin.stateChangingCalls(), calls);
  ASSERT_EQ(v.masters().size(), 1u);
  const std::string master = v.masters().front()->pod.ip;
  for (const auto& n : v.redis) {
    EXPECT_EQ(n.password, 0);
    EXPECT_FALSE(n.replication.masterReplid.empty());  // INFO replication was read and parsed
    if (n.pod.ip != master) {
      EXPECT_TRUE(n.inSync());
      EXPECT_EQ(n.replication.masterHost, master);
    }
  }
  for (const auto& s : v.sentinels) {
    EXPECT_TRUE(s.monitoring);
    EXPECT_EQ(s.master.ip, master);
    EXPECT_EQ(s.replicas.size(), 2u);
    EXPECT_EQ(s.peers.size(), 2u);
    EXPECT_FALSE(s.failoverInProgress());
  }
}

TEST(Observe, ThePlaceholderIsSeenAsSuch) {
  HealWorld w;
  auto v = w.view();
  for (const auto& n : v.redis) EXPECT_TRUE(n.onPlaceholder());
  for (const auto& s : v.sentinels) EXPECT_TRUE(s.onPlaceholder());
  auto h = rediscluster::assessHealth(w.rc, v);
  EXPECT_FALSE(h.healthy);
  EXPECT_NE(std::find(h.reasons.begin(), h.reasons.end(), "no master"), h.reasons.end());
}

TEST(Observe, PodInfoFromAPodObject) {
  Object pod = Object::parse(R"({
    "metadata": {"name": "redis-cluster-a-2", "uid": "u1", "creationTimestamp": "2026-01-01T00:00:00Z",
                 "labels": {"controller-revision-hash": "redis-cluster-a-5d9"}},
    "status": {"phase": "Running", "podIP": "10.1.2.3",
               "conditions": [{"type": "Ready", "status": "True"}]}})");
  auto p = rediscluster::podInfoFrom(pod);
  EXPECT_EQ(p.name, "redis-cluster-a-2");
  EXPECT_EQ(p.uid, "u1");
  EXPECT_EQ(p.ip, "10.1.2.3");
  EXPECT_EQ(p.ordinal, 2);
  EXPECT_TRUE(p.running);
  EXPECT_TRUE(p.ready);
  EXPECT_FALSE(p.terminating);
  EXPECT_EQ(p.revision, "redis-cluster-a-5d9");
  pod["metadata"]["deletionTimestamp"] = "2026-01-01T00:01:00Z";
  pod["status"]["conditions"][0]["status"] = "False";
  auto q = rediscluster::podInfoFrom(pod);
  EXPECT_TRUE(q.terminating);
  EXPECT_FALSE(q.ready);
}

TEST(Health, CountsThatDoNotMatchTheSpecAreReasons) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  auto rc = w.rc;
  rc.spec.size = 4;
  rc.spec.sentinel.replicas = 5;
  auto h = rediscluster::assessHealth(rc, w.view());
  EXPECT_FALSE(h.healthy);
  std::string all;
  for (const auto& r : h.reasons) all += r + "\n";
  EXPECT_NE(all.find("3 redis pods, spec.size is 4"), std::string::npos) << all;
  EXPECT_NE(all.find("3 sentinel pods, spec.sentinel.replicas is 5"), std::string::npos) << all;
  EXPECT_NE(all.find("knows 2 replicas, want 3"), std::string::npos) << all;
}

// A template change accepted by the StatefulSets but not yet on every pod is not healthy.
TEST(Observe, APendingRolloutIsNotHealthy) {
  HealWorld w;
  ASSERT_TRUE(w.converge()) << w.why();
  auto v = w.view();
  for (auto& n : v.redis) n.pod.revision = "r1";
  for (auto& s : v.sentinels) s.pod.revision = "s1";
  ASSERT_TRUE(rediscluster::assessHealth(w.rc, v).healthy);  // no rollout known: not checked
  v.rollout = rediscluster::RolloutView{"r1", "s1", true, true};
  ASSERT_TRUE(rediscluster::assessHealth(w.rc, v).healthy) << "every pod on its update revision";
  auto reasonsOf = [&](const rediscluster::ClusterView& view) {
    auto h = rediscluster::assessHealth(w.rc, view);
    std::string all;
    for (const auto& r : h.reasons) all += r + "\n";
    return std::pair{h.healthy, all};
  };
  auto redisPending = v;
  redisPending.rollout->redisUpdateRevision = "r2";
  redisPending.redis[0].pod.revision = "r2";
  auto [ok1, why1] = reasonsOf(redisPending);
  EXPECT_FALSE(ok1);
  EXPECT_NE(why1.find(v.redis[1].pod.name + ": on revision r1, rollout to r2 pending"), std::string::npos) << why1;
  EXPECT_EQ(why1.find(v.redis[0].pod.name + ":"), std::string::npos) << why1;
  auto sentinelPending = v;
  sentinelPending.rollout->sentinelUpdateRevision = "s2";
  EXPECT_FALSE(reasonsOf(sentinelPending).first);
  // The StatefulSet has a new template it has not reported on yet: its revision is stale.
  auto unobserved = v;
  unobserved.rollout->redisObserved = false;
  auto [ok3, why3] = reasonsOf(unobserved);
  EXPECT_FALSE(ok3);
  EXPECT_NE(why3.find("redis StatefulSet: rollout of its current template not reported yet"), std::string::npos) << why3;
}

}  // namespace
}  // namespace kun::test
