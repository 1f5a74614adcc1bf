#pragma once
// What the reconciler remembers of one cluster's last pass, so that a steady-state pass
// skips the work that depends only on inputs it has already seen: the stored cluster
// parsed, validated and defaulted; its pods as PodInfo; that Ensure found every owned
// object up to date (EnsureMemo, ensure.h); that the status needed no write.
//
// Every entry is keyed by pointer identity of the informer's objects and holds those
// pointers. An informer makes a new object (a new pointer) for every change it sees and on
// every re-list, and a pointer held here cannot be freed and reused for another object, so
// a changed cluster, pod or owned object never matches and is worked out afresh on the
// pass that follows the change. What Redis answers is never remembered: observe() reads
// every node on every pass.
#include <cstdint>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/kube/informer.h"
#include "core/kube/selector.h"
#include "core/kube/time_text.h"
#include "core/rediscluster/ensure.h"
#include "core/rediscluster/observe.h"
#include "core/rediscluster/passwords.h"
#include "core/rediscluster/status.h"

namespace kun::rediscluster {

struct ClusterMemo {
  // The stored cluster that parsed and validated, with its parse and its defaulted form.
  ObjectPtr stored;
  api::RedisCluster parsed;
  api::RedisCluster defaulted;

  // The pod selectors of the cluster (built once), the pods each list returned last, and
  // their PodInfo in ordinal order.
  LabelSelector redisSelector;
  LabelSelector sentinelSelector;
  std::vector<ObjectPtr> redisPods;
  std::vector<ObjectPtr> sentinelPods;
  // Their PodInfo in the lists' order: a pod object listed again keeps its PodInfo.
  std::vector<PodInfo> redisInfos;
  std::vector<PodInfo> sentinelInfos;
  ClusterPods pods;
  // The pod cache's changes() when they were listed: while it stays, so do the lists.
  std::optional<std::uint64_t> podCacheChanges;

  EnsureMemo ensure;

  // The auth Secret's passwords, decoded from the cached Secret object they hold.
  SecretPasswords authPasswords;

  // status.acceptedSpec (Reconciler::acceptedSpecOf) for the spec original it was made from.
  std::pair<api::Original, api::Original> acceptedSpec;

  // What the StatefulSet and Service caches say of the cluster, each with the cache's
  // changes() it was read at: while that stays, so do they.
  struct StatefulSetFacts {
    std::uint64_t changes = 0;
    RolloutView rollout;
    std::int32_t redisReplicas = -1;     // spec.replicas (-1: no StatefulSet)
    std::int32_t sentinelReplicas = -1;
  };
  std::optional<StatefulSetFacts> statefulsets;
  std::optional<std::pair<std::uint64_t, std::string>> sentinelServiceIP;

  // The stored cluster and the report whose next status was found equal to the stored one,
  // or was written over it.
  // nextStatus() reads the clock only for a condition it changes, so the same report over
  // the same stored cluster is again "nothing to write".
  ObjectPtr statusUnchangedFor;
  StatusReport statusReport;
  // The clock's text for the conditions nextStatus() stamps: kept per cluster, as one
  // cluster's passes never run at once (Rfc3339Text is not thread-safe).
  Rfc3339Text statusTime;

  // The waits of the last pass: a wait is announced (Event "Waiting") when it begins, not
  // again on every requeue while it lasts — each announcement is an API write.
  std::vector<std::string> waits;
};

}  // namespace kun::rediscluster
