// kun-sim prop in small: random schedules pass on the real operator; on a broken one the
// failure is found, shrunk to a small schedule, written, and replays to the same run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "scenarios/operator_breaks.h"
#include "scenarios/prop_run.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

PropOptions small(std::uint64_t seed) {
  PropOptions o;
  o.seed = seed;
  o.runs = 2;
  o.maxFaults = 2;
  o.horizon = seconds(40);
  o.settle = seconds(60);
  o.outDir = (std::filesystem::temp_directory_path() / ("kun-prop-" + std::to_string(::getpid()))).string();
  return o;
}

TEST(PropRun, SeededSchedulesPassOnTheRealOperator) {
  auto o = small(11);
  o.kinds = {chaos::FaultKind::PodKill, chaos::FaultKind::ProcessHang, chaos::FaultKind::ApiErrors,
             chaos::FaultKind::OperatorRestart, chaos::FaultKind::NetworkDelay};
  const auto r = runProperty(o);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.failed) << r.report.failureDetail << "\nreplay: " << r.replay;
  EXPECT_EQ(r.trials, 2);
}

// Pod kills against an operator that never resets Sentinel.
PropOptions skippingReset() {
  auto o = small(1);
  o.kinds = {chaos::FaultKind::PodKill};
  o.breaks = {"skip-sentinel-reset"};
  EXPECT_TRUE(applyOperatorBreak("skip-sentinel-reset", o.heal).ok());
  return o;
}

// The written file, replayed with the same broken operator, is the same failing run.
void expectTheFileReplaysTheFailure(const PropResult& r, const PropOptions& o, std::size_t faults) {
  auto file = readScenarioFile(r.file);
  ASSERT_TRUE(file.ok()) << file.error().message;
  if (faults) {
    EXPECT_EQ(file->schedule.faults.size(), faults);
  }
  RunOptions replay;
  replay.heal = o.heal;
  const auto again = runScenario(*file, replay).report;
  EXPECT_FALSE(again.passed());
  EXPECT_EQ(again.traceHash, r.report.traceHash);
}

TEST(PropRun, AnOperatorThatSkipsSentinelResetIsCaughtAndShrunk) {
  const auto o = skippingReset();
  const auto r = runProperty(o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.report.failure, FailureClass::Liveness) << r.report.failureDetail;
  EXPECT_NE(r.replay.find("--break skip-sentinel-reset"), std::string::npos) << r.replay;
  // The minimal schedule: one pod deletion is enough to leave a stale sentinel entry.
  expectTheFileReplaysTheFailure(r, o, 1);
  std::filesystem::remove_all(o.outDir);
}

// Shrinking stops at its budget with the smallest failure found so far, already on disk.
TEST(PropRun, ShrinkingStopsAtItsBudget) {
  auto o = skippingReset();
  o.shrinkBudget = 2;
  const auto r = runProperty(o);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failed);
  EXPECT_TRUE(r.shrinkCut);
  EXPECT_LE(r.trials, r.passedBeforeFailure + 1 + o.shrinkBudget);
  expectTheFileReplaysTheFailure(r, o, 0);
  std::filesystem::remove_all(o.outDir);
}

}  // namespace
}  // namespace kun::scenario
