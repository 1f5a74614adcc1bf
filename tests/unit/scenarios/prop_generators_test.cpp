// What kun-sim prop draws: at every RapidCheck size, schedules of 1..maxFaults faults of
// every kind, starting anywhere in the horizon, with varied parameters.
#include <gtest/gtest.h>

#include <rapidcheck/Random.h>

#include <algorithm>
#include <map>
#include <set>

#include "scenarios/prop_generators.h"

namespace kun::scenario {
namespace {

struct Drawn {
  std::map<chaos::FaultKind, int> kinds;
  std::set<std::size_t> counts;
  Duration earliest = hours(1), latest{0};
  std::set<std::int64_t> durations;
};

Drawn draw(const std::vector<chaos::FaultKind>& kinds, const chaos::ScheduleOptions& so, int sizes) {
  Drawn d;
  rc::Random random(2026);
  for (int i = 0; i < 400; ++i) {
    const auto faults = genScheduleFaults(kinds, so)(random.split(), i % (sizes + 1)).value();
    d.counts.insert(faults.size());
    for (const auto& f : faults) {
      ++d.kinds[f.kind];
      d.earliest = std::min(d.earliest, f.at);
      d.latest = std::max(d.latest, f.at);
      d.durations.insert(toMillis(f.duration));
    }
  }
  return d;
}

TEST(PropGenerators, EveryKindAnywhereInTheHorizonAtEverySize) {
  chaos::ScheduleOptions so;
  so.horizon = minutes(10);
  so.maxFaults = 10;
  for (int sizes : {0, 10, 100}) {  // RapidCheck's size runs 0..100 over a run
    SCOPED_TRACE(sizes);
    const Drawn d = draw(chaos::allFaultKinds(), so, sizes);
    EXPECT_EQ(d.kinds.size(), chaos::allFaultKinds().size());
    EXPECT_EQ(*d.counts.begin(), 1u);
    EXPECT_EQ(*d.counts.rbegin(), 10u);
    EXPECT_LT(d.earliest, minutes(1));
    EXPECT_GT(d.latest, minutes(9));
    EXPECT_GT(d.durations.size(), 50u);  // parameters vary, not a handful of seeds
  }
}

TEST(PropGenerators, OnlyTheKindsAsked) {
  chaos::ScheduleOptions so;
  so.horizon = seconds(40);
  so.maxFaults = 2;
  const std::vector<chaos::FaultKind> kinds = {chaos::FaultKind::ProcessHang, chaos::FaultKind::ApiErrors};
  const Drawn d = draw(kinds, so, 100);
  EXPECT_EQ(d.kinds.size(), 2u);
  EXPECT_TRUE(d.kinds.count(chaos::FaultKind::ProcessHang) && d.kinds.count(chaos::FaultKind::ApiErrors));
  EXPECT_EQ(*d.counts.rbegin(), 2u);
  EXPECT_LT(d.latest, seconds(40));
}

}  // namespace
}  // namespace kun::scenario
