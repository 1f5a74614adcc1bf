#include "core/rediscluster/heal_fenced_failover.h"

#include <algorithm>

namespace kun::rediscluster::healstep {

namespace {

Next wait(HealRun& run, const MasterMove& move, const std::string& what) {
  run.waiting(std::string(move.step) + " waits for " + what);
  run.requeue(move.phase);
  return Next::Stop;
}

// More good replicas than the master can have (at most one per other pod), so it refuses
// every write: spec.size for a roll, the pods kept for a scale-down (more than spec.size).
std::string fenceValue(const HealRun& run) {
  const auto pods = static_cast<std::int32_t>(run.view().redis.size());
  return std::to_string(std::max(run.rc().spec.size, pods));
}

}  // namespace

bool stepMovesMaster(const HealRun& run, const RedisNodeView& n) {
  return rollMovesMaster(run, n) || scaleMovesMaster(run, n);
}

const SentinelNodeView* sentinelToAsk(const HealRun& run, const RedisNodeView& master, const MasterMove& move) {
  const auto& view = run.view();
  for (const auto& s : view.sentinels) {
    if (!s.reachable || !s.monitoring || s.tilt || s.pod.terminating || s.master.ip != master.pod.ip || run.forgot(s))
      continue;
    const bool knowsOne = std::any_of(s.replicas.begin(), s.replicas.end(), [&](const auto& r) {
      const RedisNodeView* n = view.redisByIp(r.ip);
      return n && n != &master && move.candidate(run, *n) && promotable(*n, r);
    });
    if (knowsOne) return &s;
  }
  return nullptr;
}

Next moveMasterFenced(HealRun& run, const RedisNodeView& master, const MasterMove& move) {
  const auto& view = run.view();
  const SentinelNodeView* s = sentinelToAsk(run, master, move);
  if (!s) return wait(run, move, "a sentinel that monitors the master and knows a replica to promote");
  const auto linked = [&](const RedisNodeView& n) {
    return &n != &master && n.inSync() && n.replication.masterHost == master.pod.ip && move.candidate(run, n);
  };
  // Not fenced before a replica it may go to follows it: writes are refused only while the
  // move can happen.
  if (std::none_of(view.redis.begin(), view.redis.end(), linked))
    return wait(run, move, "a replica in sync to move the master " + master.pod.name + " to");

  // The fence goes with the pod (a roll replaces it next as an old-revision replica, a
  // scale-down removes it); where the move no longer happens heal_config restores
  // spec.config's value.
  const std::string fence = fenceValue(run);
  auto fenced = run.readRedis(master, {"CONFIG", "GET", "min-replicas-to-write"});
  if (!fenced.ok()) {
    run.fail(makeError(fenced.error().reason,
                       master.pod.name + ": CONFIG GET min-replicas-to-write: " + fenced.error().message));
    return Next::Stop;
  }
  if (fenced->elements.size() != 2 || fenced->elements[1].str != fence) {
    if (run.changeRedis(master, {"CONFIG", "SET", "min-replicas-to-write", fence},
                        "CONFIG SET min-replicas-to-write " + fence + " (writes fenced for the failover)")
            .ok())
      run.requeue(move.phase);
    return Next::Stop;
  }
  // Fenced since the last pass, so the offset this pass read is the master's last: Sentinel
  // promotes the candidate with the highest offset, which must have reached it.
  const bool caughtUp = std::any_of(view.redis.begin(), view.redis.end(), [&](const RedisNodeView& n) {
    return linked(n) && n.replication.slaveReplOffset >= master.replication.masterReplOffset;
  });
  if (!caughtUp)
    return wait(run, move, "a replica to have every write the fenced master " + master.pod.name + " acknowledged");
  if (run.changeSentinel(*s, {"SENTINEL", "FAILOVER", std::string(layout::kMasterName)},
                         "SENTINEL FAILOVER (master " + master.pod.name + " " + std::string(move.reason) + ")")
          .ok())
    run.requeue(move.phase);
  return Next::Stop;
}

}  // namespace kun::rediscluster::healstep
