#pragma once
// Heal: from an observed ClusterView, the Redis and Sentinel commands (and, for rolling
// restarts, the pod deletions) that bring a RedisCluster back to health.h's "healthy".
// The reconciler calls heal() after Ensure, with a fresh view, and turns the report into
// status conditions, events and its ReconcileResult.
//
// One call does at most one step of each kind that is safe to do now, then returns; what
// must wait for the world (a sync, a Sentinel failover, a pod restart) is a requeueAfter,
// never a wait. A healthy cluster costs only the reads observe() already made: heal issues
// zero state-changing commands.
//
// The steps, in order (the first that must wait ends the pass with a requeue):
//   1. any sentinel reports a failover in progress -> nothing at all, requeue
//      (heal_guard.cpp; actDuringFailoverForTest turns this off);
//   2. passwords: nodes still on an older password get masterauth everywhere first, then
//      requirepass, then every sentinel's auth-pass (heal_password.cpp);
//   3. master: none -> bootstrap (all on the placeholder: the pod with the highest offset
//      becomes master) or promote the replica with the highest offset; more than one ->
//      keep the one Sentinel names (else the highest offset) and demote the others
//      (heal_master.cpp);
//   4. replicas on the placeholder or following any other address -> REPLICAOF the master
//      (heal_replicas.cpp);
//   5. sentinels not monitoring the master, or monitoring another address -> SENTINEL
//      REMOVE/MONITOR, then SENTINEL SET down-after / failover-timeout / parallel-syncs /
//      auth-pass / spec.sentinel.customConfig (heal_sentinels.cpp);
//   6. custom config: CONFIG GET, then CONFIG SET only what differs (heal_config.cpp);
//   7. stale sentinel entries (a replica or sentinel address that is no pod of the
//      cluster, or counts that do not match): SENTINEL RESET on one sentinel, then requeue
//      until it knows size-1 replicas again before the next (heal_sentinel_reset.cpp);
//   8. scale-down: the master on a pod that goes -> replica-priority 0 on those that go,
//      then the master moved, fenced, to a pod that stays (heal_scale.cpp);
//   9. rolling restart of pods off the update revision: replicas one at a time, each in
//      sync first; then the master moved, fenced; then its pod deleted (heal_rolling.cpp).
// Commands and action texts never contain the password ("CONFIG SET requirepass ***").
#include <cstdint>
#include <map>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/kube/kube_client.h"
#include "core/redis/redis_admin.h"
#include "core/rediscluster/observe.h"
#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun::rediscluster {

struct HealOptions {
  // How long to come back after a step that waits for the world.
  Duration requeueAfter = milliseconds(1000);
  // Sentinel settings written with SENTINEL SET after MONITOR, which starts from
  // Sentinel's defaults: KUN's sentinel.conf values (config_files.h).
  std::int64_t downAfterMs = 1000;
  std::int64_t failoverTimeoutMs = 3000;
  std::int32_t parallelSyncs = 2;
  // How long a node's config, found right by CONFIG GET, is trusted without asking again
  // (ConfigChecks); zero: asked on every pass. A reconcile that an unrelated event set off
  // need not re-read what the last one read; the periodic recheck of a healthy cluster
  // (30 s) still finds a parameter changed by hand.
  Duration configRecheck = seconds(30);
  // How long after giving a sentinel its auth-pass again, for a node it sees down that
  // answers the operator, the same sign may have it given again.
  Duration authPassResend = seconds(30);

  // Test-only switches that put back the failures of other operators, so the harness can
  // show that it catches them. All off in the product.
  bool promoteOldestForTest = false;        // promote the oldest pod, not the highest offset
  bool skipSentinelResetForTest = false;    // never SENTINEL RESET stale entries
  bool resetAllSentinelsForTest = false;    // reset every sentinel at once
  bool actDuringFailoverForTest = false;    // ignore a failover in progress
  bool restartMasterBeforeSyncForTest = false;  // roll the master before replicas are in sync
  bool addUnreadyPodToSentinelForTest = false;  // replicate/promote pods that are not Ready
};

// Which redis pods' config (spec.config and masterauth) a recent pass found right: by pod
// uid, a fingerprint of what was wanted and when it was read. A hint the reconciler keeps
// per cluster; entries expire after HealOptions::configRecheck and all are dropped when a
// pass changes anything in the cluster.
struct ConfigChecks {
  struct Entry {
    std::uint64_t fingerprint = 0;
    TimePoint at{};
  };
  std::map<std::string, Entry> byPod;

  // What heal wants on every node (spec.config with lower-case keys, masterauth, the
  // min-replicas-to-write default), with the CONFIG GET that reads it and its fingerprint;
  // kept with the inputs it was built from, which stay the same pass after pass.
  struct Wanted {
    std::map<std::string, std::string> want;
    std::uint64_t fingerprint = 0;
    std::vector<std::string> configGet;  // CONFIG GET <every key of want>
  };
  struct WantedMemo {
    std::map<std::string, std::string> config;  // spec.config
    std::string password;
    Wanted wanted;
  };
  std::optional<WantedMemo> wanted;  // not dropped with byPod: a function of its inputs
};

// ConfigChecks::Wanted for spec.config and the password (heal_config.cpp).
ConfigChecks::Wanted wantedConfig(const std::map<std::string, std::string>& config, const std::string& password);

enum class HealPhase { None, Creating, Recovering, Scaling, Updating };
std::string_view healPhaseName(HealPhase p);

struct HealContext {
  RedisAdmin& redis;
  KubeClient& kube;                 // only for pod deletions of a rolling restart
  const api::RedisCluster& cluster; // defaulted (api::withDefaults)
  const ClusterView& view;          // observed just before, with `passwords`
  // As given to observe(): the current password first (spec.password), then older ones.
  std::vector<std::string> passwords;
  // The redis StatefulSet's status.updateRevision; "" = unknown, no rolling restart.
  std::string redisUpdateRevision;
  HealOptions options;
  ConfigChecks* configChecks = nullptr;  // null: config is read on every pass
  TimePoint now{};                       // for configChecks and failoverSeen
  // Per sentinel pod uid, since when heal has seen its failover in progress (kept by the
  // caller from pass to pass; null: a failover in progress is always waited for).
  std::map<std::string, TimePoint>* failoverSeen = nullptr;
  // Sentinel pod uids that missed a password change (not answering when it was made, a
  // hung one say): given auth-pass once they answer, as nothing they report shows it
  // (kept by the caller from pass to pass; null: not tracked).
  std::set<std::string>* authPassOwed = nullptr;
  // False when this pass could not write the objects (Ensure failed): the auth Secret may
  // not hold the password in force, nor the StatefulSets their template, so no password
  // change, roll or scale-down starts; Redis is still healed.
  bool objectsEnsured = true;
  // Per sentinel pod uid, when auth-pass was last given again for a sign of an old one (a
  // node it sees down that answers us): not again within HealOptions::authPassResend, as
  // each time drops its connections (kept by the caller; null: never given for a sign).
  std::map<std::string, TimePoint>* authPassResent = nullptr;
};

struct HealReport {
  // "promote redis-cluster-a-1 (10.0.0.5) to master", "SENTINEL RESET on
  // redis-sentinel-a-0", ... in the order done. No secrets.
  std::vector<std::string> actions;
  // What the pass waits for ("scale-down waits for ..."), in order; no secrets. Shown in
  // the status message with the actions; announced once per wait, not on every pass.
  std::vector<std::string> waits;
  std::int32_t stateChangingCommands = 0;  // commands sent that change state
  std::int32_t podsDeleted = 0;
  std::optional<Duration> requeueAfter;    // set when something must be looked at again
  HealPhase phase = HealPhase::None;       // what the cluster is going through
  Status status;                           // the first failure (a command that failed)

  bool changed() const { return stateChangingCommands > 0 || podsDeleted > 0; }
};

HealReport heal(HealContext& ctx);

// How many redis pods the StatefulSet may have now (GenerateOptions::redisReplicas): a
// scale-down holds the current count while the master is on a pod that would go (heal
// fails it over first); otherwise spec.size. Called by the reconciler before Ensure.
std::int32_t redisReplicasToKeep(const api::RedisCluster& rc, const ClusterView& view);

}  // namespace kun::rediscluster
