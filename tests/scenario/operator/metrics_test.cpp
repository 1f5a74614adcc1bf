// The operator's metrics in the simulator: no server, the registry read after a scenario.
#include "core/operator/operator_metrics.h"
#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

double valueOf(const prometheus::Registry& reg, const std::string& family,
               const std::map<std::string, std::string>& labels = {}) {
  double sum = -1;
  for (const auto& f : reg.Collect()) {
    if (f.name != family) continue;
    for (const auto& m : f.metric) {
      bool match = true;
      for (const auto& [k, v] : labels) {
        bool found = false;
        for (const auto& l : m.label) found = found || (l.name == k && l.value == v);
        match = match && found;
      }
      if (!match) continue;
      const double v = f.type == prometheus::MetricType::Counter ? m.counter.value
                       : f.type == prometheus::MetricType::Gauge ? m.gauge.value
                                                                 : static_cast<double>(m.histogram.sample_count);
      sum = (sum < 0 ? 0 : sum) + v;
    }
  }
  return sum;
}

TEST_F(OperatorScenario, MetricsTellWhatTheOperatorDidAndHowTheClusterIs) {
  OperatorMetrics metrics;
  operatorMetrics = &metrics;
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const auto& reg = *metrics.registry();
  EXPECT_EQ(valueOf(reg, "kun_cluster_healthy", {{"namespace", kNs}, {"name", "a"}}), 1);
  EXPECT_EQ(valueOf(reg, "kun_api_writes_total", {{"verb", "create"}, {"resource", "statefulsets.apps"}}), 2);
  EXPECT_EQ(valueOf(reg, "kun_api_writes_total", {{"verb", "create"}, {"resource", "secrets"}}), 1);
  EXPECT_GE(valueOf(reg, "kun_api_writes_total", {{"verb", "updateStatus"}, {"resource", "redisclusters.redis.kun"}}), 1);
  // Bootstrapping the master and the sentinels took state-changing commands.
  EXPECT_GE(valueOf(reg, "kun_redis_state_changing_commands_total", {{"command", "SENTINEL MONITOR"}}), 3);
  EXPECT_GE(valueOf(reg, "kun_redis_state_changing_commands_total", {{"command", "REPLICAOF"}}), 1);
  const double reconciles = valueOf(reg, "kun_reconcile_total");
  EXPECT_GT(reconciles, 1);
  EXPECT_EQ(valueOf(reg, "kun_reconcile_duration_seconds"), reconciles);

  // Healthy and left alone: reconciles go on, writes and commands do not.
  world->runFor(seconds(5));
  const double writes = valueOf(reg, "kun_api_writes_total");
  const double commands = valueOf(reg, "kun_redis_state_changing_commands_total");
  const double before = valueOf(reg, "kun_reconcile_total");
  world->runFor(seconds(35));  // more than one healthy recheck (30 s)
  EXPECT_GT(valueOf(reg, "kun_reconcile_total"), before);
  EXPECT_EQ(valueOf(reg, "kun_api_writes_total"), writes);
  EXPECT_EQ(valueOf(reg, "kun_redis_state_changing_commands_total"), commands);

  // The master's pod goes: not healthy while it heals, healthy again after.
  const int m = masterOrdinal("a", 3);
  ASSERT_GE(m, 0);
  ASSERT_TRUE(deletePod(redisPod("a", m)).ok());
  ASSERT_TRUE(world->runUntil([&] { return valueOf(reg, "kun_cluster_healthy", {{"name", "a"}}) == 0; }, seconds(30)));
  ASSERT_TRUE(world->runUntil([&] { return valueOf(reg, "kun_cluster_healthy", {{"name", "a"}}) == 1; }, seconds(120)))
      << describe("a");

  // Deleted: its series goes.
  ASSERT_TRUE(world->store().remove(res::redisclusters, kNs, "a").ok());
  ASSERT_TRUE(world->runUntil([&] { return valueOf(reg, "kun_cluster_healthy", {{"name", "a"}}) < 0; }, seconds(30)));
  stopOperator();
}

}  // namespace
}  // namespace kun::scenario
