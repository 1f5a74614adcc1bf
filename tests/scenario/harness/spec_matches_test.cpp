// spec-matches: besides the StatefulSets, every object the operator keeps must exist. A
// deleted Service is reported by name until the operator has made it again.
#include <gtest/gtest.h>

#include "core/api/object.h"
#include "core/kube/resource.h"
#include "scenarios/invariants.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {
namespace {

TEST(SpecMatches, AMissingServiceIsReportedUntilTheOperatorMakesItAgain) {
  ScenarioWorld w(ScenarioWorldOptions{});
  ASSERT_TRUE(w.apply(Object::parse(R"({"apiVersion": "redis.kun/v1beta1", "kind": "RedisCluster",
      "metadata": {"name": "demo", "namespace": "default"},
      "spec": {"size": 3, "sentinel": {"replicas": 3}}})"))
                  .ok());
  w.loop().runFor(seconds(60));
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

}  // namespace
}  // namespace kun::scenario
