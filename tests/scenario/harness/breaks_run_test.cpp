// Each ForTest switch breaks the operator one way; a named library scenario shows the
// harness catching it (the run fails, for the reason the break causes) and passing the
// real operator on the same scenario and seed. act-during-failover's scenario takes
// about 20 s under the sanitizers: it is in tests/soak/harness/breaks_soak_test.cpp.
#include <gtest/gtest.h>

#include <filesystem>

#include "scenarios/invariants.h"
#include "scenarios/operator_breaks.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::scenario {
namespace {

Scenario library(const std::string& name) {
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  auto s = readScenarioFile((root / "scenarios" / name).string());
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

RunOptions with(std::string_view breakName) {
  RunOptions o;
  o.quietWindow = seconds(10);
  if (!breakName.empty()) {
    EXPECT_TRUE(applyOperatorBreak(breakName, o.heal).ok());
  }
  return o;
}

InvariantOutcome::State stateOf(const RunReport& r, std::string_view name) {
  return r.invariants.at(std::string(name)).state;
}

// The master restarts empty in its own pod, the oldest; promoting it instead of the
// replica with the data wipes every write, each of which every node held before.
TEST(BreaksRun, PromotingTheOldestPodLosesWritesEveryNodeHad) {
  const Scenario s = library("master-restarts-empty.yaml");
  ASSERT_EQ(s.steps.size(), 5u);  // one fault
  const auto bad = runScenario(s, with("promote-oldest")).report;
  EXPECT_EQ(bad.failure, FailureClass::Safety) << bad.failureDetail;
  EXPECT_EQ(stateOf(bad, inv::kNoUnexplainedWriteLoss), InvariantOutcome::State::Violated);
  EXPECT_EQ(bad.lostByCause.count("unexplained"), 1u);
  EXPECT_EQ(bad.lostByCause.at("unexplained"), 50);
  const auto good = runScenario(s, with("")).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail;
  EXPECT_EQ(good.writesLost, 0);
}

// Resetting every sentinel at once leaves none that knows a replica to promote.
TEST(BreaksRun, ResettingAllSentinelsAtOnceLeavesNoFailover) {
  const Scenario s = library("replica-replaced.yaml");
  const auto bad = runScenario(s, with("reset-all-sentinels")).report;
  EXPECT_EQ(bad.failure, FailureClass::Safety) << bad.failureDetail;
  EXPECT_EQ(stateOf(bad, inv::kFailoverReady), InvariantOutcome::State::Violated);
  EXPECT_NE(bad.invariants.at(std::string(inv::kFailoverReady)).detail.find("knows no replica to promote"),
            std::string::npos);
  const auto good = runScenario(s, with("")).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail;
  EXPECT_EQ(stateOf(good, inv::kFailoverReady), InvariantOutcome::State::Held);
}

// Made again from kept volumes, one of them stale: bootstrapping from the first pod that
// answers, before every pod is up, makes the stale one master.
TEST(BreaksRun, BootstrappingBeforeEveryPodIsUpLosesWhatTheStaleVolumeLacks) {
  const Scenario s = library("recreate-with-stale-volume.yaml");
  const auto bad = runScenario(s, with("add-unready-pod")).report;
  EXPECT_EQ(bad.failure, FailureClass::Safety) << bad.failureDetail;
  EXPECT_EQ(stateOf(bad, inv::kNoUnexplainedWriteLoss), InvariantOutcome::State::Violated);
  EXPECT_GT(bad.lostByCause.count("unexplained"), 0u);
  const auto good = runScenario(s, with("")).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail;
  EXPECT_EQ(good.writesAcknowledged, 40);
  EXPECT_EQ(good.writesLost, 0);
}

// The real operator must pass what real Sentinel does: a write the old master took just
// after the failover was seen (from a client of a sentinel still naming it) is Sentinel's
// split-brain loss, counted as such, not an unexplained one.
TEST(BreaksRun, AWriteToTheOldMasterRightAfterAFailoverIsSentinelsLoss) {
  const auto r = runScenario(library("master-hang-mid-failover.yaml"), with("")).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail;
  EXPECT_EQ(r.lostByCause.count("unexplained"), 0u);
  EXPECT_EQ(r.writesLost, r.lostByCause.count("sentinel-failover") ? r.lostByCause.at("sentinel-failover") : 0);
  EXPECT_GT(r.writesAcknowledged, 100);
}

}  // namespace
}  // namespace kun::scenario
