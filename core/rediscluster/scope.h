#pragma once
// Which RedisClusters one operator manages, so a namespace-scoped and a cluster-scoped
// operator can run at once and never touch the same cluster:
// - namespace-scoped (`--namespace NS`): clusters in NS WITHOUT the annotation
//   `redis.kun/scope: cluster-scoped`;
// - cluster-scoped (no --namespace): clusters in every namespace WITH that annotation.
// The two sets are disjoint for any cluster, whatever the annotation says.
#include <string>
#include <string_view>

#include "core/api/object.h"

namespace kun::rediscluster {

struct Scope {
  std::string ns;  // "" = cluster-scoped

  static Scope namespaced(std::string ns) { return Scope{std::move(ns)}; }
  static Scope clusterWide() { return Scope{}; }
  bool clusterScoped() const { return ns.empty(); }
  // The namespace the informers list and watch ("" = all).
  const std::string& watchNamespace() const { return ns; }
  // "namespace default" / "cluster-scoped", for logs and --help.
  std::string describe() const;
};

// True when the cluster carries redis.kun/scope: cluster-scoped (exact value).
bool annotatedClusterScoped(const Object& cluster);
// Whether an operator with this scope manages the RedisCluster object.
bool manages(const Scope& scope, const Object& cluster);

}  // namespace kun::rediscluster
