// A run whose virtual time stops (more events in a row at one instant than the stall
// limit) ends failed, with where it stopped, instead of hanging its caller.
#include <gtest/gtest.h>

#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

Scenario demo() {
  auto s = parseScenario(R"(name: stall
manifests:
  - apiVersion: redis.kun/v1beta1
    kind: RedisCluster
    metadata: {name: demo, namespace: default}
    spec: {size: 3, sentinel: {replicas: 3}}
steps:
  - write: {keys: 5, prefix: k}
)",
                         "inline.yaml");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

TEST(StallRun, ARunPastTheStallLimitFailsAsLivenessAndSaysWhere) {
  RunOptions o;
  o.quietWindow = seconds(10);
  o.stallEvents = 20;  // the cluster's creation alone runs more than this at one instant
  const auto r = runScenario(demo(), o).report;
  EXPECT_EQ(r.failure, FailureClass::Liveness) << r.failureDetail;
  EXPECT_NE(r.failureDetail.find("virtual time stopped at"), std::string::npos) << r.failureDetail;
  EXPECT_NE(r.failureDetail.find("20 events ran at that instant"), std::string::npos) << r.failureDetail;
  EXPECT_FALSE(r.traceHash.empty());  // the report is finished as for any failed run

  o.stallEvents = RunOptions{}.stallEvents;  // the default lets the same run pass
  const auto ok = runScenario(demo(), o).report;
  EXPECT_TRUE(ok.passed()) << ok.failureDetail;
}

}  // namespace
}  // namespace kun::scenario
