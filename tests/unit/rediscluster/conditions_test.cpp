// Conditions and status: timestamps move only on change, one condition True per phase,
// and an unchanged status is recognised as unchanged (no write).
#include <gtest/gtest.h>

#include "core/rediscluster/conditions.h"
#include "core/rediscluster/status.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

const std::string t0 = "2026-01-01T00:00:00Z";
const std::string t1 = "2026-01-01T00:00:05Z";
const std::string t2 = "2026-01-01T00:00:09Z";

TEST(Conditions, TransitionTimeMovesOnlyWhenStatusFlips) {
  api::RedisClusterStatus s;
  EXPECT_FALSE(setCondition(s, "Healthy", false, "x", "y", t0));  // a False one is not added
  EXPECT_TRUE(s.conditions.empty());
  EXPECT_TRUE(setCondition(s, "Healthy", true, "ClusterHealthy", "ok", t0));
  EXPECT_FALSE(setCondition(s, "Healthy", true, "ClusterHealthy", "ok", t1));  // same: nothing moves
  EXPECT_EQ(s.conditions[0].lastUpdateTime, t0);
  EXPECT_TRUE(setCondition(s, "Healthy", true, "ClusterHealthy", "ok now", t1));
  EXPECT_EQ(s.conditions[0].lastUpdateTime, t1);
  EXPECT_EQ(s.conditions[0].lastTransitionTime, t0);
  EXPECT_TRUE(clearCondition(s, "Healthy", t2));
  EXPECT_EQ(s.conditions[0].status, "False");
  EXPECT_EQ(s.conditions[0].lastTransitionTime, t2);
  EXPECT_EQ(s.conditions[0].message, "ok now");
  EXPECT_FALSE(clearCondition(s, "Healthy", t2));
  EXPECT_TRUE(everHealthy(s));
  EXPECT_FALSE(conditionTrue(s, "Healthy"));
}

TEST(Conditions, KeptInAFixedOrderWithForeignConditionsPreserved) {
  api::RedisClusterStatus s;
  api::Condition foreign;
  foreign.type = "SomeoneElses";
  foreign.status = "True";
  s.conditions.push_back(foreign);
  setCondition(s, "Failed", true, "r", "m", t0);
  setCondition(s, "Creating", true, "r", "m", t0);
  setCondition(s, "Healthy", true, "r", "m", t0);
  std::vector<std::string> types;
  for (const auto& c : s.conditions) types.push_back(c.type);
  EXPECT_EQ(types, (std::vector<std::string>{"SomeoneElses", "Creating", "Healthy", "Failed"}));
}

TEST(Status, ExactlyOnePhaseTrueAndFailedIndependent) {
  api::RedisClusterStatus s;
  StatusReport r;
  r.phase = ClusterPhase::Creating;
  r.reason = "Creating";
  r.observedGeneration = 1;
  s = nextStatus(s, r, t0);
  r.phase = ClusterPhase::Healthy;
  r.reason = "ClusterHealthy";
  r.masterIP = "10.0.0.4";
  s = nextStatus(s, r, t1);
  r.phase = ClusterPhase::Recovering;
  r.reason = "Recovering";
  r.masterIP.reset();
  r.failed = true;
  r.failedReason = "HealFailed";
  s = nextStatus(s, r, t2);
  int trueCount = 0;
  for (const auto& c : s.conditions)
    if (c.type != "Failed" && c.status == "True") ++trueCount;
  EXPECT_EQ(trueCount, 1);
  EXPECT_TRUE(conditionTrue(s, "Recovering"));
  EXPECT_TRUE(conditionTrue(s, "Failed"));
  EXPECT_EQ(s.masterIP, "10.0.0.4");  // kept when no master is known
  EXPECT_EQ(s.observedGeneration, 1);
  r.failed = false;
  s = nextStatus(s, r, t2);
  EXPECT_FALSE(conditionTrue(s, "Failed"));
}

TEST(Status, AStatusEqualToTheStoredOneIsUnchanged) {
  Object m = test::clusterManifest(Object{{"size", 3}});
  StatusReport r;
  r.phase = ClusterPhase::Healthy;
  r.reason = "ClusterHealthy";
  r.message = "master 10.0.0.4";
  r.masterIP = "10.0.0.4";
  r.sentinelIP = "10.96.0.10";
  r.observedGeneration = 2;
  const auto first = nextStatus(api::RedisClusterStatus{}, r, t0);
  api::RedisCluster before = test::parseCluster(m);
  EXPECT_FALSE(statusUnchanged(before, first));
  m["status"] = api::toObject(first);
  m["status"]["extraField"] = "kept";  // unknown status fields survive and do not count as a change
  api::RedisCluster stored = test::parseCluster(m);
  const auto again = nextStatus(stored.status, r, t2);
  EXPECT_TRUE(statusUnchanged(stored, again));
  r.message = "master 10.0.0.5";
  EXPECT_FALSE(statusUnchanged(stored, nextStatus(stored.status, r, t2)));
}

}  // namespace
}  // namespace kun::rediscluster
