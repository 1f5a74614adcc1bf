#pragma once
// The RedisCluster's status conditions, one entry per type (Kubernetes convention), in a
// fixed order. A condition appears the first time it is True and then stays, going False
// when it no longer applies, so `kubectl get -o yaml` shows the last time each happened.
// Timestamps follow the convention: lastTransitionTime moves only when status flips,
// lastUpdateTime whenever status, reason or message change — and nothing moves when the
// condition is set to what it already is, so a steady cluster's status never changes.
#include <optional>
#include <string>
#include <string_view>

#include "core/api/redis_cluster_types.h"

namespace kun::rediscluster {

namespace conditions {
inline constexpr std::string_view kCreating = "Creating";
inline constexpr std::string_view kHealthy = "Healthy";
inline constexpr std::string_view kUpdating = "Updating";
inline constexpr std::string_view kScaling = "Scaling";
inline constexpr std::string_view kRecovering = "Recovering";
inline constexpr std::string_view kFailed = "Failed";
}  // namespace conditions

// What the cluster is going through; exactly one of these is True at a time (Failed is
// separate: an invalid spec or a failing reconcile says so without hiding the phase).
enum class ClusterPhase { Creating, Healthy, Updating, Scaling, Recovering };
std::string_view conditionTypeOf(ClusterPhase p);

// Sets type to True/False with reason and message at `now` (RFC 3339). Returns whether
// anything changed. A False condition that does not exist yet is not added.
bool setCondition(api::RedisClusterStatus& s, std::string_view type, bool isTrue, std::string_view reason,
                  std::string_view message, const std::string& now);
// Sets an existing condition to False, keeping its reason and message; false if absent or
// already False.
bool clearCondition(api::RedisClusterStatus& s, std::string_view type, const std::string& now);

bool conditionTrue(const api::RedisClusterStatus& s, std::string_view type);
// Whether the cluster has been Healthy at least once (the condition exists).
bool everHealthy(const api::RedisClusterStatus& s);

}  // namespace kun::rediscluster
