// The runner's verdicts kept per (cluster, view) pair — health and writable masters
// (ViewVerdicts), and failover-ready's count of able sentinels (FailoverReadiness) — are
// the ones derived afresh: the same pair answers from what it holds, any other pair is
// judged again.
#include <gtest/gtest.h>

#include <memory>

#include "scenarios/failover_readiness.h"
#include "scenarios/invariants.h"
#include "scenarios/view_verdicts.h"
#include "tests/unit/rediscluster/heal_fixture.h"

namespace kun::scenario {
namespace {

using rediscluster::ClusterView;

void expectFresh(const Verdicts& v, const api::RedisCluster& rc, const ClusterView& view) {
  const auto fresh = rediscluster::assessHealth(rc, view);
  EXPECT_EQ(v.health.healthy, fresh.healthy);
  EXPECT_EQ(v.health.reasons, fresh.reasons);
  EXPECT_EQ(v.health.masterIP, fresh.masterIP);
  EXPECT_EQ(v.masters, writableMasters(view));
}

struct Healthy {
  Healthy() {
    ok = w.converge();
    rc = std::make_shared<const api::RedisCluster>(w.rc);
    view = std::make_shared<const ClusterView>(w.view());
  }
  test::HealWorld w;
  bool ok = false;
  std::shared_ptr<const api::RedisCluster> rc;
  std::shared_ptr<const ClusterView> view;
};

TEST(ViewVerdicts, TheSamePairAnswersFromWhatItHoldsAndAnyOtherIsJudgedAgain) {
  Healthy h;
  ASSERT_TRUE(h.ok) << h.w.why();
  ViewVerdicts memo;
  const Verdicts& first = memo.of(h.rc, h.view);
  EXPECT_TRUE(first.health.healthy);
  expectFresh(first, *h.rc, *h.view);
  // Every sentinel names the master.
  EXPECT_EQ(first.reachable, 3);
  ASSERT_EQ(first.votes.size(), 1u);
  EXPECT_EQ(first.votes.begin()->first, first.health.masterIP);
  EXPECT_EQ(first.votes.begin()->second.first, 3);
  EXPECT_EQ(&memo.of(h.rc, h.view), &first);
  EXPECT_EQ(memo.derived(), 1u);

  // Another cluster object with a spec the same view no longer satisfies.
  auto bigger = std::make_shared<api::RedisCluster>(*h.rc);
  bigger->spec.size += 1;
  const Verdicts& resized = memo.of(bigger, h.view);
  EXPECT_EQ(memo.derived(), 2u);
  EXPECT_FALSE(resized.health.healthy);
  expectFresh(resized, *bigger, *h.view);

  // The master crashes: a new view, judged again.
  h.w.node(h.w.redisPod(0)->name)->crash();
  auto after = std::make_shared<const ClusterView>(h.w.view());
  const Verdicts& crashed = memo.of(h.rc, after);
  EXPECT_EQ(memo.derived(), 3u);
  EXPECT_FALSE(crashed.health.healthy);
  expectFresh(crashed, *h.rc, *after);

  // Back to the first pair: judged again, as it was.
  const Verdicts& again = memo.of(h.rc, h.view);
  EXPECT_EQ(memo.derived(), 4u);
  EXPECT_TRUE(again.health.healthy);
  expectFresh(again, *h.rc, *h.view);
}

TEST(FailoverReadiness, CountsTheAbleSentinelsAgainOnlyForAnotherClusterViewOrMaster) {
  Healthy h;
  ASSERT_TRUE(h.ok) << h.w.why();
  const std::string master = h.w.health().masterIP;
  ASSERT_FALSE(master.empty());
  FailoverReadiness r;
  r.onHealth(TimePoint{}, true);
  EXPECT_EQ(r.sample(h.rc, h.view, master), std::nullopt);
  EXPECT_EQ(r.sample(h.rc, h.view, master), std::nullopt);
  EXPECT_EQ(r.counted(), 1u);

  // Two of three sentinels forget the master: a new view, counted again.
  auto forgot = std::make_shared<ClusterView>(*h.view);
  forgot->sentinels[0].monitoring = false;
  forgot->sentinels[1].monitoring = false;
  const auto violation = r.sample(h.rc, forgot, master);
  EXPECT_EQ(r.counted(), 2u);
  ASSERT_TRUE(violation.has_value());
  EXPECT_NE(violation->find("only 1 of 3 sentinels"), std::string::npos) << *violation;
  EXPECT_EQ(r.sample(h.rc, forgot, master), violation);
  EXPECT_EQ(r.counted(), 2u);

  // Another master named with the first view: no sentinel monitors it.
  EXPECT_TRUE(r.sample(h.rc, h.view, "10.0.0.99").has_value());
  EXPECT_EQ(r.counted(), 3u);
  // Another cluster object: counted again, the same answer as before.
  auto copy = std::make_shared<const api::RedisCluster>(*h.rc);
  EXPECT_EQ(r.sample(copy, h.view, master), std::nullopt);
  EXPECT_EQ(r.counted(), 4u);
}

// A fault on a replica excuses nothing while, whichever replica it hits, the sentinels know
// another to promote; one that can hit the last replica they know (the other being rolled,
// still syncing, or not learnt yet) excuses the cluster as any fault does, until it is
// healthy again after it.
TEST(FailoverReadiness, AFaultOnTheLastReplicaTheSentinelsKnowExcusesLikeAnyOther) {
  Healthy h;
  ASSERT_TRUE(h.ok) << h.w.why();
  const std::string master = h.w.health().masterIP;
  auto noneKnown = std::make_shared<ClusterView>(*h.view);
  for (auto& s : noneKnown->sentinels) s.replicas.clear();
  chaos::FaultRecord kill;
  kill.fault.kind = chaos::FaultKind::PodKill;
  kill.fault.target = "replica";
  kill.applied = true;

  FailoverReadiness spare;
  spare.onHealth(TimePoint{}, true);
  spare.beforeFault(*h.rc, *h.view, master);  // every sentinel knows both replicas
  spare.onFault(kill);
  EXPECT_TRUE(spare.sample(h.rc, noneKnown, master).has_value());

  auto oneKnown = std::make_shared<ClusterView>(*h.view);
  for (auto& s : oneKnown->sentinels) {
    ASSERT_EQ(s.replicas.size(), 2u) << s.pod.name;
    s.replicas.pop_back();  // the other not learnt yet
  }
  FailoverReadiness last;
  last.onHealth(TimePoint{}, true);
  ASSERT_EQ(last.sample(h.rc, oneKnown, master), std::nullopt);  // able, before the fault
  last.beforeFault(*h.rc, *oneKnown, master);
  last.onFault(kill);
  EXPECT_EQ(last.sample(h.rc, noneKnown, master), std::nullopt);
  // Healthy for kSettle after the (instant) fault: the excuse is gone.
  last.onHealth(TimePoint{} + seconds(1), true);
  last.onHealth(TimePoint{} + seconds(7), true);
  EXPECT_TRUE(last.sample(h.rc, noneKnown, master).has_value());
}

}  // namespace
}  // namespace kun::scenario
