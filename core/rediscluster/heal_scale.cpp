// Scale-down never removes the master. The StatefulSet is held at its size
// (redisReplicasToKeep) while the master is on a pod that would go; here the pods that go
// get replica-priority 0, so Sentinel will not pick them, and once the sentinel that will
// be asked has seen that, the master moves to a pod that stays as a roll moves it:
// fenced, and only once a staying replica has its last write (heal_fenced_failover.h).
// Scale-up needs nothing: new pods boot as replicas of the placeholder and heal_replicas
// points them at the master.
#include "core/rediscluster/heal_fenced_failover.h"

namespace kun::rediscluster::healstep {

namespace {

bool stays(const HealRun& run, const RedisNodeView& n) { return staysAfterScale(run.rc(), n); }

}  // namespace

bool scaleMovesMaster(const HealRun& run, const RedisNodeView& n) {
  return !run.masterIp.empty() && n.pod.ip == run.masterIp && !staysAfterScale(run.rc(), n);
}

Next healScaleDown(HealRun& run) {
  const auto& view = run.view();
  const std::int32_t size = run.rc().spec.size;
  if (static_cast<std::int32_t>(view.redis.size()) != size) run.phase(HealPhase::Scaling);
  const RedisNodeView* master = view.redisByIp(run.masterIp);
  if (!master || !scaleMovesMaster(run, *master)) return Next::Continue;
  run.phase(HealPhase::Scaling);
  for (const auto& n : view.redis) {
    if (!n.isReplica() || stays(run, n) || n.replicaPriority == 0) continue;
    if (!run.changeRedis(n, {"CONFIG", "SET", "replica-priority", "0"}, "replica-priority 0 (goes with the scale-down)")
             .ok())
      return Next::Stop;
  }
  // Sentinel picks from the INFO it cached (refreshed every 10 s): only once it has seen
  // priority 0 on every replica that goes can it not pick one of them. Checked before the
  // fence, so writes are not refused meanwhile, on the sentinel moveMasterFenced asks.
  const MasterMove move{HealPhase::Scaling, "scale-down", "goes with the scale-down", stays};
  if (const SentinelNodeView* s = sentinelToAsk(run, *master, move)) {
    for (const auto& r : s->replicas) {
      const RedisNodeView* n = view.redisByIp(r.ip);
      if (n && !stays(run, *n) && r.slavePriority != 0) {
        run.waiting("scale-down waits for " + s->pod.name + " to see replica-priority 0 on " + n->pod.name);
        run.requeue(HealPhase::Scaling);
        return Next::Stop;
      }
    }
  }
  return moveMasterFenced(run, *master, move);
}

}  // namespace kun::rediscluster::healstep
