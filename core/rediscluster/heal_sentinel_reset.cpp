// Stale sentinel entries. Sentinel never forgets a replica or a peer it once knew, so
// after pods are recreated (new IPs, or an IP now used by another pod, even another
// cluster's) it keeps counting addresses that are gone: num-slaves and
// num-other-sentinels go wrong and a failover may wait for, or pick, a ghost. It may also
// list two run ids at one address (a sentinel that kept its id, on a reused IP: Sentinel
// moves its entry there and keeps the other), or another run id at its own.
// SENTINEL RESET makes it forget and rediscover (replicas from the master's INFO, peers
// from hello messages), but a sentinel in the middle of that knows too few peers to vote
// and too few replicas to fail over. So: only a sentinel with an entry for an address
// that is no pod of this cluster (or twice, or its own) is reset; one at a time; nothing
// while any sentinel is still rediscovering (knows fewer replicas or peers than there
// are); and never one whose forgetting would leave too few sentinels able to fail over.
#include <algorithm>

#include "core/rediscluster/config_files.h"
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
  for (auto p = s.peers.begin(); p != s.peers.end(); ++p) {
    const std::string addr = p->ip + ":" + std::to_string(p->port);
    if (!hasIp(e.sentinelIps, p->ip)) return "sentinel " + addr;
    if (p->ip == s.pod.ip) return "sentinel " + addr + " (its own address)";
    // Two run ids at one address: a pod re-created at a reused IP by a sentinel that kept
    // its id moved its entry there, beside the one of the sentinel that had the IP before.
    if (std::any_of(s.peers.begin(), p, [&](const auto& q) { return q.ip == p->ip && q.port == p->port; }))
      return "sentinel " + addr + " (twice)";
  }
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
  // A reset must not take the failover away: a sentinel is reset only while enough others
  // could lead one without it, or when it lists no replica that is a pod (it loses nothing
  // but stale entries); those go first. A replica it lists that cannot be promoted yet (in
  // its first sync) may be the one a failover needs a moment later.
  const std::int32_t needed = sentinelQuorum(run.rc().spec.sentinel.replicas);
  std::vector<const SentinelNodeView*> resettable, held;
  for (const auto* s : ours) {
    if (staleEntry(*s, e).empty()) continue;
    const bool knowsAReplica = std::any_of(s->replicas.begin(), s->replicas.end(), [&](const auto& r) {
      return r.ip != run.masterIp && hasIp(e.redisIps, r.ip);
    });
    if (!knowsAReplica) resettable.insert(resettable.begin(), s);
    else if (sentinelsAbleToFailOver(run, nullptr, 1, s) >= needed || run.opt().resetAllSentinelsForTest)
      resettable.push_back(s);
    else held.push_back(s);
  }
  const std::string name(layout::kMasterName);
  for (const auto* s : resettable) {
    run.phase(HealPhase::Recovering);
    if (!run.changeSentinel(*s, {"SENTINEL", "RESET", name}, "SENTINEL RESET (stale " + staleEntry(*s, e) + ")").ok())
      return Next::Stop;
    run.forgotten.push_back(s);
    run.requeue(HealPhase::Recovering);
    if (!run.opt().resetAllSentinelsForTest) return Next::Continue;
  }
  if (!held.empty()) {
    run.waiting(held.front()->pod.name + ": stale entries kept: too few other sentinels could fail over without it");
    run.requeue(HealPhase::Recovering);
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
