#include "core/rediscluster/health.h"

#include <fmt/format.h>

#include <algorithm>
#include <charconv>
#include <map>
#include <string_view>
#include <vector>

#include "core/rediscluster/config_values.h"
#include "core/rediscluster/layout.h"

namespace kun::rediscluster {

namespace {

void checkRedisPods(const api::RedisCluster& rc, const ClusterView& view, std::vector<std::string>& why) {
  if (static_cast<std::int32_t>(view.redis.size()) != rc.spec.size)
    why.push_back(fmt::format("{} redis pods, spec.size is {}", view.redis.size(), rc.spec.size));
  for (const auto& n : view.redis) {
    if (n.pod.terminating) why.push_back(n.pod.name + ": terminating");
    else if (!n.pod.running) why.push_back(n.pod.name + ": not running");
    else if (!n.pod.ready) why.push_back(n.pod.name + ": not ready");
    if (!n.reachable) why.push_back(n.pod.name + ": unreachable (" + n.error.message + ")");
    else if (n.password != 0) why.push_back(n.pod.name + ": still on an older password");
  }
}

// Whether spec.config lets Sentinel promote replicas: a replica priority other than 0 (Redis'
// default, 100, when it names none).
bool promotable(const std::map<std::string, std::string>& config) {
  for (const auto& [key, value] : config) {
    if (!isReplicaPriority(key)) continue;
    std::int64_t v = 1;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    return ec != std::errc() || end != value.data() + value.size() || v != 0;
  }
  return true;
}

void checkReplication(const ClusterView& view, const std::string& masterIp, bool wantPromotable,
                      std::vector<std::string>& why) {
  for (const auto& n : view.redis) {
    if (!n.isReplica()) continue;
    const auto& r = n.replication;
    if (n.onPlaceholder()) why.push_back(n.pod.name + ": not told its master (boot placeholder)");
    else if (r.masterHost != masterIp || r.masterPort != layout::kRedisPort)
      why.push_back(fmt::format("{}: replica of {}:{}, master is {}", n.pod.name, r.masterHost, r.masterPort, masterIp));
    else if (!r.masterLinkUp()) why.push_back(n.pod.name + ": master link down");
    else if (r.masterSyncInProgress) why.push_back(n.pod.name + ": sync in progress");
    // Booted at 0 (renderRedisConf); the operator sets the spec's once the replica is in sync.
    else if (wantPromotable && n.replicaPriority == 0)
      why.push_back(n.pod.name + ": replica-priority 0, Sentinel would not promote it");
  }
}

// A reason from its parts, appended: every lagging sentinel gives reasons on every
// assessment (the reconciler's and the harness's), and fmt::format costs several times
// what the appends do.
void appendPart(std::string& out, std::string_view s) { out.append(s); }
void appendPart(std::string& out, std::int64_t n) { out.append(std::to_string(n)); }
template <class... Parts>
std::string reason(const Parts&... parts) {
  std::string out;
  (appendPart(out, parts), ...);
  return out;
}

void checkSentinel(const SentinelNodeView& s, const std::string& masterIp, std::int32_t replicas,
                   std::int32_t sentinels, const PodIps& redisIps, const PodIps& sentinelIps,
                   std::vector<std::string>& why) {
  const std::string& who = s.pod.name;
  if (!s.reachable) {
    why.push_back(who + ": unreachable (" + s.error.message + ")");
    return;
  }
  if (!s.monitoring) {
    why.push_back(who + ": does not monitor " + std::string(layout::kMasterName));
    return;
  }
  const auto& m = s.master;
  if (m.ip != masterIp || m.port != layout::kRedisPort)
    why.push_back(reason(who, ": monitors ", m.ip, ":", m.port, ", master is ", masterIp));
  if (s.failoverInProgress()) why.push_back(who + ": failover in progress");
  if (s.tilt) why.push_back(who + ": in TILT mode (starts no failover until it leaves)");
  if (m.flags.down()) why.push_back(who + ": sees the master down");
  if (m.numSlaves != replicas) why.push_back(reason(who, ": knows ", m.numSlaves, " replicas, want ", replicas));
  if (m.numOtherSentinels != sentinels - 1)
    why.push_back(reason(who, ": knows ", m.numOtherSentinels, " other sentinels, want ", sentinels - 1));
  for (const auto& r : s.replicas) {
    if (!hasIp(redisIps, r.ip)) why.push_back(reason(who, ": stale replica entry ", r.ip, ":", r.port));
    else if (r.flags.down() || r.flags.disconnected) why.push_back(reason(who, ": sees replica ", r.ip, " down"));
  }
  for (const auto& p : s.peers) {
    if (!hasIp(sentinelIps, p.ip)) why.push_back(reason(who, ": stale sentinel entry ", p.ip, ":", p.port));
    else if (p.flags.down() || p.flags.disconnected) why.push_back(reason(who, ": sees sentinel ", p.ip, " down"));
  }
}

// One StatefulSet's side of a rollout: pending while its status lags its template or a
// pod (of those labelled by the controller) is on another revision.
template <class Nodes>
void checkRollout(std::string_view what, const Nodes& nodes, const std::string& updateRevision, bool observed,
                  std::vector<std::string>& why) {
  if (!observed || updateRevision.empty()) {
    why.push_back(fmt::format("{} StatefulSet: rollout of its current template not reported yet", what));
    return;
  }
  for (const auto& n : nodes)
    if (!n.pod.revision.empty() && n.pod.revision != updateRevision)
      why.push_back(fmt::format("{}: on revision {}, rollout to {} pending", n.pod.name, n.pod.revision, updateRevision));
}

}  // namespace

Health assessHealth(const api::RedisCluster& rc, const ClusterView& view) {
  Health h;
  auto& why = h.reasons;
  checkRedisPods(rc, view, why);

  const auto masters = view.masters();
  if (masters.size() == 1) h.masterIP = masters.front()->pod.ip;
  if (masters.empty()) why.push_back("no master");
  if (masters.size() > 1) {
    std::string list;
    for (const auto* m : masters) list += (list.empty() ? "" : ", ") + m->pod.ip;
    why.push_back(fmt::format("{} masters: {}", masters.size(), list));
  }
  if (!h.masterIP.empty()) checkReplication(view, h.masterIP, promotable(rc.spec.config), why);

  const std::int32_t wantSentinels = rc.spec.sentinel.replicas;
  if (static_cast<std::int32_t>(view.sentinels.size()) != wantSentinels)
    why.push_back(fmt::format("{} sentinel pods, spec.sentinel.replicas is {}", view.sentinels.size(), wantSentinels));
  const auto redisIps = podIps(view.redis);
  const auto sentinelIps = podIps(view.sentinels);
  for (const auto& s : view.sentinels) {
    if (s.pod.terminating) why.push_back(s.pod.name + ": terminating");
    checkSentinel(s, h.masterIP, rc.spec.size - 1, wantSentinels, redisIps, sentinelIps, why);
  }
  if (view.rollout) {
    checkRollout("redis", view.redis, view.rollout->redisUpdateRevision, view.rollout->redisObserved, why);
    checkRollout("sentinel", view.sentinels, view.rollout->sentinelUpdateRevision, view.rollout->sentinelObserved, why);
  }
  h.healthy = why.empty();
  return h;
}

}  // namespace kun::rediscluster
