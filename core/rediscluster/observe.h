#pragma once
// Observe: what every redis and sentinel process of one RedisCluster says about itself,
// read through the RedisAdmin seam. Only reads (INFO replication, SENTINEL
// MASTER/REPLICAS/SENTINELS):
// observing a healthy cluster changes nothing.
//
// The pods come in as plain structs (podInfoFrom extracts one from a Pod object of the
// informer cache), so this does not depend on informers or on the API server.
// A node that cannot be reached, or refuses every password given, is recorded as such in
// its entry; it never makes the whole view an error.
#include <algorithm>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/redis/info_parser.h"
#include "core/redis/redis_admin.h"
#include "core/redis/sentinel_parser.h"
#include "core/runtime/result.h"

namespace kun::rediscluster {

struct PodInfo {
  std::string name;
  std::string uid;            // metadata.uid (a deletion is preconditioned on it)
  std::string ip;             // status.podIP; empty before the pod has one
  std::int32_t ordinal = -1;  // from the name's "-<n>" suffix; -1 when there is none
  bool running = false;       // status.phase Running
  bool ready = false;         // condition Ready True
  bool terminating = false;   // metadata.deletionTimestamp set
  std::string revision;       // label controller-revision-hash ("" when absent)
  std::string creationTimestamp;  // metadata.creationTimestamp (RFC 3339; sorts by age)
};

// From a core/v1 Pod as the informer holds it.
PodInfo podInfoFrom(const Object& pod);

struct ClusterPods {
  std::vector<PodInfo> redis;      // pods of the redis StatefulSet
  std::vector<PodInfo> sentinels;  // pods of the sentinel StatefulSet
};

// Which of the given passwords a node accepted: 0 is the current (first) one, 1.. the
// older ones the caller listed; -1 when none was accepted (or the node was not reached).
// Never the password itself, so a view can be printed.
using PasswordIndex = int;

struct RedisNodeView {
  PodInfo pod;
  bool reachable = false;     // answered INFO (with one of the passwords)
  Error error;                // why not, when !reachable
  PasswordIndex password = -1;
  ReplicationInfo replication;  // INFO replication (valid when reachable)
  std::int32_t replicaPriority = 100;  // slave_priority / replica-priority

  bool isMaster() const { return reachable && replication.isMaster(); }
  bool isReplica() const { return reachable && replication.isReplica(); }
  // Still on the boot placeholder (replicaof 127.0.0.1 6379): nobody has told it where
  // the master is.
  bool onPlaceholder() const;
  // The replica's master link is up and no sync is running.
  bool inSync() const;
  // The offset that says how much data it has: master_repl_offset on a master,
  // slave_repl_offset on a replica (0 before its first sync).
  std::int64_t offset() const;
};

struct SentinelNodeView {
  PodInfo pod;
  bool reachable = false;     // answered SENTINEL MASTER (an unknown master still counts)
  Error error;
  bool monitoring = false;    // knows the master name (layout::kMasterName)
  SentinelMasterInfo master;  // valid when monitoring
  std::vector<SentinelReplicaInfo> replicas;
  std::vector<SentinelPeerInfo> peers;  // other sentinels it knows
  // In TILT mode (INFO sentinel; SENTINEL MASTER does not show it): for 30 s after its
  // clock or its scheduling jumped (a hang, a paused VM) it starts no failover.
  bool tilt = false;

  bool failoverInProgress() const;
  // Monitoring the boot placeholder 127.0.0.1 (sentinel.conf as generated).
  bool onPlaceholder() const;
};

// What the two StatefulSets say their pods should run. observe() does not fill it (it
// reads only Redis); the reconciler does, from its StatefulSet cache, so that a template
// change that is accepted but not yet rolled out to every pod is not called healthy.
struct RolloutView {
  std::string redisUpdateRevision;     // status.updateRevision ("" = not reported yet)
  std::string sentinelUpdateRevision;
  // status.observedGeneration has caught up with metadata.generation: the revision above
  // is the one of the current template.
  bool redisObserved = false;
  bool sentinelObserved = false;
};

struct ClusterView {
  std::vector<RedisNodeView> redis;          // in ordinal order
  std::vector<SentinelNodeView> sentinels;   // in ordinal order
  std::optional<RolloutView> rollout;        // unset: pod revisions are not checked

  const RedisNodeView* redisByIp(std::string_view ip) const;
  const SentinelNodeView* sentinelByIp(std::string_view ip) const;
  std::vector<const RedisNodeView*> masters() const;  // reachable nodes with role master
  bool anyFailoverInProgress() const;
};

// The pods' IPs (those that have one), as views into `nodes` (a ClusterView's redis or
// sentinels): a cluster has a handful of pods, and both health and heal look IPs up on
// every reconcile, so a scan beats building a set.
using PodIps = std::vector<std::string_view>;
template <class Nodes>
PodIps podIps(const Nodes& nodes) {
  PodIps ips;
  ips.reserve(nodes.size());
  for (const auto& n : nodes)
    if (!n.pod.ip.empty()) ips.emplace_back(n.pod.ip);
  return ips;
}
inline bool hasIp(const PodIps& ips, std::string_view ip) { return std::find(ips.begin(), ips.end(), ip) != ips.end(); }

// passwords: the current password first, then older ones the nodes may still have (the
// previous password during a change, "" for "none" while a first password is being set).
// The first one a node accepts is used for all its commands. Sentinels are asked without
// a password: the operator never protects them (auth-pass is what they use towards redis).
ClusterView observe(RedisAdmin& admin, const ClusterPods& pods,
                    const std::vector<std::string>& passwords);
// One password (no change in progress).
ClusterView observe(RedisAdmin& admin, const ClusterPods& pods, const std::string& password);

// One node, for heal steps that re-read a node after acting on it.
RedisNodeView observeRedis(RedisAdmin& admin, const PodInfo& pod,
                           const std::vector<std::string>& passwords);
SentinelNodeView observeSentinel(RedisAdmin& admin, const PodInfo& pod);

}  // namespace kun::rediscluster
