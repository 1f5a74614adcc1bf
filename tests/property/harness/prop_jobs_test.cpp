// kun-sim prop --jobs: the runs split over child processes, each job the same sequence as
// `kun-sim prop --seed S+k --runs R_k` alone, every run counted, the first failure shrunk
// and reported with the job that found it.
#include <gtest/gtest.h>

#include <unistd.h>

#include <filesystem>
#include <string>
#include <vector>

#include "scenarios/operator_breaks.h"
#include "scenarios/prop_jobs.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

PropOptions small(std::uint64_t seed, int runs) {
  PropOptions o;
  o.seed = seed;
  o.runs = runs;
  o.maxFaults = 2;
  o.horizon = seconds(40);
  o.settle = seconds(60);
  o.outDir = (std::filesystem::temp_directory_path() / ("kun-prop-jobs-" + std::to_string(::getpid()))).string();
  return o;
}

// The progress lines a run prints, kept.
struct Lines {
  std::vector<std::string> all;
  void listen(PropOptions& o) {
    o.progress = [this](const std::string& l) { all.push_back(l); };
  }
  std::vector<std::string> ofJob(int k) const {
    const std::string prefix = "[job " + std::to_string(k) + "] ";
    std::vector<std::string> out;
    for (const auto& l : all)
      if (l.rfind(prefix, 0) == 0) out.push_back(l.substr(prefix.size()));
    return out;
  }
};

TEST(PropJobs, EachJobIsTheSequenceOfItsSeedAloneAndEveryRunCounts) {
  auto o = small(21, 5);
  o.kinds = {chaos::FaultKind::PodKill, chaos::FaultKind::ProcessHang};
  Lines lines;
  lines.listen(o);
  const auto jr = runPropertyJobs(o, 2);
  ASSERT_TRUE(jr.result.error.empty()) << jr.result.error;
  EXPECT_FALSE(jr.result.failed) << jr.result.report.failureDetail;
  EXPECT_EQ(jr.jobs, 2);
  EXPECT_EQ(jr.result.trials, 5);
  // Job 1: seed 22 and 2 of the 5 runs (job 0 has the odd one), exactly as alone.
  EXPECT_EQ(propJob(o, 2, 1).seed, 22u);
  EXPECT_EQ(propJob(o, 2, 1).runs, 2);
  EXPECT_EQ(propJob(o, 2, 0).runs, 3);
  auto alone = o;
  alone.seed = 22;
  alone.runs = 2;
  Lines aloneLines;
  aloneLines.listen(alone);
  const auto r = runProperty(alone);
  ASSERT_FALSE(r.failed) << r.report.failureDetail;
  EXPECT_EQ(lines.ofJob(1), aloneLines.all);
  EXPECT_EQ(lines.ofJob(0).size(), 3u);
}

TEST(PropJobs, MoreJobsThanRunsStartOneJobPerRun) {
  auto o = small(3, 2);
  o.kinds = {chaos::FaultKind::PodKill};
  EXPECT_EQ(runPropertyJobs(o, 8).jobs, 2);
}

TEST(PropJobs, TheFirstFailureIsShrunkAndReportedWithItsJob) {
  auto o = small(1, 4);
  o.kinds = {chaos::FaultKind::PodKill};
  o.breaks = {"skip-sentinel-reset"};
  ASSERT_TRUE(applyOperatorBreak("skip-sentinel-reset", o.heal).ok());
  const auto jr = runPropertyJobs(o, 2);
  ASSERT_TRUE(jr.result.error.empty()) << jr.result.error;
  ASSERT_TRUE(jr.result.failed);
  EXPECT_EQ(jr.result.report.failure, FailureClass::Liveness) << jr.result.report.failureDetail;
  EXPECT_NE(jr.result.replay.find("--break skip-sentinel-reset"), std::string::npos) << jr.result.replay;
  // The job's sequence alone finds and shrinks to the same schedule and run.
  auto alone = o;
  alone.seed = jr.failed.seed;
  alone.runs = jr.failed.runs;
  const auto r = runProperty(alone);
  ASSERT_TRUE(r.failed);
  EXPECT_EQ(r.file, jr.result.file);
  EXPECT_EQ(r.report.traceHash, jr.result.report.traceHash);
  EXPECT_EQ(r.trials, jr.result.trials);
  // And the file replays to that failing run.
  auto file = readScenarioFile(jr.result.file);
  ASSERT_TRUE(file.ok()) << file.error().message;
  RunOptions replay;
  replay.heal = o.heal;
  const auto again = runScenario(*file, replay).report;
  EXPECT_FALSE(again.passed());
  EXPECT_EQ(again.traceHash, jr.result.report.traceHash);
  std::filesystem::remove_all(o.outDir);
}

}  // namespace
}  // namespace kun::scenario
