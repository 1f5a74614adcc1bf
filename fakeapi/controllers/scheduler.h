#pragma once
// A kube-scheduler stand-in: binds pending pods (spec.nodeName) honouring node
// unschedulable, taints/tolerations (NoSchedule, NoExecute), nodeSelector and required node
// affinity, required pod affinity/anti-affinity (and existing pods' anti-affinity) on any
// topologyKey, and unbound PVCs. Feasible nodes are ranked by preferred (anti-)affinity and
// node affinity, then PreferNoSchedule taints, then spreading (fewest pods of the same owner
// on the node, then in the zone, then fewest pods); remaining ties are broken by the seeded
// random stream. A pod that fits nowhere stays Pending with PodScheduled=False,
// reason Unschedulable and Kubernetes' message ("0/3 nodes are available: ..."), and is
// retried whenever pods, nodes or PVCs change.
//
// Simplified: no resource requests/limits, no preemption, no topologySpreadConstraints,
// namespaceSelector only as {} (all namespaces).
#include <cstdint>
#include <string>

#include "core/kube/event_recorder.h"
#include "core/kube/informer.h"
#include "core/runtime/random.h"
#include "fakeapi/controllers/sim_env.h"

namespace kun::sim {

struct SchedulerConfig {
  std::string schedulerName = "default-scheduler";  // pods naming another scheduler are left alone
  Duration retryAfterError = seconds(1);            // after a failed API call
};

class Scheduler {
 public:
  Scheduler(SimEnv env, Random rng, SchedulerConfig cfg = {});
  ~Scheduler();
  Scheduler(const Scheduler&) = delete;
  Scheduler& operator=(const Scheduler&) = delete;

  void start();
  void stop();
  // Runs a scheduling pass soon (coalesced with any already due).
  void kick();

  std::uint64_t bindings() const { return bindings_; }
  std::uint64_t passes() const { return passes_; }

 private:
  void pass();
  bool hasPendingInCache() const;

  SimEnv env_;
  Random rng_;
  SchedulerConfig cfg_;
  Informer pods_, nodes_, pvcs_;
  EventRecorder events_;
  bool running_ = false;
  TimerId passTimer_ = 0;
  TimerId retryTimer_ = 0;
  std::uint64_t bindings_ = 0;
  std::uint64_t passes_ = 0;
};

}  // namespace kun::sim
