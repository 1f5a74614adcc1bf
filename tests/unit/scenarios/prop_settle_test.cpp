// How long kun-sim prop gives a schedule's end to heal: the eventual-health bound by the
// longest Sentinel timings the schedule gives the cluster.
#include <gtest/gtest.h>

#include "scenarios/invariants.h"
#include "scenarios/prop_run.h"

namespace kun::scenario {
namespace {

Object clusterWith(Object customConfig) {
  Object c{{"apiVersion", "redis.kun/v1beta1"},
           {"kind", "RedisCluster"},
           {"metadata", {{"name", "prop"}, {"namespace", "default"}}},
           {"spec", {{"size", 3}, {"sentinel", {{"replicas", 3}}}}}};
  if (!customConfig.is_null()) c["spec"]["sentinel"]["customConfig"] = std::move(customConfig);
  return c;
}

chaos::Fault sentinelConfig(const char* line) {
  chaos::Fault f;
  f.kind = chaos::FaultKind::ParamChange;
  f.param = chaos::Param::SentinelConfig;
  f.value = Object::array({line});
  return f;
}

TEST(PropSettle, TheOperatorsTimingsWithoutCustomConfig) {
  EXPECT_EQ(settleBound(clusterWith(nullptr), {}, {}), healBound(1000, 3000));
}

TEST(PropSettle, TheClustersCustomConfig) {
  EXPECT_EQ(settleBound(clusterWith(Object::array({"failover-timeout 60000"})), {}, {}), healBound(1000, 60000));
}

TEST(PropSettle, TheLongestASentinelConfigChangeGives) {
  chaos::FaultSchedule s;
  s.faults = {sentinelConfig("down-after-milliseconds 9000"), sentinelConfig("down-after-milliseconds 4000"),
              sentinelConfig("no-such-option 1")};
  EXPECT_EQ(settleBound(clusterWith(nullptr), s, {}), healBound(9000, 3000));
  s.faults[0].param = chaos::Param::Config;  // not a Sentinel setting
  EXPECT_EQ(settleBound(clusterWith(nullptr), s, {}), healBound(4000, 3000));
}

}  // namespace
}  // namespace kun::scenario
