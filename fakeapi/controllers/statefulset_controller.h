#pragma once
// The StatefulSet controller (apps/v1), after Kubernetes' own: level-triggered by watches
// on StatefulSets and the pods they control, it reads the API afresh on every sync.
// - pods <set>-<ordinal> owned by the set (ownerReference, controller), labels from the
//   template plus controller-revision-hash, statefulset.kubernetes.io/pod-name and
//   apps.kubernetes.io/pod-index; a deleted or failed pod is recreated under its name;
// - podManagementPolicy OrderedReady (create ordinal i only when 0..i-1 are Running and
//   Ready; scale down one pod at a time, highest ordinal first, only while all are healthy)
//   or Parallel (all at once);
// - revisions: ControllerRevision <set>-<template hash>; updateStrategy RollingUpdate
//   (highest ordinal first, one at a time, each waits for Ready, ordinals below
//   rollingUpdate.partition stay at the current revision) or OnDelete;
// - volumeClaimTemplates: PVCs <claim>-<set>-<ordinal> created before the pod, never owned
//   by it, so they outlive it and a recreated pod mounts the same claim;
// - status replicas/readyReplicas/availableReplicas/currentReplicas/updatedReplicas/
//   currentRevision/updateRevision/observedGeneration/collisionCount, written with
//   updateStatus only when it changed; Events SuccessfulCreate/SuccessfulDelete/...
//
// Simplified: minReadySeconds (available = ready), maxUnavailable, ordinals.start,
// persistentVolumeClaimRetentionPolicy and orphan adoption are not modelled.
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <utility>

#include "core/kube/event_recorder.h"
#include "core/kube/informer.h"
#include "core/kube/selector.h"
#include "fakeapi/controllers/sim_env.h"

namespace kun::sim {

struct StatefulSetControllerConfig {
  Duration retryMin = seconds(1);  // after a failed API call, doubling per set
  Duration retryMax = seconds(30);
};

class StatefulSetController {
 public:
  explicit StatefulSetController(SimEnv env, StatefulSetControllerConfig cfg = {});
  ~StatefulSetController();
  StatefulSetController(const StatefulSetController&) = delete;
  StatefulSetController& operator=(const StatefulSetController&) = delete;

  void start();
  void stop();
  // Queues a sync of one set.
  void enqueue(const std::string& ns, const std::string& name);

  std::uint64_t syncs() const { return syncs_; }

 private:
  using Key = std::pair<std::string, std::string>;  // namespace, name
  void drain();
  // False when something failed and the set should be retried later.
  bool sync(const Key& key);
  void retryLater(const Key& key);

  SimEnv env_;
  StatefulSetControllerConfig cfg_;
  Informer sets_, pods_;
  EventRecorder events_;
  std::set<Key> dirty_;
  std::map<Key, Duration> backoff_;
  std::map<Key, TimerId> retryTimers_;
  // What a sync derives from a set's spec (its selector, the template's hash), kept while
  // the set's generation (which moves with any spec change) stays the same.
  struct SpecMemo {
    std::int64_t generation = -1;
    std::optional<Result<LabelSelector>> selector;
    std::string selectorText;  // selector->toString() when it parsed
    std::string templateHash;  // "" until a sync got that far
  };
  std::map<std::string, SpecMemo> specMemo_;  // by set uid
  TimerId drainTimer_ = 0;
  bool running_ = false;
  std::uint64_t syncs_ = 0;
};

}  // namespace kun::sim
