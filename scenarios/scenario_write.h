#pragma once
// Writes a scenario as YAML that parseScenario reads back equal (line numbers aside), so
// a schedule found by `kun-sim prop` and shrunk becomes a file a person can read and
// `kun-sim replay` can run.
#include <cstdint>
#include <string>
#include <vector>

#include "scenarios/scenario.h"

namespace kun::scenario {

std::string writeScenario(const Scenario& s);

// The scenario of a generated run: the manifests, the schedule (which starts once the
// cluster is first healthy, as every scenario's steps do), and steps that write 50 keys
// while the first faults play, wait for the schedule to end and then for health within
// settleTimeout, write 50 more and read both sets back; with deleteAtEnd, then delete the
// (first) cluster, so the run ends judged by no-orphans.
Scenario scenarioFromSchedule(std::string name, std::vector<Object> manifests, chaos::FaultSchedule schedule,
                              std::uint64_t seed, Duration settleTimeout, bool deleteAtEnd = false);

}  // namespace kun::scenario
