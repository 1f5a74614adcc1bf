// status-truthful: the status says what the world is (Healthy, the master), for the spec
// as it is now: an operator that has not seen the latest generation (its watch of the
// RedisClusters still backing off after an API outage) has not converged yet.
#include <gtest/gtest.h>

#include "scenarios/invariants.h"

namespace kun::scenario {
namespace {

api::RedisCluster cluster(std::int64_t generation, std::int64_t observed) {
  api::RedisCluster rc;
  rc.metadata = Object{{"name", "demo"}, {"namespace", "default"}, {"generation", generation}};
  rc.status.observedGeneration = observed;
  rc.status.masterIP = "10.0.0.4";
  api::Condition healthy;
  healthy.type = "Healthy";
  healthy.status = "True";
  rc.status.conditions.push_back(healthy);
  return rc;
}

rediscluster::Health healthyAt(const std::string& master) {
  rediscluster::Health h;
  h.healthy = true;
  h.masterIP = master;
  return h;
}

TEST(StatusTruthful, HoldsWhenTheStatusDescribesTheWorldForTheLatestSpec) {
  EXPECT_EQ(checkStatusTruthful(cluster(3, 3), healthyAt("10.0.0.4")), std::nullopt);
  EXPECT_EQ(checkStatusTruthful(cluster(3, 3), healthyAt("10.0.0.5")),
            "status.masterIP is '10.0.0.4', the master is '10.0.0.5'");
}

TEST(StatusTruthful, AStatusOfAnEarlierGenerationIsNotTheTruthYet) {
  EXPECT_EQ(checkStatusTruthful(cluster(4, 3), healthyAt("10.0.0.4")),
            "status.observedGeneration is 3, the spec's generation 4");
}

TEST(StatusTruthful, AnInvalidEditKeepsTheGenerationInForceAndSaysSo) {
  auto rc = cluster(4, 3);
  api::Condition failed;
  failed.type = "Failed";
  failed.status = "True";
  failed.reason = "InvalidSpec";
  rc.status.conditions.push_back(failed);
  EXPECT_EQ(checkStatusTruthful(rc, healthyAt("10.0.0.4")), std::nullopt);
  rc.status.conditions.back().reason = "EnsureFailed";  // another failure is no excuse
  EXPECT_NE(checkStatusTruthful(rc, healthyAt("10.0.0.4")), std::nullopt);
}

}  // namespace
}  // namespace kun::scenario
