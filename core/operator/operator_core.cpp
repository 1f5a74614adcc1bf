#include "core/operator/operator_core.h"

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/pdb_version.h"

namespace kun {

namespace rc = rediscluster;

std::string defaultLeaseName(const std::string& ns) {
  return ns.empty() ? "kun-operator-cluster-scoped" : "kun-operator-" + ns;
}

namespace {

// Pods and objects whose references are gone still name their cluster in the labels.
std::optional<std::string> clusterFromLabels(const Object& o) {
  if (meta::label(o, rc::labels::kPartOf) != rc::labels::kPartOfValue) return std::nullopt;
  const std::string name = meta::label(o, rc::labels::kName);
  if (name.empty()) return std::nullopt;
  return meta::namespaceOf(o) + "/" + name;
}

}  // namespace

namespace {
OperatorSeams metered(OperatorSeams s, std::unique_ptr<MetricsKubeClient>& kube, std::unique_ptr<MetricsRedisAdmin>& redis) {
  if (!s.metrics) return s;
  kube = std::make_unique<MetricsKubeClient>(s.kube, *s.metrics);
  redis = std::make_unique<MetricsRedisAdmin>(s.redis, *s.metrics);
  return OperatorSeams{s.loop, s.random, *kube, *redis, s.log, s.trace, s.metrics};
}
}  // namespace

OperatorCore::OperatorCore(OperatorSeams seams, OperatorOptions opts)
    : seams_(metered(std::move(seams), meteredKube_, meteredRedis_)), opts_(std::move(opts)) {
  opts_.reconciler.scope = rc::Scope{opts_.ns};
  if (opts_.detectPdbVersion) {
    if (auto v = rc::detectPdbVersion(seams_.kube, opts_.ns); v.ok()) {
      opts_.reconciler.pdbVersion = *v;
    } else {
      seams_.log.warn("could not tell which PodDisruptionBudget version is served; using the configured one",
                      {{"error", v.error().toString()}});
    }
  }
  rc::GenerateOptions gen;
  gen.pdbVersion = opts_.reconciler.pdbVersion;

  events_ = std::make_unique<EventRecorder>(seams_.kube, seams_.loop, opts_.eventComponent);
  caches_ = std::make_unique<rc::ClusterInformers>(seams_.kube, seams_.loop, opts_.reconciler.scope, gen, seams_.log,
                                                   opts_.informerResync);
  rc::ReconcilerSeams rseams{seams_.kube, seams_.redis, seams_.loop, *events_, seams_.log.withComponent("reconciler"),
                             seams_.trace, {}};
  if (OperatorMetrics* m = seams_.metrics)
    rseams.onHealth = [m](const std::string& key, std::optional<bool> healthy) { m->clusterHealth(key, healthy); };
  reconciler_ = std::make_unique<rc::Reconciler>(std::move(rseams), *caches_, opts_.reconciler);
  ReconcileFn reconcile = reconciler_->fn();
  if (OperatorMetrics* m = seams_.metrics) {
    // Timed on the loop's clock: virtual in a simulation, where a reconcile takes no time.
    reconcile = [inner = std::move(reconcile), m, &loop = seams_.loop](const std::string& key) {
      const TimePoint start = loop.now();
      ReconcileResult r = inner(key);
      m->reconciled(r, std::chrono::duration_cast<Duration>(loop.now() - start));
      return r;
    };
  }

  ControllerOptions copts;
  copts.name = "rediscluster";
  copts.workers = opts_.workers;
  copts.queue.backoff.max = opts_.maxFailureBackoff;
  if (opts_.leaderElect) {
    LeaderElectionOptions le = opts_.leaderElection;
    le.identity = opts_.identity;
    le.leaseNamespace = opts_.leaseNamespace;
    le.leaseName = opts_.leaseName.empty() ? defaultLeaseName(opts_.ns) : opts_.leaseName;
    copts.leaderElection = std::move(le);
  }
  controller_ = std::make_unique<Controller>(
      ControllerSeams{seams_.loop, seams_.kube, seams_.log.withComponent("controller"), &seams_.random, seams_.trace},
      copts, std::move(reconcile));
  const rc::Scope scope = opts_.reconciler.scope;
  controller_->setPrimary(caches_->clusters(), [scope](const Object& o) { return rc::manages(scope, o); });
  controller_->setOwnerKind(OwnerKind{std::string(api::kGroup), std::string(api::kKind)});
  controller_->setOwnerFallback(clusterFromLabels);
  std::vector<const Informer*> statefulsets;
  for (const auto& inf : caches_->owned()) {
    controller_->addOwned(*inf);
    if (inf->resource() == res::statefulsets) statefulsets.push_back(inf.get());
  }
  // Pods are the StatefulSets': follow pod -> StatefulSet -> cluster.
  controller_->addOwned(caches_->pods(), statefulsets);
}

OperatorCore::~OperatorCore() { stop(); }

void OperatorCore::start() {
  seams_.log.info("operator starting", {{"scope", opts_.reconciler.scope.describe()},
                                        {"leaderElect", opts_.leaderElect ? "true" : "false"},
                                        {"identity", opts_.identity}});
  controller_->start();
}

void OperatorCore::stop() {
  if (controller_) controller_->stop();
}

}  // namespace kun
