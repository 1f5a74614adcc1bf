#pragma once
// The desired Kubernetes objects of a RedisCluster: what Ensure creates and keeps as
// generated. Pure functions of the cluster (its name, namespace, uid, labels and spec) and
// the options: the same cluster always yields byte-identical objects, so the hash stamped
// on each (desired_hash.h) tells whether the live object is still what would be written.
//
// The objects, in the order they are ensured (what pods mount exists before the pods):
//   Secret      redis-auth-<name>               password + auth.conf (the only place the
//                                               password appears)
//   ConfigMap   redis-cluster-<name>            redis.conf, readiness.sh, liveness.sh
//   ConfigMap   redis-sentinel-<name>           sentinel.conf
//   ConfigMap   redis-sentinel-readiness-<name> readiness.sh (sentinel)
//   ConfigMap   redisr-s-<name>                 shutdown.sh (only without spec.shutdownConfigMap)
//   Service     redis-cluster-<name>            headless, 6379 (+9121 with the exporter)
//   Service     redis-sentinel-<name>           ClusterIP, 26379
//   Service     redis-sentinel-headless-<name>  headless, 26379 (the sentinel StatefulSet's)
//   PDB         redis-cluster-<name>, redis-sentinel-<name>
//   StatefulSet redis-cluster-<name>, redis-sentinel-<name>
// Every object: ownerReference (controller) to the cluster, labels from labels.h.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/api/redis_cluster_types.h"
#include "core/kube/resource.h"

namespace kun::rediscluster {

// policy/v1 where the API server serves it (Kubernetes >= 1.21), policy/v1beta1 before.
enum class PdbVersion { V1, V1beta1 };
const Resource& pdbResource(PdbVersion v);

struct GenerateOptions {
  PdbVersion pdbVersion = PdbVersion::V1;
  // Holds the redis StatefulSet at this many replicas instead of spec.size: a scale-down
  // waits here until the master is off the pods that would go.
  std::optional<std::int32_t> redisReplicas;
  // Non-empty while a password change is being applied: the password the nodes had
  // before, kept in the auth Secret (layout::kPreviousPasswordKey) so that an operator
  // restarted in the middle still reaches the nodes not yet changed. Never in any other
  // object, Event or log.
  std::string previousPassword;
};

struct DesiredObject {
  Resource resource;
  Object object;     // with the desired-hash annotation set
  std::string hash;  // that annotation's value
  std::string name() const { return meta::name(object); }
};

// The resources desiredObjects returns, in ensure order, without duplicates: what the
// Ensurer needs an informer for.
std::vector<Resource> ownedResources(const GenerateOptions& opts = {});

// rc as stored (validated: the generator assumes validateRedisCluster found nothing);
// defaults are applied here (api::withDefaults is idempotent, so an already defaulted
// cluster gives the same objects).
std::vector<DesiredObject> desiredObjects(const api::RedisCluster& rc, const GenerateOptions& opts = {});

// The objects one by one, without the hash annotation; rc must already be defaulted.
Object authSecret(const api::RedisCluster& rc, const GenerateOptions& opts = {});
Object redisConfigMap(const api::RedisCluster& rc);
Object sentinelConfigMap(const api::RedisCluster& rc);
Object sentinelReadinessConfigMap(const api::RedisCluster& rc);
Object shutdownConfigMap(const api::RedisCluster& rc);  // the generated one (names::shutdown)
Object redisService(const api::RedisCluster& rc);
Object sentinelService(const api::RedisCluster& rc);
Object sentinelHeadlessService(const api::RedisCluster& rc);
Object redisPodDisruptionBudget(const api::RedisCluster& rc, const GenerateOptions& opts = {});
Object sentinelPodDisruptionBudget(const api::RedisCluster& rc, const GenerateOptions& opts = {});
Object redisStatefulSet(const api::RedisCluster& rc, const GenerateOptions& opts = {});
Object sentinelStatefulSet(const api::RedisCluster& rc);

}  // namespace kun::rediscluster
