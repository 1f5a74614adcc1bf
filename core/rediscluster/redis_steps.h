#pragma once
// The Redis side of a reconcile — observe, how many redis pods to keep, heal, assess — as
// one replaceable set of functions. The product uses the real ones (observe.h, heal.h,
// health.h); the reconciler's unit tests script them to drive every status transition
// without a Redis simulator.
#include <cstdint>
#include <functional>
#include <string>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/redis/redis_admin.h"
#include "core/rediscluster/heal.h"
#include "core/rediscluster/health.h"
#include "core/rediscluster/observe.h"

namespace kun::rediscluster {

struct RedisSteps {
  std::function<ClusterView(RedisAdmin&, const ClusterPods&, const std::vector<std::string>& passwords)> observe;
  std::function<std::int32_t(const api::RedisCluster&, const ClusterView&)> replicasToKeep;
  std::function<HealReport(HealContext&)> heal;
  std::function<Health(const api::RedisCluster&, const ClusterView&)> assess;

  // observe(), redisReplicasToKeep(), heal(), assessHealth().
  static RedisSteps real();
};

}  // namespace kun::rediscluster
