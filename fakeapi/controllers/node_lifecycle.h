#pragma once
// Node failure and recovery for the chaos layer, doing what the node lifecycle controller
// and the taint manager do when a kubelet stops posting status:
// - failNode: the node's Ready condition goes Unknown (NodeStatusUnknown), it gets the
//   node.kubernetes.io/unreachable taints (NoSchedule, NoExecute), its containers die
//   (Kubelet::nodeDown) and its pods are marked not Ready; each pod is evicted once its
//   toleration of the unreachable taint runs out (tolerationSeconds; a pod without such a
//   toleration gets `evictionDelay`, as the DefaultTolerationSeconds admission plugin
//   would give it; a toleration without seconds keeps the pod forever);
// - recoverNode: taints removed, Ready=True, the kubelet restarts what is still bound.
// Simplification: an evicted pod is force-deleted (grace 0), as if the dead node's pods were
// cleaned up at once; Kubernetes would leave it Terminating until the node came back.
#include <map>
#include <set>
#include <string>

#include "core/kube/event_recorder.h"
#include "fakeapi/controllers/kubelet.h"
#include "fakeapi/controllers/sim_env.h"

namespace kun::sim {

struct NodeLifecycleConfig {
  Duration evictionDelay = seconds(300);  // DefaultTolerationSeconds
  bool forceDeleteEvicted = true;
};

class NodeLifecycle {
 public:
  NodeLifecycle(SimEnv env, Kubelet& kubelet, NodeLifecycleConfig cfg = {});
  ~NodeLifecycle();
  NodeLifecycle(const NodeLifecycle&) = delete;
  NodeLifecycle& operator=(const NodeLifecycle&) = delete;

  Status failNode(const std::string& name);
  Status recoverNode(const std::string& name);
  bool isFailed(const std::string& name) const { return failed_.count(name) > 0; }
  std::uint64_t evictions() const { return evictions_; }

 private:
  Status setReady(const std::string& name, bool ready);
  void evict(const std::string& node, const std::string& uid, const std::string& ns, const std::string& pod);

  SimEnv env_;
  Kubelet& kubelet_;
  NodeLifecycleConfig cfg_;
  EventRecorder events_;
  std::set<std::string> failed_;
  std::map<std::string, std::map<std::string, TimerId>> evictionTimers_;  // node -> pod uid -> timer
  std::uint64_t evictions_ = 0;
};

}  // namespace kun::sim
