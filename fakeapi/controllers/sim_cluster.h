#pragma once
// A whole simulated Kubernetes cluster from one seed, on one SimLoop: the fake API store,
// N nodes across Z zones, the scheduler, the kubelet, the StatefulSet controller, the PVC
// provisioner and node lifecycle. Everything is started by the constructor; advance time
// with loop()/runUntil(). Later layers (Redis simulator, operator, harness) build on this.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/log.h"
#include "core/runtime/random.h"
#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"
#include "fakeapi/controllers/kubelet.h"
#include "fakeapi/controllers/node_lifecycle.h"
#include "fakeapi/controllers/pvc_provisioner.h"
#include "fakeapi/controllers/scheduler.h"
#include "fakeapi/controllers/sim_env.h"
#include "fakeapi/controllers/statefulset_controller.h"
#include "fakeapi/store/fake_store.h"
#include "fakeapi/store/unfaulted_client.h"

namespace kun::sim {

struct SimClusterOptions {
  std::uint64_t seed = 1;
  int nodes = 3;
  int zones = 3;
  KubeletConfig kubelet;
  SchedulerConfig scheduler;
  StatefulSetControllerConfig statefulSets;
  PvcProvisionerConfig pvcs;
  NodeLifecycleConfig nodeLifecycle;
  std::size_t traceEntries = 0;  // trace entries kept for reports (the hash covers all)
  LogLevel logLevel = LogLevel::Off;
};

class SimCluster {
 public:
  explicit SimCluster(SimClusterOptions opts = {});
  ~SimCluster();
  SimCluster(const SimCluster&) = delete;
  SimCluster& operator=(const SimCluster&) = delete;

  // The nodes could not be created (never expected; reported rather than thrown).
  const Status& setupStatus() const { return setup_; }

  SimLoop& loop() { return loop_; }
  Trace& trace() { return trace_; }
  FakeStore& store() { return *store_; }
  KubeClient& client() { return *store_; }
  Logger& log() { return log_; }
  // What a component added later is handed; random(name) is its own stream of the seed.
  // The simulated cluster's own components call the API past its fault hook: injected API
  // errors are aimed at the operator under test, not at the kubelet and controllers that
  // stand in for Kubernetes (watch delays and closed watches still reach them).
  SimEnv env() { return SimEnv{*controllerClient_, loop_, &trace_, log_}; }
  Random random(std::string_view name) const { return root_.fork(name); }
  std::uint64_t seed() const { return root_.seed(); }

  Kubelet& kubelet() { return *kubelet_; }
  Scheduler& scheduler() { return *scheduler_; }
  StatefulSetController& statefulSets() { return *statefulSets_; }
  PvcProvisioner& pvcs() { return *pvcs_; }
  NodeLifecycle& nodeLifecycle() { return *nodeLifecycle_; }
  const std::vector<std::string>& nodeNames() const { return nodeNames_; }

  Status failNode(const std::string& name) { return nodeLifecycle_->failNode(name); }
  Status recoverNode(const std::string& name) { return nodeLifecycle_->recoverNode(name); }

  // Runs the loop until pred holds (checked after every event) or `timeout` of virtual
  // time passed; true if pred held.
  bool runUntil(const std::function<bool()>& pred, Duration timeout) {
    return loop_.runUntil(pred, loop_.now() + timeout);
  }
  void runFor(Duration d) { loop_.runFor(d); }

 private:
  Random root_;
  SimLoop loop_;
  Trace trace_;
  Logger log_;
  std::unique_ptr<FakeStore> store_;
  std::unique_ptr<Kubelet> kubelet_;
  std::unique_ptr<Scheduler> scheduler_;
  std::unique_ptr<StatefulSetController> statefulSets_;
  std::unique_ptr<PvcProvisioner> pvcs_;
  std::unique_ptr<NodeLifecycle> nodeLifecycle_;
  std::unique_ptr<UnfaultedClient> controllerClient_;
  std::vector<std::string> nodeNames_;
  Status setup_;
};

}  // namespace kun::sim
