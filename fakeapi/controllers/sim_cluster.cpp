#include "fakeapi/controllers/sim_cluster.h"

#include "fakeapi/controllers/nodes.h"

namespace kun::sim {

SimCluster::SimCluster(SimClusterOptions opts)
    : root_(opts.seed), trace_(opts.traceEntries), log_(&loop_, opts.logLevel) {
  FakeStoreOptions so;
  so.seed = root_.fork("store").next();
  // The kubelet confirms graceful deletions; a pod on a dead node stays Terminating.
  so.podGraceTimeout = false;
  store_ = std::make_unique<FakeStore>(loop_, &trace_, so);
  controllerClient_ = std::make_unique<UnfaultedClient>(*store_);
  auto names = createNodes(*store_, opts.nodes, opts.zones);
  if (names) nodeNames_ = std::move(names.value()); else setup_ = names.error();
  const SimEnv e = env();
  kubelet_ = std::make_unique<Kubelet>(e, root_.fork("kubelet"), opts.kubelet);
  scheduler_ = std::make_unique<Scheduler>(e, root_.fork("scheduler"), opts.scheduler);
  statefulSets_ = std::make_unique<StatefulSetController>(e, opts.statefulSets);
  pvcs_ = std::make_unique<PvcProvisioner>(e, root_.fork("pvc"), opts.pvcs);
  nodeLifecycle_ = std::make_unique<NodeLifecycle>(e, *kubelet_, opts.nodeLifecycle);
  kubelet_->start();
  scheduler_->start();
  statefulSets_->start();
  pvcs_->start();
}

SimCluster::~SimCluster() {
  // Controllers first: they hold watches on the store.
  nodeLifecycle_.reset();
  pvcs_.reset();
  statefulSets_.reset();
  scheduler_.reset();
  kubelet_.reset();
  controllerClient_.reset();
  store_.reset();
}

}  // namespace kun::sim
