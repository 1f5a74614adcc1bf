#pragma once
// The defaults the KUN operator applies before it reconciles, so a manifest written for it
// gets the same cluster here. Applied to a copy: what the user set is never changed, and the
// stored object is not rewritten. Validate the user's spec first (validation rejects the
// config keys the defaults own, e.g. slave-priority).
#include <cstdint>
#include <string_view>

#include "core/api/redis_cluster_types.h"

namespace kun::api {

namespace defaults {
inline constexpr std::int32_t kSize = 3;
inline constexpr std::int32_t kSentinelReplicas = 3;
// KUN uses one image for redis and sentinel.
inline constexpr std::string_view kRedisImage = "redis:5.0.4-alpine";
inline constexpr std::string_view kSentinelImage = "redis:5.0.4-alpine";
// KUN has no exporter default (an enabled exporter without an image yields an invalid pod);
// this is the upstream redis_exporter image.
inline constexpr std::string_view kExporterImage = "oliver006/redis_exporter:v1.50.0";
// KUN's sentinel container resources when spec.sentinel.resources is empty.
inline constexpr std::string_view kSentinelRequestCpu = "20m";
inline constexpr std::string_view kSentinelRequestMemory = "16Mi";
inline constexpr std::string_view kSentinelLimitCpu = "100m";
inline constexpr std::string_view kSentinelLimitMemory = "60Mi";
// Every node may be promoted (KUN issue #6: a node left with priority 0 can never be).
inline constexpr std::string_view kSlavePriority = "1";
// The volume name KUN gives the data volume; also the PVC template name when unset.
inline constexpr std::string_view kDataVolumeName = "redis-data";
}  // namespace defaults

// Zero-valued fields filled in:
// - size 3, sentinel.replicas 3, image and sentinel.image redis:5.0.4-alpine,
//   sentinel.resources KUN's 20m/16Mi requests and 100m/60Mi limits,
//   exporter.image when the exporter is enabled,
//   storage.persistentVolumeClaim.metadata.name "redis-data" when a claim has no name;
// - config "slave-priority" "1";
// - persistence (config keys only when absent):
//   disablePersistence false: appendonly yes, auto-aof-rewrite-min-size 536870912,
//     auto-aof-rewrite-percentage 100, repl-backlog-size 62914560, repl-diskless-sync yes,
//     aof-load-truncated yes, stop-writes-on-bgsave-error no, save "900 1 300 10";
//   disablePersistence true: appendonly no, save "" (validation rejects other values).
RedisClusterSpec withDefaults(const RedisClusterSpec& spec);
RedisCluster withDefaults(const RedisCluster& rc);

}  // namespace kun::api
