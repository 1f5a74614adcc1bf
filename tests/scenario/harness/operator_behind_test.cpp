// The runner opens the operator-quiet window only once the operator's cache of the cluster
// is the stored one: an edit made while its watch was broken (an API outage) is acted on
// when the cache catches up, and that is not a write "while healthy" (kun-sim prop --seed
// 419). ScenarioWorld::operatorBehind says whether it lags.
#include <gtest/gtest.h>

#include "core/api/object.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {
namespace {

TEST(OperatorBehind, IsTrueWhileTheOperatorsCacheLacksTheLatestEdit) {
  ScenarioWorld w{ScenarioWorldOptions{}};
  ASSERT_TRUE(w.apply(Object::parse(R"({"apiVersion": "redis.kun/v1beta1", "kind": "RedisCluster",
      "metadata": {"name": "demo", "namespace": "default"},
      "spec": {"size": 3, "sentinel": {"replicas": 3}}})"))
                  .ok());
  w.loop().runFor(seconds(60));
  EXPECT_FALSE(w.operatorBehind("default", "demo"));
  w.op().caches().clusters().stop();  // as a watch that fails and backs off
  ASSERT_TRUE(w.patchCluster("default", "demo", Object::parse(R"({"spec": {"config": {"maxmemory": "1000000"}}})")).ok());
  w.loop().runFor(seconds(5));
  EXPECT_TRUE(w.operatorBehind("default", "demo"));
  w.op().caches().clusters().start();  // lists again
  w.loop().runFor(seconds(5));
  EXPECT_FALSE(w.operatorBehind("default", "demo"));
}

}  // namespace
}  // namespace kun::scenario
