#include "core/rediscluster/scope.h"

#include "core/api/redis_cluster_types.h"

namespace kun::rediscluster {

std::string Scope::describe() const { return clusterScoped() ? "cluster-scoped" : "namespace " + ns; }

bool annotatedClusterScoped(const Object& cluster) {
  return meta::annotation(cluster, api::kScopeAnnotation) == api::kScopeClusterScoped;
}

bool manages(const Scope& scope, const Object& cluster) {
  if (scope.clusterScoped()) return annotatedClusterScoped(cluster);
  return meta::namespaceOf(cluster) == scope.ns && !annotatedClusterScoped(cluster);
}

}  // namespace kun::rediscluster
