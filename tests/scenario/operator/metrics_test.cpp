// The operator's metrics in the simulator: no server, the registry read after a scenario.
#include "core/operator/operator_metrics.h"
#include "tests/scenario/operator/operator_fixture.h"
#include "tests/support/metric_value.h"

namespace kun::scenario {
namespace {

using test::metricValue;

TEST_F(OperatorScenario, MetricsTellWhatTheOperatorDidAndHowTheClusterIs) {
  OperatorMetrics metrics;
  operatorMetrics = &metrics;
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const auto& reg = *metrics.registry();
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"namespace", kNs}, {"name", "a"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total", {{"verb", "create"}, {"resource", "statefulsets.apps"}}), 2);
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total", {{"verb", "create"}, {"resource", "secrets"}}), 1);
  EXPECT_GE(metricValue(reg, "kun_api_writes_total", {{"verb", "updateStatus"}, {"resource", "redisclusters.redis.kun"}}), 1);
  // Bootstrapping the master and the sentinels took state-changing commands.
  EXPECT_GE(metricValue(reg, "kun_redis_state_changing_commands_total", {{"command", "SENTINEL MONITOR"}}), 3);
  EXPECT_GE(metricValue(reg, "kun_redis_state_changing_commands_total", {{"command", "REPLICAOF"}}), 1);
  const double reconciles = metricValue(reg, "kun_reconcile_total");
  EXPECT_GT(reconciles, 1);
  EXPECT_EQ(metricValue(reg, "kun_reconcile_duration_seconds"), reconciles);

  // Healthy and left alone: reconciles go on, writes and commands do not.
  world->runFor(seconds(5));
  const double writes = metricValue(reg, "kun_api_writes_total");
  const double commands = metricValue(reg, "kun_redis_state_changing_commands_total");
  const double before = metricValue(reg, "kun_reconcile_total");
  world->runFor(seconds(35));  // more than one healthy recheck (30 s)
  EXPECT_GT(metricValue(reg, "kun_reconcile_total"), before);
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total"), writes);
  EXPECT_EQ(metricValue(reg, "kun_redis_state_changing_commands_total"), commands);

  // The master's pod goes: not healthy while it heals, healthy again after.
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  ASSERT_TRUE(deletePod(redisPod("a", m)).ok());
  ASSERT_TRUE(world->runUntil([&] { return metricValue(reg, "kun_cluster_healthy", {{"name", "a"}}) == 0; }, seconds(30)));
  ASSERT_TRUE(world->runUntil([&] { return metricValue(reg, "kun_cluster_healthy", {{"name", "a"}}) == 1; }, seconds(120)))
      << describe("a");

  // Deleted: its series goes.
  ASSERT_TRUE(world->store().remove(res::redisclusters, kNs, "a").ok());
  ASSERT_TRUE(world->runUntil([&] { return metricValue(reg, "kun_cluster_healthy", {{"name", "a"}}) < 0; }, seconds(30)));
  stopOperator();
}

}  // namespace
}  // namespace kun::scenario
