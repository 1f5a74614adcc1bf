// Scale-down never removes the master. The StatefulSet is held at its size
// (redisReplicasToKeep) while the master is on a pod that would go; here the pods that go
// get replica-priority 0, so Sentinel will not pick them, and once the sentinel that is
// asked has seen that, it fails the master over to a pod that stays. Scale-up needs nothing: new pods boot as replicas of the
// placeholder and heal_replicas points them at the master.
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

Next healScaleDown(HealRun& run) {
  const auto& view = run.view();
  const std::int32_t size = run.rc().spec.size;
  if (static_cast<std::int32_t>(view.redis.size()) != size) run.phase(HealPhase::Scaling);
  const RedisNodeView* master = view.redisByIp(run.masterIp);
  if (!master || staysAfterScale(run.rc(), *master)) return Next::Continue;
  run.phase(HealPhase::Scaling);
  for (const auto& n : view.redis) {
    if (!n.isReplica() || staysAfterScale(run.rc(), n) || n.replicaPriority == 0) continue;
    if (!run.changeRedis(n, {"CONFIG", "SET", "replica-priority", "0"}, "replica-priority 0 (goes with the scale-down)")
             .ok())
      return Next::Stop;
  }
  bool syncedStayer = false;
  for (const auto& n : view.redis)
    if (staysAfterScale(run.rc(), n) && n.inSync() && n.replication.masterHost == run.masterIp) syncedStayer = true;
  const SentinelNodeView* s = sentinelMonitoring(view, run.masterIp);
  if (!syncedStayer || !s) {
    run.action("scale-down waits for a replica in sync and a sentinel to fail over " + master->pod.name);
    run.requeue(HealPhase::Scaling);
    return Next::Stop;
  }
  // Sentinel picks from the INFO it cached (refreshed every 10 s): only once it has seen
  // priority 0 on every replica that goes can it not pick one of them.
  for (const auto& r : s->replicas) {
    const RedisNodeView* n = view.redisByIp(r.ip);
    if (n && !staysAfterScale(run.rc(), *n) && r.slavePriority != 0) {
      run.action("scale-down waits for " + s->pod.name + " to see replica-priority 0 on " + n->pod.name);
      run.requeue(HealPhase::Scaling);
      return Next::Stop;
    }
  }
  if (!run.changeSentinel(*s, {"SENTINEL", "FAILOVER", std::string(layout::kMasterName)},
                          "SENTINEL FAILOVER (master " + master->pod.name + " goes with the scale-down)")
           .ok())
    return Next::Stop;
  run.requeue(HealPhase::Scaling);
  return Next::Stop;
}

}  // namespace kun::rediscluster::healstep
