#pragma once
// Reads a scenario file. The format (see scenarios/README.md and the *.yaml next to this):
//
//   name: kill-master                 # required
//   description: ...                  # optional
//   seed: 7                           # optional default seed
//   world: {nodes: 3, zones: 3}       # optional
//   manifests: [ <RedisCluster>, ... ]   # required, at least one
//   schedule:                         # optional faults in time, from the first step
//     - {kind: pod-kill, at: 30s, target: master}
//   steps:                            # required; each a mapping with exactly one key
//     - apply: <manifest>
//     - patch: {cluster: NAME, patch: {spec: {...}}}    # cluster defaults to the first
//     - fault: {kind: ..., ...}                         # begins when the step runs
//     - write: {keys: 100, prefix: a, every: 100ms}     # through the Sentinel-discovered master
//                                                       # (every: pause between writes, optional)
//     - read:  {keys: 100, prefix: a}
//     - waitFor: {condition: healthy, timeout: 2m}
//     - assert: {condition: healthy}   (or assert: healthy)
//     - sleep: 30s
//     - delete: {kind: ConfigMap, name: x, namespace: default, propagation: orphan}
//                                      # every field optional for the first RedisCluster:
//                                      # delete: {} (propagation: background by default)
//
// Errors are Reason::Invalid with the message "FILE:LINE: FIELD: expected WHAT, got X"
// and field = the path ("steps[3].fault.kind"); a runner exits 2 on them.
#include <string>
#include <string_view>

#include "scenarios/scenario.h"

namespace kun::scenario {

Result<Scenario> parseScenario(std::string_view text, const std::string& fileName);
Result<Scenario> readScenarioFile(const std::string& path);

}  // namespace kun::scenario
