#include "core/rediscluster/generate.h"

#include "core/api/redis_cluster_defaults.h"
#include "core/rediscluster/desired_hash.h"

namespace kun::rediscluster {

namespace {
void add(std::vector<DesiredObject>& out, const Resource& r, Object obj) {
  std::string h = stampDesiredHash(obj);
  out.push_back(DesiredObject{r, std::move(obj), std::move(h)});
}
}  // namespace

std::vector<Resource> ownedResources(const GenerateOptions& opts) {
  return {res::secrets, res::configmaps, res::services, pdbResource(opts.pdbVersion), res::statefulsets};
}

std::vector<DesiredObject> desiredObjects(const api::RedisCluster& stored, const GenerateOptions& opts) {
  const api::RedisCluster rc = api::withDefaults(stored);
  std::vector<DesiredObject> out;
  out.reserve(12);
  add(out, res::secrets, authSecret(rc, opts));
  add(out, res::configmaps, redisConfigMap(rc));
  add(out, res::configmaps, sentinelConfigMap(rc));
  add(out, res::configmaps, sentinelReadinessConfigMap(rc));
  if (rc.spec.shutdownConfigMap.empty()) add(out, res::configmaps, shutdownConfigMap(rc));
  add(out, res::services, redisService(rc));
  add(out, res::services, sentinelService(rc));
  add(out, res::services, sentinelHeadlessService(rc));
  add(out, pdbResource(opts.pdbVersion), redisPodDisruptionBudget(rc, opts));
  add(out, pdbResource(opts.pdbVersion), sentinelPodDisruptionBudget(rc, opts));
  add(out, res::statefulsets, redisStatefulSet(rc, opts));
  add(out, res::statefulsets, sentinelStatefulSet(rc));
  return out;
}

}  // namespace kun::rediscluster
