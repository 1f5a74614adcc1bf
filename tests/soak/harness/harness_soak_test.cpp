// Long harness runs (label soak, opt-in: ctest --preset release -L soak): every scenario of
// the library passes on the real operator, and many long random schedules do too.
#include <gtest/gtest.h>

#include <cstdlib>
#include <filesystem>

#include "scenarios/prop_run.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

std::filesystem::path libraryDir() {
  return std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path() / "scenarios";
}

TEST(HarnessSoak, EveryLibraryScenarioPasses) {
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(libraryDir())) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    auto s = readScenarioFile(e.path().string());
    ASSERT_TRUE(s.ok()) << s.error().message;
    const auto r = runScenario(*s, RunOptions{}).report;
    EXPECT_TRUE(r.passed()) << e.path().filename() << ": " << r.failureDetail << "\nreproduce: " << r.reproduce;
  }
  EXPECT_GE(files, 7);
}

// KUN_SOAK_RUNS schedules (default 100) of up to 10 faults of every kind over 10 minutes.
TEST(HarnessSoak, LongRandomSchedulesPassOnTheRealOperator) {
  PropOptions o;
  const char* runs = std::getenv("KUN_SOAK_RUNS");
  o.runs = runs ? std::atoi(runs) : 100;
  o.seed = 20261203;
  o.maxFaults = 10;
  o.horizon = minutes(10);
  o.outDir = std::filesystem::temp_directory_path().string();
  o.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const auto r = runProperty(o);
  EXPECT_TRUE(r.error.empty()) << r.error;
  EXPECT_FALSE(r.failed) << r.report.failureDetail << "\nreplay: " << r.replay;
}

}  // namespace
}  // namespace kun::scenario
