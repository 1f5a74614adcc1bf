#pragma once
// THE definition of a healthy RedisCluster, used by the reconciler (condition Healthy)
// and by the harness (scenarios wait for it and check it as an invariant), so the two can
// never disagree about what "healed" means.
//
// Healthy when all of:
// - spec.size redis pods are observed, each running, Ready, reachable with the current
//   password (index 0) and none terminating;
// - exactly one of them is master; every other one is a replica of the master's pod IP on
//   6379 with its link up and no sync in progress (none on the 127.0.0.1 placeholder);
// - spec.sentinel.replicas sentinel pods are observed, each reachable;
// - every sentinel monitors layout::kMasterName at the master's IP:6379, sees no failover
//   in progress, knows exactly size-1 replicas and sentinels-1 other sentinels (num-slaves,
//   num-other-sentinels), and each replica / sentinel it knows is a current pod IP of this
//   cluster (no stale entry for a gone or reused address) and not down;
// - when the view carries the StatefulSets' rollout (ClusterView::rollout): each
//   StatefulSet has observed its current template and every pod runs its update revision
//   (a change of image, resources, command... is not healthy until every pod has it).
// Every failed check is one reason, in a fixed order, so the reasons of a view are stable.
#include <string>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/observe.h"

namespace kun::rediscluster {

struct Health {
  bool healthy = false;
  // Short, human-readable and free of secrets: "redis-cluster-a-2: replica of 10.0.0.9,
  // master is 10.0.0.4", "no master", "2 masters: 10.0.0.4, 10.0.0.7", ...
  std::vector<std::string> reasons;
  // The one master's pod IP when there is exactly one master ("" otherwise), healthy or not.
  std::string masterIP;
};

// rc must be defaulted (api::withDefaults), as the reconciler holds it.
Health assessHealth(const api::RedisCluster& rc, const ClusterView& view);

}  // namespace kun::rediscluster
