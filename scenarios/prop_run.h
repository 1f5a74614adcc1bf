#pragma once
// `kun-sim prop`: random fault schedules (and spec changes) against the operator, generated
// and shrunk by RapidCheck. Each trial is a scenario (scenarioFromSchedule) run in the
// simulator with a world seed of its own; the first failure is shrunk — fewer faults,
// earlier, simpler — to a minimal failing schedule (within a budget of trials), which is
// written as a scenario file that `kun-sim replay` runs again exactly.
#include <cstdint>
#include <functional>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"
#include "core/api/object.h"
#include "core/rediscluster/heal.h"
#include "scenarios/run_report.h"

namespace kun::scenario {

struct PropOptions {
  int runs = 100;
  std::uint64_t seed = 1;  // RapidCheck's seed: one seed, one sequence of trials
  int maxFaults = 5;
  // The RedisCluster manifest the schedules run against (kun-sim prop --cluster FILE, as
  // readClusterManifestFile gives it); null: size 3 with 3 sentinels, named "prop".
  Object cluster;
  // Draw the cluster too, per schedule (genCluster), when `cluster` is null.
  bool varyCluster = false;
  std::set<chaos::FaultKind> kinds;  // empty: every kind
  Duration horizon = minutes(10);    // faults start within this much of the first health
  // How long a schedule's end may take to heal; zero: the bound eventual-health allows.
  Duration settle{0};
  rediscluster::HealOptions heal;
  // Also draw, per schedule, whether it ends by deleting the cluster (kun-sim prop
  // --delete-cluster), so that garbage collection is searched too (no-orphans).
  bool deleteCluster = false;
  std::vector<std::string> breaks;   // --break names, repeated in the replay command
  std::string outDir = ".";          // where the minimal failing scenario is written
  // Shrinking stops after this many trials; the smallest failure found by then is the
  // answer. Every smaller failure is written at once, so an interrupted shrink leaves one.
  int shrinkBudget = 300;
  std::function<void(const std::string&)> progress;
};

struct PropResult {
  int trials = 0;         // scenario runs, shrinking included
  bool shrinkCut = false; // the shrink budget ran out before RapidCheck was done
  int passedBeforeFailure = 0;
  bool failed = false;
  std::string file;       // the minimal failing scenario
  std::string replay;     // the command that replays it
  RunReport report;       // of the minimal failing run
  std::string error;      // when the property could not be run at all
};

PropResult runProperty(const PropOptions& opts);

// How long a schedule's end may take to heal (the timeout of its waitFor healthy): the
// bound eventual-health allows, by the longest timings the sentinels get during it (the
// cluster's spec.sentinel.customConfig, and any a sentinel-config parameter change gives).
Duration settleBound(const Object& cluster, const chaos::FaultSchedule& schedule, const rediscluster::HealOptions& heal);

}  // namespace kun::scenario
