// The harness end to end: scenarios run with the real operator in the simulated world,
// judged by the invariants, reproducible from their seed; and a broken operator fails.
#include <gtest/gtest.h>

#include <filesystem>

#include "chaos/faults/fault_schedule.h"
#include "core/runtime/random.h"
#include "scenarios/invariants.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"
#include "scenarios/scenario_write.h"

namespace kun::scenario {
namespace {

std::string libraryFile(const std::string& name) {
  const auto root = std::filesystem::path(__FILE__).parent_path().parent_path().parent_path().parent_path();
  return (root / "scenarios" / name).string();
}

Scenario parsed(const std::string& text) {
  auto s = parseScenario(text, "inline.yaml");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

// One RedisCluster, its metadata and spec as given (flow style), and the steps.
Scenario withCluster(const std::string& metadata, const std::string& spec, const std::string& steps) {
  return parsed("name: inline\nmanifests:\n  - apiVersion: redis.kun/v1beta1\n    kind: RedisCluster\n    metadata: " +
                metadata + "\n    spec: " + spec + "\nsteps:\n" + steps);
}

#define KUN_ONE_CLUSTER \
  "manifests:\n"                                        \
  "  - apiVersion: redis.kun/v1beta1\n"                 \
  "    kind: RedisCluster\n"                            \
  "    metadata: {name: demo, namespace: default}\n"    \
  "    spec: {size: 3, sentinel: {replicas: 3}}\n"

// A short story: a cluster, writes, the master killed, healthy again, the writes read back.
const char* kKillMaster = "name: kill-master\n" KUN_ONE_CLUSTER R"(steps:
  - write: {keys: 20, prefix: k}
  - fault: {kind: pod-kill, target: master}
  - waitFor: {condition: master-changed, timeout: 1m}
  - waitFor: {condition: healthy, timeout: 2m}
  - read: {keys: 20, prefix: k}
)";

RunOptions quick(std::uint64_t seed) {
  RunOptions o;
  o.seed = seed;
  o.quietWindow = seconds(10);
  return o;
}

std::string invariantsText(const RunReport& r) {
  std::string out;
  for (const auto& [name, o] : r.invariants)
    out += name + "=" + (o.state == InvariantOutcome::State::Held ? "held" : o.state == InvariantOutcome::State::Violated ? "violated: " + o.detail : "not-checked") + "\n";
  return out;
}

TEST(HarnessRun, DefaultScenarioPassesWithEveryInvariantChecked) {
  auto s = readScenarioFile(libraryFile("default.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = runScenario(*s, RunOptions{}).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail << "\n" << invariantsText(r);
  EXPECT_EQ(r.exitCode(), 0);
  EXPECT_EQ(r.seed, 1u);  // the file's
  for (const auto& i : invariantCatalog()) {
    const auto& o = r.invariants.at(std::string(i.name));
    if (i.name == inv::kNoOrphans) EXPECT_EQ(o.state, InvariantOutcome::State::NotChecked);  // nothing deleted
    else EXPECT_EQ(o.state, InvariantOutcome::State::Held) << i.name << ": " << o.detail;
  }
  EXPECT_EQ(r.writesAcknowledged, 150);
  EXPECT_EQ(r.writesLost, 0);
  ASSERT_EQ(r.faults.size(), 3u);
  EXPECT_EQ(r.faults[0].kind, "pod-kill");
  EXPECT_TRUE(r.faults[0].applied) << r.faults[0].detail;
  ASSERT_EQ(r.recoveries.size(), 3u);
  ASSERT_TRUE(r.recoveries[0].healthyMs);
  // A killed master is noticed after down-after (1 s), failed over, and its pod replaced.
  EXPECT_GT(*r.recoveries[0].healthyMs, 1000);
  EXPECT_LT(*r.recoveries[0].healthyMs, 60000);
  EXPECT_NE(r.reproduce.find("--seed 1"), std::string::npos);
}

TEST(HarnessRun, OneSeedOneTraceHash) {
  const Scenario s = parsed(kKillMaster);
  const auto a = runScenario(s, quick(3)).report;
  const auto b = runScenario(s, quick(3)).report;
  const auto c = runScenario(s, quick(4)).report;
  ASSERT_TRUE(a.passed()) << a.failureDetail;
  EXPECT_EQ(a.traceHash, b.traceHash);
  EXPECT_EQ(a.virtualSeconds, b.virtualSeconds);
  EXPECT_NE(a.traceHash, c.traceHash);
}

TEST(HarnessRun, TimelineIsDrawnOnlyWhenAskedAndDoesNotChangeTheRun) {
  const Scenario s = parsed(kKillMaster);
  RunOptions with = quick(5);
  with.timeline = true;
  const auto drawn = runScenario(s, with);
  const auto plain = runScenario(s, quick(5));
  ASSERT_TRUE(drawn.timeline);
  EXPECT_FALSE(plain.timeline);
  EXPECT_EQ(drawn.report.traceHash, plain.report.traceHash);
  EXPECT_FALSE(drawn.timeline->samples.empty());
  EXPECT_EQ(drawn.timeline->faults.size(), 1u);
}

// An operator that never resets Sentinel leaves the killed pod's old address in every
// sentinel's list: the harness must say so, as a liveness failure.
TEST(HarnessRun, CatchesAnOperatorThatSkipsSentinelReset) {
  const Scenario s = parsed("name: replace-a-replica\n" KUN_ONE_CLUSTER R"(steps:
  - fault: {kind: pod-kill, target: replica}
  - sleep: 30s
)");
  RunOptions broken = quick(1);
  broken.heal.skipSentinelResetForTest = true;
  const auto r = runScenario(s, broken).report;
  EXPECT_FALSE(r.passed());
  EXPECT_EQ(r.exitCode(), 1);
  EXPECT_EQ(r.failure, FailureClass::Liveness) << r.failureDetail;
  const auto good = runScenario(s, quick(1)).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail << "\n" << invariantsText(good);
}

// Restarting the master while the replicas lag loses what only it had: the harness must
// tell that from the writes a Sentinel failover itself drops (those after it began).
TEST(HarnessRun, CatchesAnOperatorThatRestartsTheMasterBeforeAFailover) {
  auto s = readScenarioFile(libraryFile("rolling-image-lagging.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  RunOptions broken = quick(1);
  broken.heal.restartMasterBeforeSyncForTest = true;
  const auto bad = runScenario(*s, broken).report;
  EXPECT_EQ(bad.failure, FailureClass::Safety) << bad.failureDetail;
  EXPECT_GT(bad.lostByCause.count("unexplained"), 0u);
  const auto good = runScenario(*s, quick(1)).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail << "\n" << invariantsText(good);
  EXPECT_EQ(good.lostByCause.count("unexplained"), 0u);
  EXPECT_GT(good.writesAcknowledged, 300);
}

// The operator's own roll fences the master before SENTINEL FAILOVER, so not even the
// writes Sentinel's failover window would drop are lost; restarting the master first
// leaves its shutdown script's unfenced failover, whose losses are Sentinel's.
TEST(HarnessRun, TheFencedRollLosesNothingTheUnfencedOneOnlyTheFailoverWindow) {
  auto s = readScenarioFile(libraryFile("rolling-image.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto good = runScenario(*s, quick(2)).report;
  EXPECT_TRUE(good.passed()) << good.failureDetail;
  EXPECT_EQ(good.writesLost, 0);
  RunOptions unfenced = quick(2);  // a seed whose unfenced failover window holds writes
  unfenced.heal.restartMasterBeforeSyncForTest = true;
  const auto bad = runScenario(*s, unfenced).report;
  EXPECT_TRUE(bad.passed()) << bad.failureDetail;
  EXPECT_GT(bad.lostByCause.count("sentinel-failover") ? bad.lostByCause.at("sentinel-failover") : 0, 0);
  EXPECT_EQ(bad.lostByCause.count("unexplained"), 0u);
}

// A scale-down moves the master off a pod that goes as the roll does, fenced and only to a
// staying replica with its last write: the staying replicas lag behind a one-way cut, and
// not one acknowledged write is lost.
TEST(HarnessRun, TheFencedScaleDownLosesNoWriteWhileTheStayingReplicasLag) {
  auto s = readScenarioFile(libraryFile("scale-down-lagging.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = runScenario(*s, quick(1)).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail << "\n" << invariantsText(r);
  EXPECT_EQ(r.writesLost, 0);
  EXPECT_GT(r.writesAcknowledged, 300);
  // The cuts ("FROM -> TO dropped") came from the master to pods 0, 1 and 2, so from a pod
  // the scale-down removes.
  ASSERT_GE(r.faults.size(), 6u);
  const auto ends = [](const std::string& detail) {
    const auto arrow = detail.find(" -> "), end = detail.find(" dropped");
    EXPECT_NE(arrow, std::string::npos) << detail;
    EXPECT_NE(end, std::string::npos) << detail;
    if (arrow == std::string::npos || end == std::string::npos) return std::pair<std::string, std::string>{};
    return std::pair{detail.substr(0, arrow), detail.substr(arrow + 4, end - arrow - 4)};
  };
  const std::string master = ends(r.faults[3].detail).first;
  EXPECT_FALSE(master.empty());
  for (std::size_t i = 3; i < 6; ++i) {
    EXPECT_EQ(r.faults[i].kind, "network-partition");
    EXPECT_EQ(ends(r.faults[i].detail).first, master) << r.faults[i].detail;
    EXPECT_NE(ends(r.faults[i].detail).second, master) << r.faults[i].detail;
  }
}

// A manifest the operator refuses is the scenario's fault: bad input naming the field, at
// once, not "never healthy" after the first-health timeout.
TEST(HarnessRun, AManifestTheOperatorRejectsIsBadInput) {
  const Scenario s = parsed(R"(name: rejected
manifests:
  - apiVersion: redis.kun/v1beta1
    kind: RedisCluster
    metadata: {name: demo, namespace: default}
    spec: {size: 3, config: {port: "7000"}}
steps:
  - write: {keys: 5, prefix: k}
)");
  const auto r = runScenario(s, quick(1)).report;
  EXPECT_EQ(r.failure, FailureClass::BadInput) << r.failureDetail;
  EXPECT_EQ(r.exitCode(), 2);
  EXPECT_NE(r.failureDetail.find("spec.config.port"), std::string::npos) << r.failureDetail;
  EXPECT_LT(r.virtualSeconds, 60) << "decided at the operator's first pass, not at the timeout";
}

TEST(HarnessRun, AStepThatCannotBeAppliedIsBadInput) {
  Scenario s = parsed(kKillMaster);
  s.steps.resize(1);
  Step bad;
  bad.kind = StepKind::Fault;
  bad.line = 99;
  bad.fault.kind = chaos::FaultKind::NetworkLoss;  // lasting, but no duration
  s.steps.push_back(bad);
  const auto r = runScenario(s, quick(1)).report;
  EXPECT_EQ(r.failure, FailureClass::BadInput) << r.failureDetail;
  EXPECT_EQ(r.exitCode(), 2);
  EXPECT_NE(r.failureDetail.find(":99:"), std::string::npos) << r.failureDetail;
}

// The sampler keeps a view until something it reads changes (ScenarioWorld::observe): over
// runs full of faults, every kept view must give the verdicts a fresh one gives, every kept
// process digest (kept while the process' view version stays) must be the fresh one, and so
// must the readiness poll's kept inputs.
TEST(HarnessRun, AKeptViewJudgesAsAFreshOne) {
  std::vector<Scenario> runs;
  for (const char* f : {"network.yaml", "node-failures.yaml", "pod-faults.yaml"}) {
    auto s = readScenarioFile(libraryFile(f));
    ASSERT_TRUE(s.ok()) << s.error().message;
    runs.push_back(*s);
  }
  chaos::ScheduleOptions so;
  so.maxFaults = 8;
  so.horizon = minutes(5);
  const Object cluster = parsed(kKillMaster).manifests.front();
  for (std::uint64_t seed : {3u, 4u, 5u, 6u, 7u, 8u})
    runs.push_back(scenarioFromSchedule("generated", {cluster}, chaos::generateSchedule(Random(seed), so), seed,
                                        healBound(1000, 3000)));
  for (const auto& s : runs) {
    RunOptions o = quick(1);
    o.verifyViewCache = true;
    const auto r = runScenario(s, o);
    EXPECT_GT(r.viewCache.compared, 100u) << s.name;
    EXPECT_TRUE(r.viewCache.mismatches.empty()) << s.name << ": " << r.viewCache.mismatches.front();
  }
}

// A failover that one sentinel sees first (the others still on the old master, or a new
// sentinel on the placeholder) is recorded when the majority follows, under that epoch:
// the old master's last writes count as Sentinel's failover loss, not as unexplained.
TEST(HarnessRun, AFailoverSeenFirstByOneSentinelExplainsItsLosses) {
  auto s = readScenarioFile(libraryFile("master-and-sentinel-killed.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = runScenario(*s, quick(47)).report;  // the file's seed
  EXPECT_TRUE(r.passed()) << r.failureDetail;
  EXPECT_GT(r.lostByCause.count("sentinel-failover") ? r.lostByCause.at("sentinel-failover") : 0, 0);
  EXPECT_EQ(r.lostByCause.count("unexplained"), 0u);
}

// The sentinels' timings come from spec.sentinel.customConfig (down-after 150 s): the
// restart-empty master is failed over only after down-after + 20 s, and the run passes by
// the bound drawn from them (by the operator's own 1 s it was 128 s: eventual-health).
TEST(HarnessRun, TheBoundsFollowTheSentinelTimingsOfCustomConfig) {
  auto s = readScenarioFile(libraryFile("sentinel-custom-timings.yaml"));
  ASSERT_TRUE(s.ok()) << s.error().message;
  const auto r = runScenario(*s, quick(1)).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail << "\n" << invariantsText(r);
  EXPECT_EQ(r.writesLost, 0);
  ASSERT_EQ(r.recoveries.size(), 1u);
  ASSERT_TRUE(r.recoveries[0].healthyMs);
  EXPECT_GT(*r.recoveries[0].healthyMs, toMillis(healBound(1000, 3000)));
  EXPECT_LT(*r.recoveries[0].healthyMs, toMillis(healBound(150000, 3000)));
}

// Read right after the master restarted empty, with the sentinels still naming it: a
// Sentinel-aware client takes no answer from a node that is not a master and asks again,
// so the read waits for the failover and finds every write (it counted them all lost).
TEST(HarnessRun, AReadRightAfterTheMasterRestartsEmptyWaitsForAMaster) {
  const auto s = withCluster("{name: demo, namespace: default}", "{size: 3, disablePersistence: true, sentinel: {replicas: 3}}",
                             R"(  - write: {keys: 20, prefix: k}
  - sleep: 2s
  - fault: {kind: container-kill, target: master}
  - read: {keys: 20, prefix: k}
)");
  const auto r = runScenario(s, quick(1)).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail << "\n" << invariantsText(r);
  EXPECT_EQ(r.writesAcknowledged, 20);
  EXPECT_EQ(r.writesLost, 0);
}

// A manifest for a namespace the world does not have yet: the namespace is made first, as a
// user makes it before applying (kun-sim prop --cluster with namespace apps failed every
// run: namespaces "apps" not found).
TEST(HarnessRun, AClusterInANewNamespaceGetsItsNamespace) {
  const auto s = withCluster("{name: cache, namespace: apps}", "{size: 3, sentinel: {replicas: 3}}",
                             R"(  - write: {keys: 10, prefix: k}
  - fault: {kind: pod-kill, target: master}
  - waitFor: {condition: healthy, timeout: 2m}
  - read: {keys: 10, prefix: k}
)");
  const auto r = runScenario(s, quick(3)).report;
  EXPECT_TRUE(r.passed()) << r.failureDetail << "\n" << invariantsText(r);
  EXPECT_EQ(r.writesAcknowledged, 10);
  EXPECT_EQ(r.writesLost, 0);
}

}  // namespace
}  // namespace kun::scenario
