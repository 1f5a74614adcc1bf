// A run whose virtual time stops (more events in a row at one instant than the stall
// limit) ends failed, with where it stopped, instead of hanging its caller.
#include <gtest/gtest.h>

#include "scenarios/scenario_runner.h"
#include "tests/scenario/harness/demo_scenario.h"

namespace kun::scenario {
namespace {

TEST(StallRun, ARunPastTheStallLimitFailsAsLivenessAndSaysWhere) {
  RunOptions o;
  o.quietWindow = seconds(10);
  o.stallEvents = 20;  // the cluster's creation alone runs more than this at one instant
  const auto r = runScenario(demoScenario("sleep: 1s"), o).report;
  EXPECT_EQ(r.failure, FailureClass::Liveness) << r.failureDetail;
  EXPECT_NE(r.failureDetail.find("virtual time stopped at"), std::string::npos) << r.failureDetail;
  EXPECT_NE(r.failureDetail.find("20 events ran at that instant"), std::string::npos) << r.failureDetail;
  EXPECT_FALSE(r.traceHash.empty());  // the report is finished as for any failed run

  o.stallEvents = RunOptions{}.stallEvents;  // the default lets the same run pass
  const auto ok = runScenario(demoScenario("sleep: 1s"), o).report;
  EXPECT_TRUE(ok.passed()) << ok.failureDetail;
}

}  // namespace
}  // namespace kun::scenario
