#pragma once
// The labels on a RedisCluster's objects. KUN (pkg/controller/service/client.go
// generateSelectorLabels, pkg/controller/rediscluster/handler.go getLabels) puts on every
// object: app.kubernetes.io/managed-by=redis-operator, redis.kun/v1beta1=<ns>_<name>, the
// cluster's own metadata.labels, and the selector labels app.kubernetes.io/{part-of=
// redis-cluster, component=redis|sentinel, name=<name>}.
//
// Differences from KUN, each to keep a change of the cluster's labels from breaking it:
// - selectors (StatefulSets, Services, PDBs, anti-affinity) use the three selector labels
//   only; KUN used every label, so editing the cluster's labels changed a StatefulSet's
//   immutable selector;
// - pod templates carry the selector labels plus managed-by and redis.kun/v1beta1, but not
//   the cluster's own labels, so relabelling the cluster does not change the template and
//   restart every pod;
// - the operator's labels win over a cluster label with the same key.
#include <map>
#include <string>
#include <string_view>

#include "core/api/redis_cluster_types.h"

namespace kun::rediscluster {

using Labels = std::map<std::string, std::string>;

namespace labels {
inline constexpr std::string_view kPartOf = "app.kubernetes.io/part-of";
inline constexpr std::string_view kComponent = "app.kubernetes.io/component";
inline constexpr std::string_view kName = "app.kubernetes.io/name";
inline constexpr std::string_view kManagedBy = "app.kubernetes.io/managed-by";
// KUN's per-cluster label: key redis.kun/v1beta1, value <namespace>_<name>.
inline constexpr std::string_view kInstance = "redis.kun/v1beta1";

inline constexpr std::string_view kPartOfValue = "redis-cluster";
inline constexpr std::string_view kManagedByValue = "redis-operator";
inline constexpr std::string_view kRedisComponent = "redis";
inline constexpr std::string_view kSentinelComponent = "sentinel";
}  // namespace labels

enum class Component { Redis, Sentinel };
std::string_view componentName(Component c);  // "redis" / "sentinel"

// part-of, component, name: what selects a cluster's redis or sentinel pods. Unique per
// (namespace, cluster, component), so two clusters in a namespace never select each
// other's pods.
Labels selectorLabels(std::string_view cluster, Component c);
// The same as a selector string ("app.kubernetes.io/component=redis,...") for list calls.
std::string selectorString(std::string_view cluster, Component c);

// "<namespace>_<name>". A label value has at most 63 characters and a namespace alone may
// have 63, so a longer value keeps its first 46 characters and appends "-" and 16 hex
// digits of its hash (still unique, still a valid label value).
std::string instanceLabelValue(std::string_view ns, std::string_view name);

// Pod-template labels: selector labels + managed-by + redis.kun/v1beta1.
Labels podLabels(const api::RedisCluster& rc, Component c);
// Object labels: the cluster's metadata.labels, then podLabels over them.
Labels objectLabels(const api::RedisCluster& rc, Component c);

}  // namespace kun::rediscluster
