#pragma once
// Names of the objects a RedisCluster owns, as KUN (github.com/ucloud/redis-operator,
// pkg/util/name.go) spells them, so a cluster created by KUN is adopted under the same
// names. Every name is "redis" + infix + "-" + the cluster's name.
#include <cstdint>
#include <string>
#include <string_view>

#include "core/api/redis_cluster_types.h"

namespace kun::rediscluster::names {

// redis-cluster-<name>: the redis StatefulSet, its headless Service, the redis ConfigMap
// and the redis PodDisruptionBudget.
std::string redis(std::string_view cluster);
// redis-sentinel-<name>: the sentinel StatefulSet, the sentinel Service, the sentinel
// ConfigMap and the sentinel PodDisruptionBudget.
std::string sentinel(std::string_view cluster);
// redis-sentinel-headless-<name>: the sentinel StatefulSet's governing Service.
std::string sentinelHeadless(std::string_view cluster);
// redis-sentinel-readiness-<name>: the sentinel readiness-probe script.
std::string sentinelReadiness(std::string_view cluster);
// redisr-s-<name>: the generated shutdown-script ConfigMap. The missing dash is KUN's
// (GenerateName("r-s", name)); kept so KUN's objects are the same objects here.
std::string shutdown(std::string_view cluster);
// redis-auth-<name> (not in KUN, which put the password on command lines and in
// ConfigMaps): the Secret holding the password and the redis.conf fragment that sets it.
std::string auth(std::string_view cluster);

// spec.shutdownConfigMap when the user names one (the operator then generates none),
// else shutdown(name).
std::string shutdownConfigMap(const api::RedisCluster& rc);

// Pods of the StatefulSets: redis-cluster-<name>-<ordinal>, redis-sentinel-<name>-<ordinal>.
std::string redisPod(std::string_view cluster, std::int32_t ordinal);
std::string sentinelPod(std::string_view cluster, std::int32_t ordinal);

}  // namespace kun::rediscluster::names
