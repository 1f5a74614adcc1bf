// A change to the redis pod template (image, resources, command...) restarts no pod by
// itself (the StatefulSet is OnDelete). Here pods whose controller-revision-hash is not
// the StatefulSet's update revision are replaced one at a time, only while the cluster is
// whole (every pod answering, one master, every replica in sync):
//   replicas first (the highest ordinal first, as a StatefulSet rolls); then, with every
//   replica on the new revision and in sync, the master moves to one of them, fenced
//   (heal_fenced_failover.h: it refuses writes, and SENTINEL FAILOVER is asked once a
//   replica has its last offset); the old master, a replica now, is replaced in a later
//   pass like any replica.
// So never more than one pod is down, and the replica Sentinel promotes has the data.
#include <algorithm>

#include "core/rediscluster/config_files.h"
#include "core/rediscluster/heal_fenced_failover.h"

namespace kun::rediscluster::healstep {

namespace {

bool outdated(const HealRun& run, const RedisNodeView& n) {
  return !n.pod.revision.empty() && n.pod.revision != run.ctx.redisUpdateRevision;
}

bool onNewRevision(const HealRun& run, const RedisNodeView& n) { return !outdated(run, n); }

// Whether enough sentinels to elect a leader (the quorum the operator sets is that
// majority) each list at least `atLeast` replicas other than `excluded` that they would
// promote. A re-created pod is learnt from the master's INFO, and its priority once in
// sync, each within Sentinel's 10 s INFO period.
bool sentinelsKnowPromotable(const HealRun& run, const RedisNodeView* excluded, std::size_t atLeast) {
  return sentinelsAbleToFailOver(run, excluded, atLeast) >= sentinelQuorum(run.rc().spec.sentinel.replicas);
}

// The replicas other than `excluded`, wherever they are.
std::size_t otherReplicas(const HealRun& run, const RedisNodeView* excluded) {
  const auto& redis = run.view().redis;
  return static_cast<std::size_t>(std::count_if(redis.begin(), redis.end(), [&](const RedisNodeView& n) {
    return &n != excluded && n.pod.ip != run.masterIp;
  }));
}

}  // namespace

bool rollMovesMaster(const HealRun& run, const RedisNodeView& n) {
  if (run.ctx.redisUpdateRevision.empty() || n.pod.ip != run.masterIp || !outdated(run, n)) return false;
  const auto& redis = run.view().redis;
  return std::none_of(redis.begin(), redis.end(), [&](const RedisNodeView& o) { return &o != &n && outdated(run, o); });
}

Next healRolling(HealRun& run) {
  if (run.ctx.redisUpdateRevision.empty() || run.masterIp.empty()) return Next::Continue;
  const auto& view = run.view();
  std::vector<const RedisNodeView*> old;
  for (const auto& n : view.redis)
    if (outdated(run, n)) old.push_back(&n);
  if (old.empty()) return Next::Continue;
  run.phase(HealPhase::Updating);

  const bool skipSync = run.opt().restartMasterBeforeSyncForTest;
  const RedisNodeView* master = view.redisByIp(run.masterIp);
  bool whole = master && !run.masterMadeNow && static_cast<std::int32_t>(view.redis.size()) >= run.rc().spec.size;
  for (const auto& n : view.redis) {
    if (n.pod.terminating || !n.reachable || !n.pod.ready) whole = false;
    if (n.pod.ip != run.masterIp && !(n.inSync() && n.replication.masterHost == run.masterIp)) whole = false;
  }
  if (skipSync && master) {
    // The failure this switch puts back: the master's pod replaced while replicas sync.
    for (const auto* n : old)
      if (n == master) return deletePod(run, *n, "new revision, master first");
  }
  if (!whole) {
    run.waiting("rolling restart waits for every pod to be up and in sync");
    run.requeue(HealPhase::Updating);
    return Next::Stop;
  }
  std::sort(old.begin(), old.end(), [](auto* a, auto* b) { return a->pod.ordinal > b->pod.ordinal; });
  for (const auto* n : old) {
    if (n == master) continue;
    // Sentinel must still be able to fail over while the pod is away (a single replica
    // leaves nothing to keep promotable).
    if (otherReplicas(run, n) > 0 && !sentinelsKnowPromotable(run, n, 1)) {
      run.waiting("rolling restart waits for the sentinels to know a promotable replica besides " + n->pod.name);
      run.requeue(HealPhase::Updating);
      return Next::Stop;
    }
    return deletePod(run, *n, "new revision");
  }

  // Only the master is left on the old revision: it moves to a replica on the new one.
  // Sentinel carries the replicas it knows over to the new master, so it must know one
  // besides the one it will promote, or it could not fail the new master over.
  if (otherReplicas(run, nullptr) > 1 && !sentinelsKnowPromotable(run, nullptr, 2)) {
    run.waiting("rolling restart waits for the sentinels to know the replicas before moving the master");
    run.requeue(HealPhase::Updating);
    return Next::Stop;
  }
  return moveMasterFenced(run, *master, {HealPhase::Updating, "rolling restart", "is on the old revision", onNewRevision});
}

}  // namespace kun::rediscluster::healstep
