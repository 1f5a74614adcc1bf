#pragma once
// Where a cluster's pods go. By default each component (redis, sentinel) spreads across
// nodes and zones: preferred pod anti-affinity against pods with the same selector labels,
// one term per failure domain. Preferred, not required, so a cluster with fewer nodes or
// zones than pods still schedules (stacked pods then share a failure domain, but run).
// With 3 zones and 3+3 pods, losing a zone leaves two sentinels (a majority of three) and
// a replica to promote.
//
// Weights: hostname 100 (KUN's single term) and zone 100. The scheduler subtracts a term's
// weight for each matching pod already in the candidate's domain, so a node in a zone
// without peers (also a node without peers) always scores best, then a peerless node in a
// zone with peers; equal weights make one more peer cost the same in either kind of domain.
// A user's affinity (spec.affinity / spec.sentinel.affinity) replaces this entirely, as in
// KUN.
#include <cstdint>
#include <string_view>

#include "core/api/object.h"
#include "core/rediscluster/labels.h"

namespace kun::rediscluster::placement {

inline constexpr std::string_view kHostnameKey = "kubernetes.io/hostname";
inline constexpr std::string_view kZoneKey = "topology.kubernetes.io/zone";
inline constexpr std::int32_t kHostnameWeight = 100;
inline constexpr std::int32_t kZoneWeight = 100;

// {podAntiAffinity: {preferredDuringSchedulingIgnoredDuringExecution: [hostname, zone]}}.
Object defaultAffinity(const Labels& selector);
// userAffinity when set (not null and not {}), else defaultAffinity(selector).
Object affinityFor(const Object& userAffinity, const Labels& selector);

}  // namespace kun::rediscluster::placement
