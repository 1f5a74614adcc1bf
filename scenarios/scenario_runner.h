#pragma once
// Runs a scenario in the simulator and judges it. The run: build the world from the seed,
// apply the manifests, wait until every cluster is first healthy; then the steps run in
// order while the schedule plays alongside (safety phase: the safety invariants are
// sampled throughout); once the steps are done and every fault has ended, the liveness
// phase: the cluster must be healthy within the bound, the liveness invariants must hold,
// the operator must stay quiet, and every acknowledged write is read back.
#include <cstdint>
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "core/rediscluster/heal.h"
#include "core/runtime/trace.h"
#include "scenarios/run_report.h"
#include "scenarios/scenario.h"
#include "scenarios/timeline.h"
#include "scenarios/view_cache_check.h"

namespace kun::scenario {

struct RunOptions {
  std::optional<std::uint64_t> seed;  // else the scenario's, else 1
  rediscluster::HealOptions heal;     // the operator's (the ForTest switches break it)
  bool timeline = false;
  // Keep the whole trace (every simulated component's log line) in RunResult::trace.
  bool trace = false;
  // One line per step and phase, for the terminal; none when empty.
  std::function<void(const std::string&)> progress;
  Duration samplePeriod = milliseconds(500);
  Duration firstHealthTimeout = minutes(5);
  Duration quietWindow = seconds(60);
  Duration writeTimeout = seconds(60);
  // The command that reproduces a run, without --seed: "kun-sim run FILE".
  std::string command;
  // Tests of the harness itself: observe afresh every time and report where the view kept
  // between changes (ScenarioWorld::observe) would have judged otherwise.
  bool verifyViewCache = false;
  // A run in which this many events run in a row at one virtual instant has stalled (a
  // livelock: virtual time would never move again). It ends there, failed, rather than
  // hang the caller. Ordinary runs peak at a few thousand (the cluster's creation).
  std::uint64_t stallEvents = 1'000'000;
};

struct RunResult {
  RunReport report;
  std::optional<Timeline> timeline;
  std::vector<Trace::Entry> trace;  // with RunOptions::trace, oldest first
  ViewCacheCheck viewCache;  // with verifyViewCache
};

RunResult runScenario(const Scenario& s, const RunOptions& opts);

}  // namespace kun::scenario
