#pragma once
// A fault is a value: what goes wrong (kind, named as Chaos Mesh names it where it has a
// name), to whom (target), with which parameters, from `at` for `duration` (zero for an
// instantaneous fault such as pod-kill). Times are offsets from the start of a run, so a
// schedule can be written down, shrunk and replayed.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun::chaos {

enum class FaultKind {
  PodKill,           // delete a pod
  PodFailure,        // the pod's process is gone for D (the pod stays, as with Chaos Mesh's pause image)
  ContainerKill,     // the container's process exits; the kubelet restarts it per restartPolicy
  ProcessHang,       // SIGSTOP for D, then SIGCONT
  StatefulSetDelete,
  ServiceDelete,
  ConfigMapDelete,
  NodeFailure,       // for D
  ZoneFailure,       // every node of a zone, for D
  NetworkPartition,  // mode: master-sentinels, split-sentinels, operator-redis, one-way
  NetworkDelay,
  NetworkLoss,
  SwizzleClog,       // cut links one by one, then heal them in random order
  ApiErrors,         // 500 / 429 (Retry-After) / 409 at a rate, for D
  ApiLatency,        // watch deliveries late by `latency`, for D
  WatchDrop,         // every running watch is closed now
  WatchGone,         // the next `count` watch calls fail with Gone
  OperatorRestart,   // the operator's process dies (memory lost) and starts again
  ParamChange,       // a change of the RedisCluster's spec, valid or not
};

// Partition modes of NetworkPartition.
enum class PartitionMode { MasterSentinels, SplitSentinels, OperatorRedis, OneWay };

// What a ParamChange changes.
enum class Param { Config, Size, Password, Persistence, Image, Resources, SentinelConfig };

struct Fault {
  FaultKind kind = FaultKind::PodKill;
  Duration at{0};
  Duration duration{0};
  // Who: "master", "replica", "sentinel", "redis" (any redis pod), "any" (any pod), or a
  // pod name; for node-failure a node name or "master-node" / "any"; for zone-failure a
  // zone name or "master-zone" / "any"; for the object deletions "redis" / "sentinel" or
  // an object name. Empty: the kind's default (defaultTarget).
  std::string target;
  // NetworkPartition.
  PartitionMode mode = PartitionMode::MasterSentinels;
  std::string from, to;  // OneWay: two targets as above (to may be "sentinels")
  // NetworkDelay / ApiLatency.
  Duration latency{0};
  // NetworkLoss / ApiErrors: num of every den.
  std::uint64_t rateNum = 1, rateDen = 1;
  // ApiErrors: 500, 429 or 409; RetryAfter with 429.
  int code = 500;
  int retryAfterSeconds = 0;
  // WatchGone; SwizzleClog: links to cut.
  int count = 1;
  // ParamChange.
  Param param = Param::Config;
  Object value;        // the new value (config: an object of parameter -> value)
  bool valid = true;   // whether the change is meant to be accepted

  TimePoint start() const { return TimePoint{} + at; }
  TimePoint end() const { return TimePoint{} + at + duration; }
  bool operator==(const Fault&) const = default;
};

// Stable names, used in YAML, reports and --faults lists.
std::string_view faultKindName(FaultKind k);  // "pod-kill", ...
std::optional<FaultKind> faultKindFromName(std::string_view name);
const std::vector<FaultKind>& allFaultKinds();
// Every kind's name, comma-separated, for error messages that say what is expected.
std::string faultKindList();
std::string_view partitionModeName(PartitionMode m);  // "master-sentinels", ...
std::optional<PartitionMode> partitionModeFromName(std::string_view name);
std::string_view paramName(Param p);  // "config", "size", ..., "sentinel-config"
std::optional<Param> paramFromName(std::string_view name);
const std::vector<Param>& allParams();

// Whether the kind lasts (has a duration) or happens at an instant.
bool hasDuration(FaultKind k);
// Faults that act through the runner (OperatorControl) rather than a seam.
bool needsOperator(FaultKind k);
std::string_view defaultTarget(FaultKind k);

// Invalid (field = the offending parameter) when the parameters do not make sense for the
// kind: a lasting fault without a duration, a rate outside (0, 1], an unknown code, ...
Status validateFault(const Fault& f);

// One line for logs and reports: "pod-kill master at 30s", "api-errors 429 1/10 for 20s".
std::string describeFault(const Fault& f);

}  // namespace kun::chaos
