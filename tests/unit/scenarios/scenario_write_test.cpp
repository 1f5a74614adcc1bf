// Writing scenarios: what is written reads back equal, including generated schedules of
// every fault kind (so a shrunk schedule can be replayed from its file).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "chaos/faults/fault_schedule.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_write.h"

namespace kun::scenario {
namespace {

Object cluster() {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", "demo"}, {"namespace", "default"}}},
                {"spec",
                 {{"size", 3},
                  {"config", {{"maxmemory", "100"}, {"appendonly", "yes"}, {"hz", "true"}}},
                  {"password", "0123"},
                  {"sentinel", {{"replicas", 3}, {"customConfig", Object::array({"down-after-milliseconds 5000"})}}},
                  {"ratio", 0.5},
                  {"empty", nullptr}}}};
}

// Line numbers are where a step was read from; a written scenario has its own.
Scenario withoutLines(Scenario s) {
  for (auto& st : s.steps) st.line = 0;
  s.file.clear();
  return s;
}

TEST(ScenarioWrite, HandWrittenScenarioRoundTrips) {
  Scenario s;
  s.name = "story";
  s.description = "create: write, kill \"the\" master";
  s.seed = 12;
  s.world = {5, 2};
  s.manifests = {cluster()};
  Step w;
  w.kind = StepKind::Write;
  w.keys = 10;
  w.prefix = "123";  // would read back as a number unquoted
  Step f;
  f.kind = StepKind::Fault;
  f.fault.kind = chaos::FaultKind::PodKill;
  f.fault.target = "master";
  Step p;
  p.kind = StepKind::Patch;
  p.cluster = "demo";
  p.patch = Object{{"spec", {{"size", 5}}}};
  Step a;
  a.kind = StepKind::Apply;
  a.manifest = cluster();
  Step wait;
  wait.kind = StepKind::WaitFor;
  wait.condition = "healthy";
  wait.timeout = minutes(3);
  Step sleep;
  sleep.kind = StepKind::Sleep;
  sleep.duration = milliseconds(1500);
  Step as;
  as.kind = StepKind::Assert;
  as.condition = "sentinels-agree";
  Step delCluster;  // every field at its default: `delete: {}`
  delCluster.kind = StepKind::Delete;
  Step delObject;
  delObject.kind = StepKind::Delete;
  delObject.objectKind = "ConfigMap";
  delObject.objectNamespace = "other";
  delObject.objectName = "007";  // would read back as a number unquoted
  delObject.propagation = DeletePropagation::Orphan;
  s.steps = {w, f, p, a, wait, sleep, as, delCluster, delObject};
  const auto text = writeScenario(s);
  auto back = parseScenario(text, "written.yaml");
  ASSERT_TRUE(back.ok()) << back.error().message << "\n" << text;
  EXPECT_EQ(withoutLines(*back), s) << text;
}

RC_GTEST_PROP(ScenarioWrite, GeneratedSchedulesRoundTrip, ()) {
  chaos::ScheduleOptions o;
  o.maxFaults = *rc::gen::inRange(1, 10);
  const auto seed = *rc::gen::arbitrary<std::uint64_t>();
  const auto schedule = chaos::generateSchedule(Random(seed), o);
  const auto s = scenarioFromSchedule("prop-" + std::to_string(seed), {cluster()}, schedule, seed, minutes(5));
  const auto text = writeScenario(s);
  auto back = parseScenario(text, "prop.yaml");
  RC_ASSERT(back.ok());
  RC_ASSERT(withoutLines(*back) == s);
  RC_ASSERT(back->schedule == schedule);
}

TEST(ScenarioWrite, ScheduleScenarioMayEndByDeletingTheClusterAndRoundTrips) {
  chaos::FaultSchedule sch;
  chaos::Fault f;
  f.kind = chaos::FaultKind::PodKill;
  f.target = "master";
  sch.faults = {f};
  const auto plain = scenarioFromSchedule("x", {cluster()}, sch, 3, minutes(2));
  const auto s = scenarioFromSchedule("x", {cluster()}, sch, 3, minutes(2), true);
  ASSERT_EQ(s.steps.size(), plain.steps.size() + 1);
  EXPECT_EQ(s.steps.back().kind, StepKind::Delete);
  EXPECT_EQ(s.steps.back().objectKind, "RedisCluster");
  EXPECT_TRUE(s.steps.back().objectName.empty());  // the first manifest's
  auto back = parseScenario(writeScenario(s), "prop.yaml");
  ASSERT_TRUE(back.ok()) << back.error().message;
  EXPECT_EQ(withoutLines(*back), s);
}

TEST(ScenarioWrite, ScheduleScenarioWaitsForTheEndThenHealth) {
  chaos::FaultSchedule sch;
  chaos::Fault f;
  f.kind = chaos::FaultKind::ProcessHang;
  f.at = seconds(10);
  f.duration = seconds(20);
  sch.faults = {f};
  const auto s = scenarioFromSchedule("x", {cluster()}, sch, 3, minutes(2));
  ASSERT_EQ(s.steps.size(), 6u);
  EXPECT_EQ(s.steps[0].kind, StepKind::Write);
  EXPECT_EQ(s.steps[1].condition, "faults-ended");
  EXPECT_GE(s.steps[1].timeout, seconds(30));
  EXPECT_EQ(s.steps[2].condition, "healthy");
  EXPECT_EQ(s.steps[2].timeout, minutes(2));
  EXPECT_EQ(s.steps[3].kind, StepKind::Write);
  EXPECT_EQ(s.steps[4].kind, StepKind::Read);
  EXPECT_EQ(s.steps[4].prefix, s.steps[0].prefix);
  EXPECT_EQ(s.steps[5].prefix, s.steps[3].prefix);
  EXPECT_EQ(s.seed, 3u);
}

}  // namespace
}  // namespace kun::scenario
