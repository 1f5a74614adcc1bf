#pragma once
// The operator assembled from its seams: informers for its scope, the work queue, the
// RedisCluster reconciler and (optionally) leader election, as one object that kun-sim, the
// scenario tests and the kun-operator binary start and stop. It holds no global state and
// reads no clock of its own: everything comes through OperatorSeams, built either for a
// real cluster or for a simulation.
#include <memory>
#include <string>

#include "core/controller/controller.h"
#include "core/kube/event_recorder.h"
#include "core/kube/kube_client.h"
#include "core/operator/metrics_clients.h"
#include "core/operator/operator_metrics.h"
#include "core/redis/redis_admin.h"
#include "core/rediscluster/cluster_informers.h"
#include "core/rediscluster/reconciler.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"
#include "core/runtime/random.h"
#include "core/runtime/trace.h"

namespace kun {

// The World as the operator sees it. All references must outlive the OperatorCore.
struct OperatorSeams {
  EventLoop& loop;
  Random& random;
  KubeClient& kube;
  RedisAdmin& redis;
  Logger log;
  Trace* trace = nullptr;
  // Where the operator's metrics go (operator_metrics.h); null: none are kept.
  OperatorMetrics* metrics = nullptr;
};

struct OperatorOptions {
  // "" = cluster-scoped (clusters annotated redis.kun/scope: cluster-scoped, all
  // namespaces); else the namespace whose unannotated clusters this operator manages.
  std::string ns;
  int workers = 0;  // 0: inline on the loop (simulation)
  bool leaderElect = false;
  std::string identity = "kun-operator";
  std::string leaseNamespace = "default";
  // "" = kun-operator-<ns> or kun-operator-cluster-scoped, so the two scopes never share one.
  std::string leaseName;
  LeaderElectionOptions leaderElection;  // durations; name/namespace/identity set from above
  rediscluster::ReconcilerOptions reconciler;  // scope is set from ns
  // Ask the API server which PodDisruptionBudget version it serves (pdb_version.h) and use
  // it instead of reconciler.pdbVersion; when it cannot say, reconciler.pdbVersion stays.
  bool detectPdbVersion = true;
  Duration informerResync = Duration::zero();
  // A failed reconcile is retried after 5 ms doubling up to this. client-go's default is
  // 1000 s: after an API outage of a minute the operator would sleep for a quarter of an
  // hour, with a failover to finish.
  Duration maxFailureBackoff = seconds(60);
  std::string eventComponent = "redis-operator";
};

// The Lease name an operator of this scope uses by default.
std::string defaultLeaseName(const std::string& ns);

class OperatorCore {
 public:
  OperatorCore(OperatorSeams seams, OperatorOptions opts);
  ~OperatorCore();
  OperatorCore(const OperatorCore&) = delete;
  OperatorCore& operator=(const OperatorCore&) = delete;

  void start();
  // Stops the worker, releases the Lease, stops the informers.
  void stop();

  bool acting() const { return controller_->acting(); }
  Controller& controller() { return *controller_; }
  rediscluster::Reconciler& reconciler() { return *reconciler_; }
  rediscluster::ClusterInformers& caches() { return *caches_; }
  EventRecorder& events() { return *events_; }
  const OperatorOptions& options() const { return opts_; }

 private:
  // With metrics: the seams as the operator uses them, counted on the way out. Declared
  // before seams_, which refers to them.
  std::unique_ptr<MetricsKubeClient> meteredKube_;
  std::unique_ptr<MetricsRedisAdmin> meteredRedis_;
  OperatorSeams seams_;
  OperatorOptions opts_;
  std::unique_ptr<EventRecorder> events_;
  std::unique_ptr<rediscluster::ClusterInformers> caches_;
  std::unique_ptr<rediscluster::Reconciler> reconciler_;
  std::unique_ptr<Controller> controller_;
};

}  // namespace kun
