// What kun-sim prop draws: at every RapidCheck size, schedules of 1..maxFaults faults of
// every kind, starting anywhere in the horizon, with varied parameters.
#include <gtest/gtest.h>

#include <rapidcheck/Random.h>

#include <algorithm>
#include <map>
#include <set>

#include "core/rediscluster/sentinel_timings.h"
#include "scenarios/cluster_manifest.h"
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

// --vary-cluster: every drawn cluster is one the operator accepts, and all the variations
// come up, at every RapidCheck size.
TEST(PropGenerators, ClustersTheOperatorAcceptsInEveryVariation) {
  rc::Random random(7);
  std::set<int> sizes, sentinels, downAfters, failoverTimeouts;
  int noPersistence = 0, password = 0;
  for (int i = 0; i < 300; ++i) {
    const Object c = genCluster()(random.split(), i % 101).value();
    const auto accepted = parseClusterManifest(c.dump(), "drawn.yaml");  // JSON is YAML
    ASSERT_TRUE(accepted.ok()) << accepted.error().message << "\n" << c.dump();
    const Object& spec = c["spec"];
    sizes.insert(spec["size"].get<int>());
    sentinels.insert(spec["sentinel"]["replicas"].get<int>());
    noPersistence += spec.value("disablePersistence", false) ? 1 : 0;
    password += spec.contains("password") ? 1 : 0;
    const auto t = rediscluster::effectiveSentinelTimings(
        spec["sentinel"].value("customConfig", std::vector<std::string>{}), {0, 0});
    downAfters.insert(static_cast<int>(t.downAfterMs));
    failoverTimeouts.insert(static_cast<int>(t.failoverTimeoutMs));
  }
  EXPECT_EQ(sizes, (std::set<int>{3, 4, 5}));
  EXPECT_EQ(sentinels, (std::set<int>{3, 5}));
  EXPECT_GT(noPersistence, 50);
  EXPECT_LT(noPersistence, 250);
  EXPECT_GT(password, 50);
  EXPECT_LT(password, 250);
  EXPECT_EQ(downAfters.size(), 10u);  // none (0), 1..9 s
  EXPECT_EQ(failoverTimeouts, (std::set<int>{0, 5000, 10000, 15000}));
}

}  // namespace
}  // namespace kun::scenario
