// kun-sim prop in small: random schedules pass on the real operator; on a broken one the
// failure is found, shrunk to a small schedule, written, and replays to the same run.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>

#include "scenarios/cluster_manifest.h"
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

// --vary-cluster: schedules against drawn clusters (sizes, sentinels, persistence, password,
// Sentinel timings) pass on the real operator.
TEST(PropRun, DrawnClustersPassOnTheRealOperator) {
  auto o = small(21);
  o.runs = 4;
  o.settle = Duration::zero();  // by each cluster's timings
  o.varyCluster = true;
  o.kinds = {chaos::FaultKind::PodKill, chaos::FaultKind::ContainerKill, chaos::FaultKind::ParamChange};
  const auto r = runProperty(o);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.failed) << r.report.failureDetail << "\nreplay: " << r.replay;
  EXPECT_EQ(r.trials, 4);
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

// kun-sim prop --cluster: the schedules run against the user's manifest (here one with a
// password, four redis pods and Sentinel timings of its own), and the written failure
// carries it, so the replay is of that cluster.
TEST(PropRun, RunsAgainstTheClusterManifestGiven) {
  auto manifest = parseClusterManifest(R"(apiVersion: redis.kun/v1beta1
kind: RedisCluster
metadata: {name: sessions}
spec:
  size: 4
  password: s3cret
  sentinel: {replicas: 3, customConfig: ["down-after-milliseconds 5000", "failover-timeout 10000"]}
)",
                                       "sessions.yaml");
  ASSERT_TRUE(manifest.ok()) << manifest.error().message;
  auto o = small(5);
  o.settle = Duration::zero();  // by the manifest's timings
  o.cluster = *manifest;
  o.kinds = {chaos::FaultKind::PodKill, chaos::FaultKind::ContainerKill, chaos::FaultKind::NetworkPartition};
  const auto passing = runProperty(o);
  EXPECT_TRUE(passing.error.empty()) << passing.error;
  EXPECT_FALSE(passing.failed) << passing.report.failureDetail << "\nreplay: " << passing.replay;
  EXPECT_EQ(passing.trials, 2);

  auto broken = skippingReset();
  broken.cluster = *manifest;
  broken.shrinkBudget = 3;
  const auto r = runProperty(broken);
  ASSERT_TRUE(r.error.empty()) << r.error;
  ASSERT_TRUE(r.failed);
  auto file = readScenarioFile(r.file);
  ASSERT_TRUE(file.ok()) << file.error().message;
  ASSERT_EQ(file->manifests.size(), 1u);
  EXPECT_EQ(file->manifests[0], *manifest);
  expectTheFileReplaysTheFailure(r, broken, 0);
  std::filesystem::remove_all(broken.outDir);
}

}  // namespace
}  // namespace kun::scenario
