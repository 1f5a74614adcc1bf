// Scenario files: good ones parse into the structs, bad ones fail with the file, line and
// field and what was expected.
#include <gtest/gtest.h>

#include <filesystem>
#include <set>

#include "scenarios/scenario_parse.h"

namespace kun::scenario {
namespace {

constexpr const char* kGood = R"(name: kill-master
description: create, write, kill the master, read back
seed: 7
world: {nodes: 4, zones: 2}
manifests:
  - apiVersion: redis.kun/v1beta1
    kind: RedisCluster
    metadata: {name: demo, namespace: default}
    spec:
      size: 3
      config: {maxmemory: "100"}
      sentinel: {replicas: 3}
schedule:
  - {kind: network-partition, at: 2m, duration: 30s, mode: master-sentinels}
steps:
  - write: {keys: 100, prefix: a}
  - fault: {kind: pod-kill, target: master}
  - waitFor: {condition: healthy, timeout: 2m}
  - read: {keys: 100, prefix: a}
  - patch: {patch: {spec: {size: 4}}}
  - fault: {kind: api-errors, code: 429, retryAfter: 2, rate: 1/10, duration: 20s}
  - fault: {kind: param-change, param: config, value: {maxmemory: 200mb}, valid: true}
  - sleep: 1m30s
  - assert: healthy
  - assert: {condition: writes-readable}
)";

TEST(ScenarioParse, AGoodFile) {
  auto r = parseScenario(kGood, "good.yaml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  const Scenario& s = *r;
  EXPECT_EQ(s.name, "kill-master");
  EXPECT_EQ(s.seed, 7u);
  EXPECT_EQ(s.world.nodes, 4);
  EXPECT_EQ(s.world.zones, 2);
  ASSERT_EQ(s.manifests.size(), 1u);
  EXPECT_EQ(s.manifests[0]["spec"]["size"], 3);                   // a plain scalar is a number
  EXPECT_EQ(s.manifests[0]["spec"]["config"]["maxmemory"], "100");  // a quoted one stays a string
  ASSERT_EQ(s.schedule.faults.size(), 1u);
  EXPECT_EQ(s.schedule.faults[0].kind, chaos::FaultKind::NetworkPartition);
  EXPECT_EQ(s.schedule.faults[0].at, minutes(2));
  ASSERT_EQ(s.steps.size(), 10u);
  EXPECT_EQ(s.steps[0].kind, StepKind::Write);
  EXPECT_EQ(s.steps[0].keys, 100);
  EXPECT_EQ(s.steps[0].prefix, "a");
  EXPECT_EQ(s.steps[0].line, 16);
  EXPECT_EQ(s.steps[1].fault.kind, chaos::FaultKind::PodKill);
  EXPECT_EQ(s.steps[1].fault.target, "master");
  EXPECT_EQ(s.steps[2].condition, "healthy");
  EXPECT_EQ(s.steps[2].timeout, minutes(2));
  EXPECT_EQ(s.steps[4].kind, StepKind::Patch);
  EXPECT_EQ(s.steps[4].cluster, "");
  EXPECT_EQ(s.steps[4].patch, (Object{{"spec", {{"size", 4}}}}));
  const auto& api = s.steps[5].fault;
  EXPECT_EQ(api.code, 429);
  EXPECT_EQ(api.retryAfterSeconds, 2);
  EXPECT_EQ(api.rateNum, 1u);
  EXPECT_EQ(api.rateDen, 10u);
  EXPECT_EQ(api.duration, seconds(20));
  EXPECT_EQ(s.steps[6].fault.param, chaos::Param::Config);
  EXPECT_EQ(s.steps[6].fault.value, (Object{{"maxmemory", "200mb"}}));
  EXPECT_EQ(s.steps[7].duration, seconds(90));
  EXPECT_EQ(s.steps[8].condition, "healthy");
  EXPECT_EQ(s.steps[9].condition, "writes-readable");
}

struct BadCase {
  const char* name;
  const char* text;
  int line;
  const char* field;
  const char* expected;  // a piece of the message
};

std::string header() {
  return "name: x\nmanifests:\n  - {apiVersion: redis.kun/v1beta1, kind: RedisCluster, metadata: {name: demo}}\n";
}

class ScenarioParseBad : public ::testing::TestWithParam<BadCase> {};

TEST_P(ScenarioParseBad, NamesFileLineFieldAndExpectation) {
  const auto& c = GetParam();
  auto r = parseScenario(c.text, "bad.yaml");
  ASSERT_FALSE(r.ok());
  const auto& e = r.error();
  EXPECT_EQ(e.reason, Reason::Invalid);
  EXPECT_EQ(e.field, c.field) << e.message;
  EXPECT_EQ(e.message.rfind("bad.yaml:" + std::to_string(c.line) + ": ", 0), 0u) << e.message;
  EXPECT_NE(e.message.find(c.expected), std::string::npos) << e.message;
}

const std::string kHead = header();
const std::string kUnknownKind = kHead + "steps:\n  - fault: {kind: pod-kil}\n";
const std::string kNoDuration = kHead + "steps:\n  - fault:\n      kind: process-hang\n      target: master\n";
const std::string kBadDuration = kHead + "steps:\n  - sleep: 10 seconds\n";
const std::string kBadCondition = kHead + "steps:\n  - waitFor: {condition: healty, timeout: 1m}\n";
const std::string kNoTimeout = kHead + "steps:\n  - waitFor: {condition: healthy}\n";
const std::string kTwoKeys = kHead + "steps:\n  - {sleep: 1s, write: {keys: 1}}\n";
const std::string kUnknownStep = kHead + "steps:\n  - jump: 1s\n";
const std::string kWrongField = kHead + "steps:\n  - fault: {kind: pod-kill, latency: 1s}\n";
const std::string kBadRate = kHead + "steps:\n  - fault: {kind: network-loss, rate: 3/2, duration: 5s}\n";
const std::string kBadCode = kHead + "steps:\n  - fault: {kind: api-errors, code: 404, duration: 5s}\n";
const std::string kKeysNotNumber = kHead + "steps:\n  - write: {keys: many}\n";
const std::string kOneWayNoTo = kHead + "steps:\n  - fault: {kind: network-partition, mode: one-way, from: master, duration: 5s}\n";
const std::string kScheduleNoAt = kHead + "schedule:\n  - {kind: pod-kill}\nsteps: []\n";
const std::string kNoManifestName = "name: x\nmanifests:\n  - {apiVersion: v1, kind: RedisCluster, metadata: {}}\nsteps: []\n";
const std::string kTopTypo = kHead + "step: []\n";
const std::string kParamUnknown = kHead + "steps:\n  - fault: {kind: param-change, param: colour, value: red}\n";
const std::string kDeleteUnknownKind = kHead + "steps:\n  - delete: {kind: Deployment-ish, name: x}\n";
const std::string kDeleteNoName = kHead + "steps:\n  - delete: {kind: StatefulSet}\n";
const std::string kDeleteBadPropagation = kHead + "steps:\n  - delete: {propagation: cascade}\n";

INSTANTIATE_TEST_SUITE_P(
    Files, ScenarioParseBad,
    ::testing::Values(
        BadCase{"UnknownFaultKind", kUnknownKind.c_str(), 5, "steps[0].fault.kind", "one of pod-kill"},
        BadCase{"LastingFaultWithoutDuration", kNoDuration.c_str(), 5, "steps[0].fault.duration", "a duration > 0"},
        BadCase{"UnreadableDuration", kBadDuration.c_str(), 5, "steps[0].sleep", "a duration > 0 such as"},
        BadCase{"UnknownCondition", kBadCondition.c_str(), 5, "steps[0].waitFor.condition", "one of healthy"},
        BadCase{"WaitWithoutTimeout", kNoTimeout.c_str(), 5, "steps[0].waitFor.timeout", "a timeout"},
        BadCase{"StepWithTwoKeys", kTwoKeys.c_str(), 5, "steps[0]", "a mapping with one key"},
        BadCase{"UnknownStep", kUnknownStep.c_str(), 5, "steps[0].jump", "a step: apply, patch"},
        BadCase{"FieldOfAnotherKind", kWrongField.c_str(), 5, "steps[0].fault.latency", "one of the fields"},
        BadCase{"RateAboveOne", kBadRate.c_str(), 5, "steps[0].fault.rate", "at most 1"},
        BadCase{"UnknownHttpCode", kBadCode.c_str(), 5, "steps[0].fault.code", "500, 429 or 409"},
        BadCase{"KeysNotANumber", kKeysNotNumber.c_str(), 5, "steps[0].write.keys", "an integer"},
        BadCase{"OneWayWithoutTo", kOneWayNoTo.c_str(), 5, "steps[0].fault.to", "one-way"},
        BadCase{"ScheduleEntryWithoutAt", kScheduleNoAt.c_str(), 5, "schedule[0].at", "when the fault begins"},
        BadCase{"ManifestWithoutName", kNoManifestName.c_str(), 3, "manifests[0].metadata.name", "the object's name"},
        BadCase{"MisspeltTopLevelField", kTopTypo.c_str(), 4, "step", "one of the fields name"},
        BadCase{"UnknownParameter", kParamUnknown.c_str(), 5, "steps[0].fault.param", "config, size"},
        BadCase{"DeleteOfAnUnknownKind", kDeleteUnknownKind.c_str(), 5, "steps[0].delete.kind", "one of RedisCluster"},
        BadCase{"DeleteWithoutName", kDeleteNoName.c_str(), 5, "steps[0].delete.name", "the name of the StatefulSet"},
        BadCase{"DeleteWithUnknownPropagation", kDeleteBadPropagation.c_str(), 5, "steps[0].delete.propagation",
                "background, foreground or orphan"}),
    [](const ::testing::TestParamInfo<BadCase>& info) { return std::string(info.param.name); });

TEST(ScenarioParse, NotYamlAtAll) {
  auto r = parseScenario("name: [unclosed\n", "broken.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().message.rfind("broken.yaml:", 0), 0u) << r.error().message;
}

TEST(ScenarioParse, MissingFile) {
  auto r = readScenarioFile("/nonexistent/dir/x.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_NE(r.error().message.find("/nonexistent/dir/x.yaml"), std::string::npos);
}

TEST(ScenarioParse, MissingRequiredSections) {
  auto r = parseScenario("name: x\nsteps: []\n", "m.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().field, "manifests") << r.error().message;
  auto s = parseScenario(header(), "m.yaml");
  ASSERT_FALSE(s.ok());
  EXPECT_EQ(s.error().field, "steps") << s.error().message;
}

}  // namespace
}  // namespace kun::scenario

namespace kun::scenario {
namespace {

// The scenario library next to the sources: every file parses, and together they use
// every fault kind.
TEST(ScenarioLibrary, EveryFileParsesAndEveryKindIsCovered) {
  const std::filesystem::path here = std::filesystem::path(__FILE__).parent_path();
  const auto dir = here.parent_path().parent_path().parent_path() / "scenarios";
  std::set<chaos::FaultKind> kinds;
  int files = 0;
  for (const auto& e : std::filesystem::directory_iterator(dir)) {
    if (e.path().extension() != ".yaml") continue;
    ++files;
    auto s = readScenarioFile(e.path().string());
    ASSERT_TRUE(s.ok()) << s.error().message;
    for (const auto& f : s->schedule.faults) kinds.insert(f.kind);
    for (const auto& st : s->steps)
      if (st.kind == StepKind::Fault) kinds.insert(st.fault.kind);
  }
  EXPECT_GE(files, 7);
  for (auto k : chaos::allFaultKinds()) EXPECT_EQ(kinds.count(k), 1u) << chaos::faultKindName(k);
}

}  // namespace
}  // namespace kun::scenario
