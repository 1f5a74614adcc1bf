// PodDisruptionBudgets: voluntary disruptions (drains, evictions) may take at most one
// redis pod at a time, and never a sentinel majority. KUN uses minAvailable 2 for both,
// which is the same for its default 3+3 but lets a drain take 3 of 5 sentinels.
#include "core/rediscluster/generate.h"
#include "core/rediscluster/config_files.h"
#include "core/rediscluster/generate_common.h"
#include "core/rediscluster/names.h"

namespace kun::rediscluster {

const Resource& pdbResource(PdbVersion v) {
  return v == PdbVersion::V1 ? res::poddisruptionbudgets : res::poddisruptionbudgetsV1beta1;
}

namespace {
Object pdb(const api::RedisCluster& rc, const GenerateOptions& opts, std::string name, Component c,
           std::int32_t minAvailable) {
  return Object{{"apiVersion", pdbResource(opts.pdbVersion).apiVersion()},
                {"kind", "PodDisruptionBudget"},
                {"metadata", detail::objectMeta(rc, std::move(name), c)},
                {"spec", {{"minAvailable", minAvailable}, {"selector", detail::labelSelector(rc, c)}}}};
}
}  // namespace

Object redisPodDisruptionBudget(const api::RedisCluster& rc, const GenerateOptions& opts) {
  return pdb(rc, opts, names::redis(rc.name()), Component::Redis, rc.spec.size - 1);
}

Object sentinelPodDisruptionBudget(const api::RedisCluster& rc, const GenerateOptions& opts) {
  return pdb(rc, opts, names::sentinel(rc.name()), Component::Sentinel,
             sentinelQuorum(rc.spec.sentinel.replicas));
}

}  // namespace kun::rediscluster
