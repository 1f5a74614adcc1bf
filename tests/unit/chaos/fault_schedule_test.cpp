// Fault values, names, durations as text, generated schedules and the schedule runner.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "chaos/faults/duration_text.h"
#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"
#include "chaos/faults/schedule_runner.h"
#include "tests/unit/chaos/chaos_world.h"

namespace kun::chaos {
namespace {

TEST(FaultNames, EveryKindRoundTripsAndIsUnique) {
  std::set<std::string_view> names;
  for (auto k : allFaultKinds()) {
    EXPECT_EQ(faultKindFromName(faultKindName(k)), k);
    EXPECT_TRUE(names.insert(faultKindName(k)).second);
  }
  EXPECT_EQ(names.size(), 19u);
  EXPECT_FALSE(faultKindFromName("pod-kil").has_value());
  for (auto p : allParams()) EXPECT_EQ(paramFromName(paramName(p)), p);
  EXPECT_EQ(partitionModeFromName("one-way"), PartitionMode::OneWay);
}

TEST(FaultValidation, NamesTheFieldThatIsWrong) {
  Fault f;
  f.kind = FaultKind::NetworkDelay;
  f.duration = seconds(5);
  EXPECT_EQ(validateFault(f).error().field, "latency");
  f.latency = milliseconds(10);
  EXPECT_TRUE(validateFault(f).ok());
  f.kind = FaultKind::PodKill;
  EXPECT_EQ(validateFault(f).error().field, "duration");  // instantaneous
  f.kind = FaultKind::ApiErrors;
  f.code = 404;
  EXPECT_EQ(validateFault(f).error().field, "code");
  f.code = 429;
  f.rateNum = 3;
  f.rateDen = 2;
  EXPECT_EQ(validateFault(f).error().field, "rate");
}

TEST(FaultDescription, SaysWhatWhenAndHowLong) {
  Fault f;
  f.kind = FaultKind::ApiErrors;
  f.code = 429;
  f.retryAfterSeconds = 2;
  f.rateNum = 1;
  f.rateDen = 10;
  f.at = seconds(90);
  f.duration = seconds(20);
  EXPECT_EQ(describeFault(f), "api-errors 429 1/10 retry-after 2s at 1m30s for 20s");
  Fault k;
  EXPECT_EQ(describeFault(k), "pod-kill master at 0s");
}

TEST(DurationText, Examples) {
  EXPECT_EQ(formatDuration(milliseconds(1500)), "1500ms");
  EXPECT_EQ(formatDuration(seconds(90)), "1m30s");
  EXPECT_EQ(formatDuration(hours(2)), "2h");
  EXPECT_EQ(parseDuration("1m30s"), seconds(90));
  EXPECT_EQ(parseDuration("250ms"), milliseconds(250));
  EXPECT_EQ(parseDuration("0"), Duration{0});
  EXPECT_FALSE(parseDuration("30").has_value());
  EXPECT_FALSE(parseDuration("3x").has_value());
  EXPECT_FALSE(parseDuration("").has_value());
  EXPECT_FALSE(parseDuration("s").has_value());
}

RC_GTEST_PROP(DurationText, FormatThenParseIsIdentity, ()) {
  const auto ms = *rc::gen::inRange<std::int64_t>(0, 10LL * 24 * 3600 * 1000);
  RC_ASSERT(parseDuration(formatDuration(milliseconds(ms))) == std::optional<Duration>(milliseconds(ms)));
}

TEST(Schedules, SameSeedSameScheduleAndSeedsDiffer) {
  ScheduleOptions o;
  o.maxFaults = 8;
  EXPECT_EQ(generateSchedule(Random(42), o), generateSchedule(Random(42), o));
  int differ = 0;
  for (std::uint64_t s = 1; s <= 10; ++s)
    if (!(generateSchedule(Random(s), o) == generateSchedule(Random(s + 100), o))) ++differ;
  EXPECT_EQ(differ, 10);
}

RC_GTEST_PROP(Schedules, GeneratedFaultsAreValidSortedAndOfTheEnabledKinds, ()) {
  const auto& all = allFaultKinds();
  const auto picked = *rc::gen::container<std::set<std::size_t>>(rc::gen::inRange<std::size_t>(0, all.size()));
  ScheduleOptions o;
  for (auto i : picked) o.kinds.insert(all[i]);
  o.maxFaults = *rc::gen::inRange(1, 12);
  o.horizon = seconds(*rc::gen::inRange(1, 900));
  const auto s = generateSchedule(Random(*rc::gen::arbitrary<std::uint64_t>()), o);
  RC_ASSERT(!s.faults.empty());
  RC_ASSERT(static_cast<int>(s.faults.size()) <= o.maxFaults);
  for (std::size_t i = 0; i < s.faults.size(); ++i) {
    const auto& f = s.faults[i];
    RC_ASSERT(validateFault(f).ok());
    RC_ASSERT(o.kinds.empty() || o.kinds.count(f.kind) == 1);
    RC_ASSERT(f.at < o.horizon);
    RC_ASSERT(f.at.count() % 1000 == 0);  // whole milliseconds: exact in YAML
    if (i > 0) RC_ASSERT(s.faults[i - 1].at <= f.at);
  }
}

TEST(Schedules, InvalidParameterChangesAppearAtTheirRate) {
  ScheduleOptions o;
  o.kinds = {FaultKind::ParamChange};
  o.minFaults = o.maxFaults = 200;
  o.invalidDen = 4;
  const auto s = generateSchedule(Random(9), o);
  int invalid = 0;
  for (const auto& f : s.faults) invalid += f.valid ? 0 : 1;
  EXPECT_GT(invalid, 25);
  EXPECT_LT(invalid, 80);
  o.invalidDen = 0;
  for (const auto& f : generateSchedule(Random(9), o).faults) EXPECT_TRUE(f.valid);
}

TEST(Schedules, KindLists) {
  auto k = parseFaultKinds("pod-kill,network-partition");
  ASSERT_TRUE(k.ok());
  EXPECT_EQ(*k, (std::set<FaultKind>{FaultKind::PodKill, FaultKind::NetworkPartition}));
  EXPECT_TRUE(parseFaultKinds("all")->empty());
  auto bad = parseFaultKinds("pod-kill,bogus");
  ASSERT_FALSE(bad.ok());
  EXPECT_NE(bad.error().message.find("bogus"), std::string::npos);
  // The message names every kind there is, so a typo is fixed without the source.
  for (const FaultKind kind : allFaultKinds())
    EXPECT_NE(bad.error().message.find(std::string(faultKindName(kind))), std::string::npos) << faultKindName(kind);
}

TEST(ScheduleRunner, BeginsAndEndsOnTimeAndSkipsMissingTargets) {
  chaostest::ChaosWorld w;
  ASSERT_TRUE(w.ready);
  FaultInjector inj(w.seams(), Random(2));
  FaultSchedule s;
  Fault hang;
  hang.kind = FaultKind::ProcessHang;
  hang.target = "redis-cluster-demo-1";
  hang.at = seconds(5);
  hang.duration = seconds(10);
  Fault missing;
  missing.kind = FaultKind::PodKill;
  missing.target = "no-such-pod";
  missing.at = seconds(1);
  s.faults = {hang, missing};
  ScheduleRunner runner(w.cluster.loop(), inj, s);
  std::vector<std::string> heard;
  runner.setListener([&](const FaultRecord& r) { heard.push_back(std::string(faultKindName(r.fault.kind)) + (r.ended ? " end" : " begin")); });
  const auto t0 = w.cluster.loop().now();
  runner.start();
  EXPECT_EQ(runner.lastEnd(), t0 + seconds(15));
  auto* node = w.redisAt(w.podIp("redis-cluster-demo-1"));
  w.cluster.runFor(seconds(6));
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Hung);
  EXPECT_FALSE(runner.finished());
  w.cluster.runFor(seconds(10));
  EXPECT_EQ(node->state(), redissim::SimProcess::State::Running);
  EXPECT_TRUE(runner.finished());
  ASSERT_EQ(runner.records().size(), 2u);
  EXPECT_FALSE(runner.records()[0].applied);  // pod-kill of a pod that does not exist
  EXPECT_NE(runner.records()[0].detail.find("skipped"), std::string::npos);
  EXPECT_TRUE(runner.records()[1].applied);
  EXPECT_EQ(runner.records()[1].began, t0 + seconds(5));
  EXPECT_EQ(runner.records()[1].ended, t0 + seconds(15));
  EXPECT_EQ(heard, (std::vector<std::string>{"pod-kill begin", "process-hang begin", "process-hang end"}));
}

}  // namespace
}  // namespace kun::chaos
