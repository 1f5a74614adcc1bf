// Every other pod follows the master: one still on the boot placeholder, or following an
// address that is gone or now belongs to another pod, is told REPLICAOF the master; one
// locked out by passwords it missed is made again.
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

Next healReplicas(HealRun& run) {
  if (run.masterIp.empty()) return Next::Continue;
  const std::string port = std::to_string(layout::kRedisPort);
  for (const auto& n : run.view().redis) {
    if (!n.reachable || n.pod.terminating || n.pod.ip == run.masterIp) continue;
    const auto& r = n.replication;
    if (n.isReplica() && r.masterHost == run.masterIp && r.masterPort == layout::kRedisPort) continue;
    if (n.isMaster()) continue;  // a second master: heal_master decided about it
    const std::string was = n.onPlaceholder() ? "boot placeholder" : r.masterHost + ":" + std::to_string(r.masterPort);
    run.phase(n.onPlaceholder() && run.masterMadeNow ? HealPhase::Creating : HealPhase::Recovering);
    if (!run.changeRedis(n, {"REPLICAOF", run.masterIp, port}, "replica of " + run.masterIp + " (was " + was + ")").ok())
      return Next::Stop;
  }
  // A pod that refuses every password the operator knows while the master accepts one
  // was hung, or cut off, through more than one password change (the auth Secret keeps
  // the last two). Nothing can be told to it and it cannot replicate (its masterauth is as
  // old); made again, it starts with the current password of its mounted Secret and syncs.
  const RedisNodeView* master = run.view().redisByIp(run.masterIp);
  if (master == nullptr || !master->reachable) return Next::Continue;
  for (const auto& n : run.view().redis)
    if (!n.reachable && n.error.reason == Reason::Auth && n.pod.running && !n.pod.terminating &&
        n.pod.ip != run.masterIp)
      return deletePod(run, n, "refuses every password known: it missed password changes", HealPhase::Recovering);
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
