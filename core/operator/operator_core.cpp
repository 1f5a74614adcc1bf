#include "core/operator/operator_core.h"

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/labels.h"

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

OperatorCore::OperatorCore(OperatorSeams seams, OperatorOptions opts) : seams_(std::move(seams)), opts_(std::move(opts)) {
  opts_.reconciler.scope = rc::Scope{opts_.ns};
  rc::GenerateOptions gen;
  gen.pdbVersion = opts_.reconciler.pdbVersion;

  events_ = std::make_unique<EventRecorder>(seams_.kube, seams_.loop, opts_.eventComponent);
  caches_ = std::make_unique<rc::ClusterInformers>(seams_.kube, seams_.loop, opts_.reconciler.scope, gen, seams_.log,
                                                   opts_.informerResync);
  reconciler_ = std::make_unique<rc::Reconciler>(
      rc::ReconcilerSeams{seams_.kube, seams_.redis, seams_.loop, *events_, seams_.log.withComponent("reconciler"),
                          seams_.trace},
      *caches_, opts_.reconciler);

  ControllerOptions copts;
  copts.name = "rediscluster";
  copts.workers = opts_.workers;
  if (opts_.leaderElect) {
    LeaderElectionOptions le = opts_.leaderElection;
    le.identity = opts_.identity;
    le.leaseNamespace = opts_.leaseNamespace;
    le.leaseName = opts_.leaseName.empty() ? defaultLeaseName(opts_.ns) : opts_.leaseName;
    copts.leaderElection = std::move(le);
  }
  controller_ = std::make_unique<Controller>(
      ControllerSeams{seams_.loop, seams_.kube, seams_.log.withComponent("controller"), &seams_.random, seams_.trace},
      copts, reconciler_->fn());
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
