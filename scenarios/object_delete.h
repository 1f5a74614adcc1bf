#pragma once
// The delete step: an object of the scenario's world removed through the API server, by
// kind and name, as `kubectl delete` would (background propagation unless the step says
// otherwise). Deleting a RedisCluster hands back what the no-orphans check needs later:
// which cluster went and whether its spec kept the PVCs (storage.keepAfterDeletion).
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/resource.h"
#include "core/runtime/result.h"
#include "scenarios/scenario.h"

namespace kun::scenario {

class ScenarioWorld;

// The resource a delete step may name by its kind: the built-in kinds and RedisCluster;
// nullptr for any other.
const Resource* resourceOfKind(std::string_view kind);
// "ConfigMap, PersistentVolumeClaim, ..." for messages.
std::string deletableKinds();
std::optional<DeletePropagation> deletePropagationFromName(std::string_view name);

struct DeletedCluster {
  std::string ns, name;
  bool keepPvcs = false;  // spec.storage.keepAfterDeletion when it was deleted
};

struct DeleteOutcome {
  std::string detail;                    // "RedisCluster default/demo deleted (background)"
  std::optional<DeletedCluster> cluster; // when the object was a RedisCluster
};

// Deletes the step's object; a missing name means the first manifest's cluster
// (defaultNs/defaultCluster). NotFound when there is no such object: a scenario that
// deletes what is not there is wrong.
Result<DeleteOutcome> deleteObject(ScenarioWorld& w, const Step& st, const std::string& defaultNs,
                                   const std::string& defaultCluster);

}  // namespace kun::scenario
