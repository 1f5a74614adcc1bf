#pragma once
// The world bench_reconcile times reconcile() in: one RedisCluster of a given size made
// Healthy by the real operator on a SimWorld (simulated Kubernetes and Redis), then a
// fresh reconciler (as a restarted operator would be) whose caches also hold `others`
// further clusters. Those are written straight into the store — the RedisCluster, every
// object the operator would own and the pods of its StatefulSets — but nothing runs them:
// the scheduler and the StatefulSet controller are stopped first, so their pods stay
// unbound and no simulated Redis is started for them. What is measured against them is
// what they cost the bench cluster's reconcile: cache lookups, lists and their indexes.
#include <cstdint>
#include <memory>
#include <string>

#include "core/kube/event_recorder.h"
#include "core/redis/counting_redis_admin.h"
#include "core/kube/forwarding_client.h"
#include "core/rediscluster/cluster_informers.h"
#include "core/rediscluster/reconciler.h"
#include "core/runtime/log.h"
#include "core/runtime/random.h"
#include "fakeapi/world/sim_world.h"

namespace kun::bench {

class ReconcileBenchWorld {
 public:
  static constexpr const char* kNs = "default";
  static constexpr const char* kName = "bench";

  // size: redis pods of the bench cluster (3 sentinels); others: further clusters of size 3;
  // configRecheck: HealOptions::configRecheck of the timed reconciler (zero: CONFIG GET on
  // every pass, as a periodic recheck does).
  ReconcileBenchWorld(int size, int others, Duration configRecheck = seconds(30));
  ~ReconcileBenchWorld();

  // "" when set up, else what went wrong (the bench reports it and skips).
  const std::string& error() const { return error_; }
  std::string key() const { return std::string(kNs) + "/" + kName; }
  rediscluster::Reconciler& reconciler() { return *reconciler_; }
  // What the reconciler sent since the last reset, for the "a healthy cluster writes
  // nothing" check around the timed loop.
  CountingClient& kube() { return *kube_; }
  CountingRedisAdmin& redis() { return *redis_; }
  bool healthy();

 private:
  void makeHealthy(int size);
  void addOthers(int others);
  void addOther(int i);
  void startReconciler(Duration configRecheck);

  std::unique_ptr<sim::SimWorld> world_;
  Random random_;
  Logger log_;
  std::unique_ptr<CountingClient> kube_;
  std::unique_ptr<CountingRedisAdmin> redis_;
  std::unique_ptr<EventRecorder> events_;
  std::unique_ptr<rediscluster::ClusterInformers> caches_;
  std::unique_ptr<rediscluster::Reconciler> reconciler_;
  std::string error_;
};

}  // namespace kun::bench
