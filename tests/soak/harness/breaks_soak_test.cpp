// The ForTest switch whose catching scenario is too long for the default run (about 20 s
// under the sanitizers: the broken operator keeps the cluster busy until the timeout).
#include <gtest/gtest.h>

#include <filesystem>

#include "scenarios/operator_breaks.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

// The roll's last step is a failover the operator asks for; acting on while it runs
// (fencing and failing over again, demoting what Sentinel promoted) never lets it end.
TEST(BreaksSoak, ActingDuringItsOwnFailoverNeverLetsTheRollConverge) {
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  auto s = readScenarioFile((root / "scenarios" / "image-roll.yaml").string());
  ASSERT_TRUE(s.ok()) << s.error().message;
  RunOptions broken;
  broken.quietWindow = seconds(10);
  ASSERT_TRUE(applyOperatorBreak("act-during-failover", broken.heal).ok());
  const auto bad = runScenario(*s, broken).report;
  EXPECT_EQ(bad.failure, FailureClass::Liveness) << bad.failureDetail;
  EXPECT_NE(bad.failureDetail.find("waitFor converged not reached"), std::string::npos) << bad.failureDetail;
  RunOptions good;
  good.quietWindow = seconds(10);
  const auto r = runScenario(*s, good).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail;
}

}  // namespace
}  // namespace kun::scenario
