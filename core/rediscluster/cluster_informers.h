#pragma once
// The informer caches the RedisCluster reconciler reads, for one operator scope: the
// clusters themselves, their pods, and every kind Ensure writes. Owned kinds and pods are
// watched with the selector app.kubernetes.io/part-of=redis-cluster (KUN puts that label on
// every object it makes, so its objects are seen and adopted), which keeps the caches to
// this operator's objects.
#include <memory>
#include <vector>

#include "core/kube/informer.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/live_objects.h"
#include "core/rediscluster/scope.h"

namespace kun::rediscluster {

class ClusterInformers {
 public:
  // Nothing is started here: a Controller (or a test) starts and stops them.
  ClusterInformers(KubeClient& client, EventLoop& loop, const Scope& scope, const GenerateOptions& gen,
                   const Logger& log, Duration resync = Duration::zero());

  Informer& clusters() { return *clusters_; }
  Informer& pods() { return *pods_; }
  const Informer& clusters() const { return *clusters_; }
  const Informer& pods() const { return *pods_; }
  // The owned kinds in ensure order (StatefulSets among them).
  const std::vector<std::unique_ptr<Informer>>& owned() const { return owned_; }
  // The cache of one owned kind, or null.
  const Informer* find(const Resource& r) const;
  const Informer& statefulsets() const;
  const Informer& services() const;
  const LiveObjects& live() const { return live_; }

  void startAll();
  void stopAll();
  bool synced() const;

 private:
  std::unique_ptr<Informer> clusters_;
  std::unique_ptr<Informer> pods_;
  std::vector<std::unique_ptr<Informer>> owned_;
  InformerLiveObjects live_;
};

}  // namespace kun::rediscluster
