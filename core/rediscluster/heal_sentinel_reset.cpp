// Stale sentinel entries. Sentinel never forgets a replica or a peer it once knew, so
// after pods are recreated (new IPs, or an IP now used by another pod, even another
// cluster's) it keeps counting addresses that are gone: num-slaves and
// num-other-sentinels go wrong and a failover may wait for, or pick, a ghost.
// SENTINEL RESET makes it forget and rediscover (replicas from the master's INFO, peers
// from hello messages), but a sentinel in the middle of that knows too few peers to vote
// and too few replicas to fail over. So: only a sentinel with an entry for an address
// that is no pod of this cluster is reset; one at a time; and while any sentinel is still
// rediscovering (knows fewer replicas or peers than there are) nothing else is reset.
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

namespace {

struct Expected {
  PodIps redisIps, sentinelIps;  // views into the run's ClusterView
  int replicas = 0;  // replicas the master reports online
  int peers = 0;     // other sentinels that monitor the same master
};

Expected expected(const HealRun& run) {
  Expected e;
  e.redisIps = podIps(run.view().redis);
  e.sentinelIps = podIps(run.view().sentinels);
  if (const RedisNodeView* m = run.view().redisByIp(run.masterIp))
    for (const auto& r : m->replication.replicas)
      if (r.state == "online" && hasIp(e.redisIps, r.ip)) ++e.replicas;
  for (const auto& s : run.view().sentinels)
    if (s.reachable && s.monitoring && s.master.ip == run.masterIp) ++e.peers;
  e.peers = e.peers > 0 ? e.peers - 1 : 0;
  return e;
}

std::string staleEntry(const SentinelNodeView& s, const Expected& e) {
  for (const auto& r : s.replicas)
    if (!hasIp(e.redisIps, r.ip)) return "replica " + r.ip + ":" + std::to_string(r.port);
  for (const auto& p : s.peers)
    if (!hasIp(e.sentinelIps, p.ip)) return "sentinel " + p.ip + ":" + std::to_string(p.port);
  return {};
}

bool rediscovering(const SentinelNodeView& s, const Expected& e) {
  int replicas = 0, peers = 0;
  for (const auto& r : s.replicas)
    if (hasIp(e.redisIps, r.ip)) ++replicas;
  for (const auto& p : s.peers)
    if (hasIp(e.sentinelIps, p.ip)) ++peers;
  return replicas < e.replicas || peers < e.peers;
}

}  // namespace

Next healSentinelReset(HealRun& run) {
  if (run.opt().skipSentinelResetForTest || run.masterIp.empty()) return Next::Continue;
  const Expected e = expected(run);
  std::vector<const SentinelNodeView*> ours;
  for (const auto& s : run.view().sentinels)
    if (s.reachable && s.monitoring && !s.pod.terminating && s.master.ip == run.masterIp) ours.push_back(&s);
  // A sentinel that knows too few and nothing stale is one that is rediscovering (after a
  // reset or a restart). One that knows too few but has a stale entry was never reset.
  if (!run.opt().resetAllSentinelsForTest)
    for (const auto* s : ours)
      if (rediscovering(*s, e) && staleEntry(*s, e).empty()) {
        run.waiting(s->pod.name + ": rediscovering replicas and sentinels, waiting");
        run.requeue(HealPhase::Recovering);
        return Next::Continue;
      }
  const std::string name(layout::kMasterName);
  for (const auto* s : ours) {
    const std::string stale = staleEntry(*s, e);
    if (stale.empty()) continue;
    run.phase(HealPhase::Recovering);
    if (!run.changeSentinel(*s, {"SENTINEL", "RESET", name}, "SENTINEL RESET (stale " + stale + ")").ok())
      return Next::Stop;
    run.requeue(HealPhase::Recovering);
    if (!run.opt().resetAllSentinelsForTest) return Next::Continue;
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
