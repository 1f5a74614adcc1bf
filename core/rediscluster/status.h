#pragma once
// The status a reconcile leaves on a RedisCluster, and writing it only when it differs
// from what is stored — a healthy, unchanged cluster's reconcile writes nothing.
#include <cstdint>
#include <optional>
#include <string>

#include "core/api/redis_cluster_types.h"
#include "core/kube/kube_client.h"
#include "core/rediscluster/conditions.h"
#include "core/runtime/result.h"

namespace kun::rediscluster {

struct StatusReport {
  // The phase condition to make True (the others present go False); unset: leave them.
  std::optional<ClusterPhase> phase;
  std::string reason;
  std::string message;
  // Failed True with this reason/message; otherwise Failed (if present) goes False.
  bool failed = false;
  std::string failedReason;
  std::string failedMessage;
  std::optional<std::string> masterIP;    // unset: keep the stored value
  std::optional<std::string> sentinelIP;
  std::int64_t observedGeneration = 0;

  bool operator==(const StatusReport&) const = default;
};

// current with report applied at `now` (RFC 3339); unknown status fields are kept.
api::RedisClusterStatus nextStatus(const api::RedisClusterStatus& current, const StatusReport& report,
                                   const std::string& now);

// Whether `next` serializes to exactly the status stored on `stored` (its original object).
bool statusUnchanged(const api::RedisCluster& stored, const api::RedisClusterStatus& next);

// Writes next through the status subresource when it differs; Ok(false) when there was
// nothing to write. Conflict (the cached cluster is stale) is returned for a requeue.
Result<bool> writeStatusIfChanged(KubeClient& client, const api::RedisCluster& stored,
                                  const api::RedisClusterStatus& next);

}  // namespace kun::rediscluster
