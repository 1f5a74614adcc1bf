#include "scenarios/failover_readiness.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/rediscluster/config_files.h"

namespace kun::scenario {

using chaos::FaultKind;

namespace {

// Faults that can only hit the replica they name.
bool aimedAtReplica(const chaos::Fault& f) {
  switch (f.kind) {
    case FaultKind::PodKill:
    case FaultKind::PodFailure:
    case FaultKind::ContainerKill:
    case FaultKind::ProcessHang:
    case FaultKind::NetworkDelay:
    case FaultKind::NetworkLoss: return f.target == "replica";
    default: return false;
  }
}

// The violation when fewer sentinels than a failover needs could take part in one (with
// the replica at `without` gone, when given).
std::optional<std::string> tooFewAble(const api::RedisCluster& rc, const rediscluster::ClusterView& view,
                                      const std::string& master, std::string_view without = {}) {
  std::set<std::string> redisIps, sentinelIps;
  for (const auto& n : view.redis)
    if (!n.pod.ip.empty() && n.pod.ip != master) redisIps.insert(n.pod.ip);
  for (const auto& s : view.sentinels)
    if (!s.pod.ip.empty()) sentinelIps.insert(s.pod.ip);
  const int sentinels = rc.spec.sentinel.replicas;
  const int needed = std::max<int>(rediscluster::sentinelQuorum(sentinels), sentinels / 2 + 1);
  int able = 0;
  std::string unable;
  for (const auto& s : view.sentinels) {
    std::string why;
    if (!s.reachable || !s.monitoring || s.master.ip != master) why = "does not monitor the master";
    else if (s.tilt) why = "is in TILT mode";
    else if (std::none_of(s.replicas.begin(), s.replicas.end(), [&](const auto& r) {
               // A node with replica-priority 0 (booted so, until in sync) is never promoted.
               const auto* n = view.redisByIp(r.ip);
               return redisIps.count(r.ip) > 0 && n && n->replicaPriority != 0 && r.ip != without;
             }))
      why = "knows no replica to promote";
    else if (std::count_if(s.peers.begin(), s.peers.end(), [&](const auto& p) { return sentinelIps.count(p.ip) > 0; }) <
             needed - 1)
      why = fmt::format("knows {} other sentinels", s.peers.size());
    if (why.empty()) ++able;
    else unable += (unable.empty() ? "" : "; ") + s.pod.name + " " + why;
  }
  if (able >= needed) return std::nullopt;
  return fmt::format("only {} of {} sentinels could fail over (need {}): {}", able, view.sentinels.size(), needed, unable);
}

}  // namespace

void FailoverReadiness::beforeFault(const api::RedisCluster& rc, const rediscluster::ClusterView& view,
                                    const std::string& master) {
  // Whichever replica the fault hits, enough sentinels still know another to promote.
  spareBeforeFault_ = !master.empty() && std::none_of(view.redis.begin(), view.redis.end(), [&](const auto& n) {
    return !n.pod.ip.empty() && n.pod.ip != master && tooFewAble(rc, view, master, n.pod.ip).has_value();
  });
}

void FailoverReadiness::onFault(const chaos::FaultRecord& r) {
  if (!r.applied) return;
  if (!r.ended) {
    // A fault on a replica leaves the others to promote, unless it hits the last one the
    // sentinels know as promotable (the other being rolled by the operator, still syncing,
    // or not yet learnt by them): then it excuses as any other fault does.
    const bool replica = aimedAtReplica(r.fault);
    Excuse e{r.began, replica, replica && spareBeforeFault_, !chaos::hasDuration(r.fault.kind), std::nullopt};
    spareBeforeFault_ = false;
    if (e.ended) e.endedAt = r.began;
    active_.push_back(e);
    return;
  }
  // The still-running excuse the fault began (the oldest of its kind begun at that time).
  const bool replica = aimedAtReplica(r.fault);
  auto it = std::find_if(active_.begin(), active_.end(), [&](const Excuse& e) {
    return !e.ended && e.began == r.began && e.aimedAtReplica == replica;
  });
  if (it != active_.end()) {
    it->ended = true;
    it->endedAt = *r.ended;
  }
}

void FailoverReadiness::onHealth(TimePoint now, bool healthy) {
  if (!healthy) {
    healthySince_.reset();
    return;
  }
  seenHealthy_ = true;
  if (!healthySince_) healthySince_ = now;
  // Healthy for kSettle, all of it after the fault's end.
  std::erase_if(active_, [&](const Excuse& e) {
    return e.endedAt && now - std::max(*e.endedAt, *healthySince_) >= kSettle;
  });
}

std::optional<std::string> FailoverReadiness::sample(const std::shared_ptr<const api::RedisCluster>& rcPtr,
                                                     const std::shared_ptr<const rediscluster::ClusterView>& view,
                                                     const std::string& master) {
  const api::RedisCluster& rc = *rcPtr;
  if (!seenHealthy_) return std::nullopt;
  const auto replicaFaults = std::count_if(active_.begin(), active_.end(), [](const Excuse& e) { return e.replicaOnly; });
  if (static_cast<std::size_t>(replicaFaults) != active_.size() || replicaFaults > 1) return std::nullopt;
  // With one replica, a fault on it leaves nothing to promote: not the operator's doing.
  if (rc.spec.size < 3 && replicaFaults > 0) return std::nullopt;
  if (rc.spec.size < 2 || master.empty()) return std::nullopt;
  if (rcPtr != rc_ || view != view_ || master != master_ || !rc_) {
    verdict_ = tooFewAble(rc, *view, master);
    rc_ = rcPtr;
    view_ = view;
    master_ = master;
    ++counted_;
  }
  return verdict_;
}

}  // namespace kun::scenario
