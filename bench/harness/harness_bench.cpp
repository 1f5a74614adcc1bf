// The harness's speed: whole property runs (a generated 10-minute virtual schedule with up
// to 10 faults, the real operator, every invariant), as kun-sim prop runs them. Counters:
// runs per second and simulated cluster-hours per wall second.
#include <benchmark/benchmark.h>

#include "chaos/faults/fault_schedule.h"
#include "core/runtime/random.h"
#include "scenarios/invariants.h"
#include "scenarios/scenario_runner.h"
#include "scenarios/scenario_write.h"

namespace {

using namespace kun;
using namespace kun::scenario;

Object cluster() {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", "bench"}, {"namespace", "default"}}},
                {"spec", {{"size", 3}, {"sentinel", {{"replicas", 3}}}}}};
}

// One property run as kun-sim prop makes it: a schedule drawn from the seed, the world
// seeded by it, every invariant checked.
RunReport propertyRun(std::uint64_t seed, int maxFaults) {
  chaos::ScheduleOptions so;
  so.maxFaults = maxFaults;
  so.horizon = minutes(10);
  const auto schedule = chaos::generateSchedule(Random(seed), so);
  const Scenario s = scenarioFromSchedule("bench", {cluster()}, schedule, seed, healBound(1000, 3000));
  RunOptions o;
  o.seed = seed;
  return runScenario(s, o).report;
}

// Runs seeds 1, 2, ... (the same five each time), after `warmUp` untimed runs of other seeds.
void propertyRuns(benchmark::State& state, int warmUp) {
  const int maxFaults = static_cast<int>(state.range(0));
  for (int i = 0; i < warmUp; ++i)
    benchmark::DoNotOptimize(propertyRun(1000 + static_cast<std::uint64_t>(i), maxFaults).traceHash);
  std::uint64_t seed = 1;
  double virtualSeconds = 0, events = 0;
  for (auto _ : state) {
    const auto r = propertyRun(seed++, maxFaults);
    virtualSeconds += r.virtualSeconds;
    events += static_cast<double>(r.simEvents);
    benchmark::DoNotOptimize(r.traceHash);
  }
  state.counters["runs_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["cluster_hours_per_s"] = benchmark::Counter(virtualSeconds / 3600.0, benchmark::Counter::kIsRate);
  state.counters["virtual_s_per_run"] = virtualSeconds / static_cast<double>(state.iterations());
  state.counters["events_per_run"] = events / static_cast<double>(state.iterations());
}

// The process's first runs: they also pay for what the first runs of a process do once
// (the allocator's arenas and pools growing, pages first touched, symbols bound).
void BM_PropertyRun(benchmark::State& state) { propertyRuns(state, 0); }
BENCHMARK(BM_PropertyRun)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(5);

// The same five runs after five others (untimed): the rate of a long kun-sim prop, which
// pays the process's start once for hundreds of runs.
void BM_PropertyRunWarm(benchmark::State& state) { propertyRuns(state, 5); }
BENCHMARK(BM_PropertyRunWarm)->Arg(10)->Unit(benchmark::kMillisecond)->Iterations(5);

// One quiet cluster: created, healthy, then watched — the floor every run pays.
void BM_HealthyClusterRun(benchmark::State& state) {
  std::uint64_t seed = 1;
  double virtualSeconds = 0;
  for (auto _ : state) {
    const Scenario s = scenarioFromSchedule("bench", {cluster()}, {}, seed, healBound(1000, 3000));
    RunOptions o;
    o.seed = seed++;
    const auto r = runScenario(s, o);
    virtualSeconds += r.report.virtualSeconds;
  }
  state.counters["cluster_hours_per_s"] = benchmark::Counter(virtualSeconds / 3600.0, benchmark::Counter::kIsRate);
  state.counters["virtual_s_per_run"] = virtualSeconds / static_cast<double>(state.iterations());
}
BENCHMARK(BM_HealthyClusterRun)->Unit(benchmark::kMillisecond)->Iterations(5);

}  // namespace
