#pragma once
// The scheduler's rules as pure functions over Pod and Node objects: taints and
// tolerations, nodeSelector / node affinity, and inter-pod (anti-)affinity terms. Each
// follows the Kubernetes semantics for the fields it reads.
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/kube/selector.h"

namespace kun::sim {

// Kubernetes' well-known label and taint keys.
inline constexpr const char* kHostnameLabel = "kubernetes.io/hostname";
inline constexpr const char* kZoneLabel = "topology.kubernetes.io/zone";
inline constexpr const char* kTaintUnreachable = "node.kubernetes.io/unreachable";
inline constexpr const char* kTaintNotReady = "node.kubernetes.io/not-ready";
inline constexpr const char* kTaintUnschedulable = "node.kubernetes.io/unschedulable";

// True if one of tolerations (a pod's spec.tolerations array) tolerates taint.
bool toleratesTaint(const Object& tolerations, const Object& taint);
// The first of node's taints with effect NoSchedule or NoExecute that the pod does not
// tolerate.
std::optional<Object> firstUntoleratedTaint(const Object& pod, const Object& node);
// How many PreferNoSchedule taints of node the pod does not tolerate.
int untoleratedPreferNoSchedule(const Object& pod, const Object& node);
// "{key: value}", as scheduler messages print a taint.
std::string describeTaint(const Object& taint);

// spec.nodeSelector and requiredDuringSchedulingIgnoredDuringExecution node affinity.
bool matchesNodeSelectorAndAffinity(const Object& pod, const Object& node);
// Sum of the weights of the preferred node-affinity terms node matches.
int preferredNodeAffinityScore(const Object& pod, const Object& node);

// One (anti-)affinity term of a pod, resolved against the pod's namespace.
struct PodAffinityTerm {
  LabelSelector selector;
  bool matchNothing = false;     // a null labelSelector matches no pod
  std::set<std::string> namespaces;  // empty with allNamespaces=false: none (never happens)
  bool allNamespaces = false;        // namespaceSelector: {} (the empty selector)
  std::string topologyKey;
  int weight = 0;  // preferred terms only

  bool matches(const Object& otherPod) const;
};

struct PodAffinity {
  std::vector<PodAffinityTerm> requiredAffinity, requiredAntiAffinity;
  std::vector<PodAffinityTerm> preferredAffinity, preferredAntiAffinity;
  bool empty() const {
    return requiredAffinity.empty() && requiredAntiAffinity.empty() && preferredAffinity.empty() &&
           preferredAntiAffinity.empty();
  }
};

// Parses spec.affinity.podAffinity / podAntiAffinity of pod. Terms whose selector does
// not parse are dropped (Kubernetes' validation would have rejected the pod).
PodAffinity podAffinityOf(const Object& pod);

// The node's value for topologyKey, or nullopt when the node lacks the label.
std::optional<std::string> topologyValue(const Object& node, const std::string& key);

}  // namespace kun::sim
