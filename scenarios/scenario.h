#pragma once
// A scenario, as read from a YAML file (scenario_parse.h): the RedisCluster manifests to
// apply first, an optional fault schedule that plays alongside, and the steps a runner
// executes in order. The runner applies the manifests and waits until the cluster is
// first healthy; then the steps run and the schedule's clock starts. Plain data: every step remembers its line for error messages and
// reports.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"
#include "core/api/object.h"
#include "core/runtime/time.h"

namespace kun::scenario {

enum class StepKind { Apply, Patch, Fault, Write, Read, WaitFor, Assert, Sleep, Delete };
// "apply", "patch", "fault", "write", "read", "waitFor", "assert", "sleep", "delete"
std::string_view stepKindName(StepKind k);

// How a delete step asks the API server to treat the object's dependents (Kubernetes'
// propagationPolicy): background is kubectl's default; orphan leaves them behind.
enum class DeletePropagation { Background, Foreground, Orphan };
std::string_view deletePropagationName(DeletePropagation p);  // "background", ...

struct Step {
  StepKind kind = StepKind::Sleep;
  int line = 0;  // 1-based line of the step in its file; 0 for a step built in code

  Object manifest;              // apply: a whole object
  std::string cluster;          // patch: the RedisCluster's name ("": the first manifest's)
  Object patch;                 // patch: a JSON merge patch
  chaos::Fault fault;           // fault: begins when the step runs (its `at` is 0)
  int keys = 0;                 // write / read: <prefix>-0 .. <prefix>-(n-1)
  std::string prefix = "key";
  std::string condition;        // waitFor / assert: a name from scenario_conditions.h
  Duration timeout{0};          // waitFor
  Duration duration{0};         // sleep; write: the pause between two writes (`every`)
  // delete: the object's kind ("RedisCluster", "StatefulSet", ...), namespace and name;
  // a RedisCluster and its namespace default to the first manifest's.
  std::string objectKind = "RedisCluster";
  std::string objectNamespace;
  std::string objectName;
  DeletePropagation propagation = DeletePropagation::Background;
  bool operator==(const Step&) const = default;
};

// The simulated world a scenario asks for.
struct WorldSpec {
  int nodes = 3;
  int zones = 3;
  bool operator==(const WorldSpec&) const = default;
};

struct Scenario {
  std::string file;  // where it was read from ("" when built in code)
  std::string name;
  std::string description;
  std::optional<std::uint64_t> seed;  // the default seed; --seed overrides
  WorldSpec world;
  std::vector<Object> manifests;
  chaos::FaultSchedule schedule;  // times from the start of the steps
  std::vector<Step> steps;
  bool operator==(const Scenario&) const = default;
};

}  // namespace kun::scenario
