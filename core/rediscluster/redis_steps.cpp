#include "core/rediscluster/redis_steps.h"

namespace kun::rediscluster {

RedisSteps RedisSteps::real() {
  RedisSteps s;
  s.observe = [](RedisAdmin& admin, const ClusterPods& pods, const std::vector<std::string>& passwords) {
    return ::kun::rediscluster::observe(admin, pods, passwords);
  };
  s.replicasToKeep = [](const api::RedisCluster& rc, const ClusterView& view) { return ::kun::rediscluster::redisReplicasToKeep(rc, view); };
  s.heal = [](HealContext& ctx) { return ::kun::rediscluster::heal(ctx); };
  s.assess = [](const api::RedisCluster& rc, const ClusterView& view) { return ::kun::rediscluster::assessHealth(rc, view); };
  return s;
}

}  // namespace kun::rediscluster
