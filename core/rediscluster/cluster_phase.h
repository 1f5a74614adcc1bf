#pragma once
// Which phase condition a reconcile reports, from what it saw and did. The heal's own
// phase wins (it knows it is promoting, scaling or rolling); otherwise:
//   healthy and nothing written      -> Healthy
//   never Healthy before             -> Creating
//   StatefulSet replicas != the spec -> Scaling
//   spec changed or objects updated  -> Updating
//   Scaling or Updating already True -> the same (until Healthy)
//   else                             -> Recovering
#include <cstdint>
#include <string>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/conditions.h"
#include "core/rediscluster/heal.h"
#include "core/rediscluster/health.h"

namespace kun::rediscluster {

struct PhaseInput {
  const api::RedisCluster& cluster;  // defaulted, with the stored status
  const Health& health;
  const HealReport& heal;
  std::int32_t objectsUpdated = 0;   // by Ensure
  std::int32_t objectsCreated = 0;
  // spec.replicas of the live StatefulSets (-1 when not cached).
  std::int32_t redisReplicas = -1;
  std::int32_t sentinelReplicas = -1;
};

struct PhaseDecision {
  ClusterPhase phase = ClusterPhase::Creating;
  std::string reason;   // CamelCase, as Kubernetes reasons are
  std::string message;  // no secrets (built from health reasons and counts)
};

PhaseDecision decidePhase(const PhaseInput& in);

// The first `max` reasons joined with "; ", then "(+N more)".
std::string summarize(const std::vector<std::string>& reasons, std::size_t max = 3);

}  // namespace kun::rediscluster
