#pragma once
// The RedisCluster reconciler: one call per queued key, never sleeping.
//
//   1. read the cluster from the informer cache (gone, out of scope or being deleted: done);
//   2. validate: a rejected spec gets condition Failed (message naming the field) and a
//      Warning Event; nothing is created, changed or deleted; done until the spec changes;
//   3. observe the redis and sentinel pods of the cache (observe.h), decide how many
//      redis pods to keep (a scale-down waits for the master to move), Ensure the objects
//      (ensure.h), heal (heal.h) and assess health (health.h);
//   4. write the status only when it differs: phase conditions (conditions.h), Failed,
//      masterIP, sentinelIP (the sentinel Service's ClusterIP), observedGeneration;
//   5. an Event per action (Normal) and per failure (Warning); repeats are aggregated by
//      the EventRecorder; no text the operator writes contains the password.
// Returns done (healthy: requeueAfter(healthyRecheck), since Redis changes its own state
// without any Kubernetes event), requeueAfter (waiting for the world) or failed (backoff).
// A healthy cluster's reconcile writes nothing to the API server and sends only reads to
// Redis.
//
// Thread-safety: reconcile() may run on several threads at once for DIFFERENT keys (the
// Controller's workers > 0; its WorkQueue never hands one key to two threads). The state
// kept per cluster lives in one entry per key: only finding, inserting and erasing an
// entry takes a lock, and the entry itself is used unlocked by the one reconcile that owns
// the key (a map node's address never moves, and only that key's own reconcile erases it).
// No lock is ever held across an API or Redis call. The counters are atomic. What the
// seams must then bear: the KubeClient, the RedisAdmin, the EventLoop (now(), wallMicros())
// and the Logger's sink must be safe to call from several threads; the EventRecorder and
// the informer caches are; the RedisSteps must be safe to call concurrently (the real ones
// are plain functions); onHealth is called from every worker; the Trace is not thread-safe
// and must be null with workers > 0 (it is the simulator's run fingerprint).
#include <atomic>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <set>
#include <string>
#include <unordered_map>

#include "core/controller/reconcile_result.h"
#include "core/kube/event_recorder.h"
#include "core/kube/informer.h"
#include "core/rediscluster/cluster_informers.h"
#include "core/rediscluster/desired_cache.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/heal.h"
#include "core/rediscluster/pass_memo.h"
#include "core/rediscluster/redis_steps.h"
#include "core/rediscluster/scope.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"
#include "core/runtime/trace.h"

namespace kun::rediscluster {

struct ReconcilerOptions {
  Scope scope;
  PdbVersion pdbVersion = PdbVersion::V1;
  HealOptions heal;
  // How often a healthy cluster is looked at again.
  Duration healthyRecheck = seconds(30);
};

struct ReconcilerSeams {
  KubeClient& kube;
  RedisAdmin& redis;
  EventLoop& loop;
  EventRecorder& events;
  Logger log;
  Trace* trace = nullptr;
  // Told each cluster's health as a reconcile assessed it (key "namespace/name"; unset:
  // the cluster is gone), for the kun_cluster_healthy metric. May be empty.
  std::function<void(const std::string& key, std::optional<bool> healthy)> onHealth;
};

// Counters, for tests, benchmarks and metrics: a snapshot (each field read on its own).
struct ReconcilerStats {
  std::uint64_t reconciles = 0;
  std::uint64_t invalid = 0;
  std::uint64_t statusWrites = 0;
  std::uint64_t objectWrites = 0;
  std::uint64_t healActions = 0;
  std::uint64_t failures = 0;
};

class Reconciler {
 public:
  // The caches (and everything in seams) must outlive the reconciler.
  Reconciler(ReconcilerSeams seams, const ClusterInformers& caches, ReconcilerOptions opts,
             RedisSteps steps = RedisSteps::real());

  ReconcileResult reconcile(const std::string& key);
  ReconcileFn fn() {
    return [this](const std::string& key) { return reconcile(key); };
  }

  ReconcilerStats stats() const;
  // Clusters whose state is kept (a deleted one's is forgotten by its next reconcile).
  std::size_t clustersRemembered() const;
  const ReconcilerOptions& options() const { return opts_; }

 private:
  // What is remembered of one cluster (see ClusterState below).
  struct ClusterState;
  // An invalid spec: logged, and told by an InvalidSpec event once per generation and
  // problem. Returns the problem, redacted.
  std::string noteInvalid(const Object& stored, ClusterState& state, const api::RedisCluster* parsed,
                          const std::string& message);
  // Takes status.acceptedSpec (with status.observedGeneration) as the spec in force when it
  // is valid: what an operator before this one accepted.
  bool adoptAcceptedSpec(const Object& stored, ClusterMemo& memo) const;
  // status.acceptedSpec for the spec in force: as written, without the password.
  api::Original acceptedSpecOf(const api::RedisCluster& accepted, ClusterMemo& memo) const;
  // An invalid spec of a cluster never accepted: status Failed, nothing else.
  ReconcileResult rejectInvalid(const Object& stored, const api::RedisCluster* parsed, const std::string& text);
  ClusterState& stateOf(const std::string& key, const std::string& uid);
  void forget(const std::string& key);
  ReconcileResult reconcileValid(const Object& stored, ClusterState& state);
  // heal() on the Redis side, its actions and new waits announced (HealContext::objectsEnsured).
  HealReport healRedis(const Object& stored, const api::RedisCluster& rc, const ClusterView& view,
                       const std::vector<std::string>& passwords, const std::string& ns, const std::string& name,
                       ClusterState& state, ClusterMemo& memo, bool objectsEnsured);
  const ClusterPods& podsOf(const std::string& ns, const std::string& name, ClusterMemo& memo) const;
  const std::string& sentinelServiceIP(const std::string& ns, const std::string& name, ClusterMemo& memo) const;
  std::int32_t liveReplicas(const std::string& ns, const std::string& stsName) const;
  RolloutView rolloutOf(const std::string& ns, const std::string& name) const;
  const ClusterMemo::StatefulSetFacts& statefulSetFacts(const std::string& ns, const std::string& name,
                                                        ClusterMemo& memo) const;
  // The cached auth Secret's passwords (decoded again only when the cache holds another
  // Secret object).
  const SecretPasswords& authPasswords(const std::string& ns, const std::string& name, ClusterMemo& memo) const;
  void reportHealth(const std::string& key, std::optional<bool> healthy) {
    if (seams_.onHealth) seams_.onHealth(key, healthy);
  }
  void event(const Object& involved, EventType type, std::string_view reason, std::string_view message,
             const std::vector<std::string>& secrets);
  Result<bool> writeStatus(const api::RedisCluster& stored, const api::RedisClusterStatus& next);
  // The API server has no cluster with stored's uid (asked, not the cache).
  bool goneFromServer(const Object& stored);

  ReconcilerSeams seams_;
  const ClusterInformers& caches_;
  ReconcilerOptions opts_;
  RedisSteps steps_;
  DesiredCache desired_;  // thread-safe on its own
  // The password last reconciled and the one before it, so nodes still on the old one are
  // reached while a change is applied (a hint only: the Secret is the record).
  struct Passwords {
    std::string current;
    std::string previous;
  };
  struct ClusterState {
    std::string uid;  // of the cluster this is about: a name reused by a new cluster starts afresh
    Passwords passwords;
    ConfigChecks configChecks;
    ClusterMemo memo;
    // The generation and problems the last InvalidSpec event reported: a resync of the same
    // invalid spec says nothing new (the status still says it).
    std::optional<std::pair<std::int64_t, std::string>> rejected;
    std::map<std::string, TimePoint> failoverSeen;  // HealContext::failoverSeen
    std::set<std::string> authPassOwed;              // HealContext::authPassOwed
    std::map<std::string, TimePoint> authPassResent;  // HealContext::authPassResent
  };
  // By key. statesMu_ guards the map's structure only (find, insert, erase), never an
  // entry's contents: those belong to the key's reconcile.
  mutable std::mutex statesMu_;
  std::unordered_map<std::string, ClusterState> states_;
  struct Counters {
    std::atomic<std::uint64_t> reconciles{0};
    std::atomic<std::uint64_t> invalid{0};
    std::atomic<std::uint64_t> statusWrites{0};
    std::atomic<std::uint64_t> objectWrites{0};
    std::atomic<std::uint64_t> healActions{0};
    std::atomic<std::uint64_t> failures{0};
  };
  Counters stats_;
};

}  // namespace kun::rediscluster
