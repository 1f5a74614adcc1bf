// spec-matches: besides the StatefulSets, every object the operator keeps must exist. A
// deleted Service is reported by name until the operator has made it again.
#include <gtest/gtest.h>

#include "core/api/object.h"
#include "core/kube/resource.h"
#include "scenarios/invariants.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {
namespace {

// A cluster of 3 redis and 3 sentinels, made and left to become healthy.
class SpecMatches : public ::testing::Test {
 protected:
  void SetUp() override {
    ASSERT_TRUE(w.apply(Object::parse(R"({"apiVersion": "redis.kun/v1beta1", "kind": "RedisCluster",
        "metadata": {"name": "demo", "namespace": "default"},
        "spec": {"size": 3, "sentinel": {"replicas": 3}}})"))
                    .ok());
    w.loop().runFor(seconds(60));
  }
  ScenarioWorld w{ScenarioWorldOptions{}};
};

TEST_F(SpecMatches, AMissingServiceIsReportedUntilTheOperatorMakesItAgain) {
  auto rc = w.cluster("default", "demo");
  ASSERT_TRUE(rc);
  EXPECT_EQ(checkSpecMatches(w, *rc), std::nullopt);

  ASSERT_TRUE(w.harnessClient().remove(res::services, "default", "redis-sentinel-demo").ok());
  EXPECT_EQ(checkSpecMatches(w, *rc), "Service redis-sentinel-demo is missing");
  ASSERT_TRUE(w.harnessClient().remove(res::poddisruptionbudgets, "default", "redis-cluster-demo").ok());
  EXPECT_EQ(checkSpecMatches(w, *rc), "Service redis-sentinel-demo is missing");  // the first missing one

  w.loop().runFor(seconds(30));  // the operator's watch sees the deletions and makes both again
  EXPECT_EQ(checkSpecMatches(w, *rc), std::nullopt);
}

// A resources change: the StatefulSet must carry it, and every pod must have been rolled
// onto the new template, before the spec is met.
TEST_F(SpecMatches, AResourcesChangeIsMetOnceEveryPodRunsTheNewTemplate) {
  ASSERT_TRUE(w.patchCluster("default", "demo",
                             Object::parse(R"({"spec": {"resources": {"requests": {"cpu": "800m"}}}})"))
                  .ok());
  auto rc = w.cluster("default", "demo");
  ASSERT_TRUE(rc);
  const auto verdict = [&] { return checkSpecMatches(w, *rc).value_or(""); };
  EXPECT_NE(verdict().find("StatefulSet redis-cluster-demo asks for resources {}"), std::string::npos) << verdict();
  EXPECT_TRUE(w.loop().runUntil([&] { return verdict().find("rollout unfinished") != std::string::npos; },
                                w.loop().now() + seconds(30)))
      << verdict();
  EXPECT_TRUE(w.loop().runUntil([&] { return verdict().empty(); }, w.loop().now() + minutes(5))) << verdict();
}

}  // namespace
}  // namespace kun::scenario
