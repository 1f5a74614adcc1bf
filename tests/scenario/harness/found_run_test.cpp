// The schedules kun-sim prop found failing (tests/scenario/harness/found/, each file says
// what it found), kept as regression cases: each passes with the operator and simulator as
// they are now, and replays to the same run.
#include <gtest/gtest.h>

#include <algorithm>
#include <filesystem>
#include <vector>

#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

std::vector<std::filesystem::path> foundFiles() {
  const auto dir = std::filesystem::path(__FILE__).parent_path() / "found";
  std::vector<std::filesystem::path> files;
  for (const auto& e : std::filesystem::directory_iterator(dir))
    if (e.path().extension() == ".yaml") files.push_back(e.path());
  std::sort(files.begin(), files.end());
  return files;
}

TEST(FoundSchedules, EachPassesAndReplaysTheSame) {
  const auto files = foundFiles();
  ASSERT_GE(files.size(), 9u);
  for (const auto& f : files) {
    SCOPED_TRACE(f.filename().string());
    auto s = readScenarioFile(f.string());
    ASSERT_TRUE(s.ok()) << s.error().message;
    const auto a = runScenario(*s, RunOptions{}).report;
    EXPECT_TRUE(a.passed()) << a.failureDetail;
    EXPECT_EQ(runScenario(*s, RunOptions{}).report.traceHash, a.traceHash);
  }
}

}  // namespace
}  // namespace kun::scenario
