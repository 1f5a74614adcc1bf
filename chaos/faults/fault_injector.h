#pragma once
// Applies faults to a simulated world by wrapping its seams, never by touching the code
// under test: the fake store's fault hook and the KubeClient (API errors, latency, watches,
// object deletion), the kubelet (container crash), node lifecycle (node and zone failure),
// the network model (partitions, delay, loss, swizzle-clog), the Redis simulator's
// processes (hang, failure) and, for what needs the operator, OperatorControl.
//
// begin() resolves the target now (the master is whoever is master at that moment) and
// applies the fault; end() undoes a lasting one. Overlapping faults compose: a node failed
// twice recovers when both end, a process hung twice resumes when both end, network
// effects combine per link (network_faults.h).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_targets.h"
#include "chaos/faults/network_faults.h"
#include "chaos/faults/operator_control.h"
#include "core/redis/redis_admin.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/random.h"
#include "core/runtime/trace.h"
#include "fakeapi/store/fault_hook.h"

namespace kun::sim {
class Kubelet;
class NodeLifecycle;
}  // namespace kun::sim
namespace kun::redissim {
class RedisSim;
class SimProcess;
}  // namespace kun::redissim

namespace kun::chaos {

// The seams a run exposes; a null one makes the faults that need it fail with Unavailable.
struct FaultSeams {
  EventLoop* loop = nullptr;
  Trace* trace = nullptr;
  FaultTargets* targets = nullptr;
  KubeClient* client = nullptr;
  FaultHook* apiFaults = nullptr;
  sim::Kubelet* kubelet = nullptr;
  sim::NodeLifecycle* nodes = nullptr;
  NetworkModel* net = nullptr;
  redissim::RedisSim* redis = nullptr;
  OperatorControl* op = nullptr;
};

class FaultInjector {
 public:
  using Id = std::uint64_t;
  struct Injected {
    Id id = 0;
    std::string detail;  // what it hit: "pod redis-cluster-a-0 (10.0.1.2)"
  };

  FaultInjector(FaultSeams seams, Random rng);
  ~FaultInjector();
  FaultInjector(const FaultInjector&) = delete;
  FaultInjector& operator=(const FaultInjector&) = delete;

  // Applies f now. Errors: Invalid (validateFault), NotFound (no such target), Unavailable
  // (a seam it needs is missing), or what the seam answered.
  Result<Injected> begin(const Fault& f);
  // Ends what begin() started (instantaneous faults: forgets them). NotFound for an
  // unknown id.
  Status end(Id id);
  // Ends everything still active, newest first.
  void endAll();
  std::size_t activeCount() const { return active_.size(); }

 private:
  struct Active;

  Status beginPodKill(Active& a);
  Status beginProcessFault(Active& a);
  Status beginContainerKill(Active& a);
  Status beginObjectDelete(Active& a);
  Status beginNodes(Active& a);
  Status beginPartition(Active& a);
  Status beginLinkFault(Active& a);
  Status beginSwizzle(Active& a);
  Status beginApiErrors(Active& a);
  Status beginApiLatency(Active& a);
  Status beginWatchFault(Active& a);
  Status beginOperatorFault(Active& a);
  void swizzleStep(Id id, std::size_t step);
  std::vector<std::string> allIps();
  redissim::SimProcess* processAt(const RedisEndpoint& ep) const;
  // Reference counts of shared holds (a node down, a process hung): true for the first
  // taker / the last releaser.
  bool hold(const std::string& key);
  bool release(const std::string& key);
  void refreshWatchDelay();
  void note(const std::string& text);

  FaultSeams seams_;
  Random rng_;
  std::optional<NetworkFaults> net_;
  std::map<Id, std::unique_ptr<Active>> active_;
  std::map<std::string, int> holds_;
  Duration baseWatchDelay_{0};
  Id next_ = 1;
};

}  // namespace kun::chaos
