// A healthy cluster is left alone: reconciles over three virtual minutes write nothing to the API
// server and send Redis and Sentinel only reads.
#include "core/redis/counting_redis_admin.h"
#include "core/kube/forwarding_client.h"
#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

class QuietScenario : public OperatorScenario {
 public:
  CountingRedisAdmin redis{world->operatorAdmin()};
  CountingClient kube{world->client()};
  QuietScenario() {
    operatorRedis = &redis;
    operatorKube = &kube;
  }
};

TEST_F(QuietScenario, HealthyClusterReconcilesMakeNoWrites) {
  startOperator();
  create("a", Object{{"size", 3}, {"password", "pw"}, {"config", {{"maxmemory-policy", "allkeys-lru"}}},
                     {"sentinel", {{"customConfig", {"down-after-milliseconds 2000"}}}}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  // Getting there took writes of both kinds: the counters do count.
  EXPECT_GT(kube.writes(), 0u);
  EXPECT_GT(redis.stateChanging(), 0u);
  EXPECT_GT(redis.stateChangingByName().count("REPLICAOF"), 0u);
  world->runFor(seconds(30));  // let the last actions settle (events, status)
  ASSERT_TRUE(healthy("a")) << describe("a");
  kube.reset();
  redis.reset();
  const auto before = op->reconciler().stats().reconciles;
  world->runFor(seconds(180));
  const auto reconciles = op->reconciler().stats().reconciles - before;
  EXPECT_GE(reconciles, 5u);  // healthyRecheck every 30 s
  EXPECT_GT(redis.total(), 0u);  // it did look
  EXPECT_EQ(kube.writes(), 0u) << kube.describe();
  EXPECT_EQ(redis.stateChanging(), 0u) << redis.describeStateChanging();
  EXPECT_TRUE(healthy("a"));
}

}  // namespace
}  // namespace kun::scenario
