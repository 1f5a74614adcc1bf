// Sentinel's own failover owns the cluster while it runs: promoting, re-pointing replicas
// or resetting a sentinel then would fight it (two masters, a replica pointed back at the
// old master, a leader losing its votes). The operator comes back once it is over — or
// once it has run longer than a failover that can finish does (wait for the promotion and
// reconfigure the replicas, a failover-timeout each, twice over, plus down-after): a
// failover whose promoted replica is gone never ends in sentinel.c (it waits for that
// replica to come back), and that sentinel alone would hold the cluster unhealed for ever.
// Past the bound heal goes on; giving the sentinel the master again (REMOVE + MONITOR,
// heal_sentinels) ends its failover, even where it still names the master heal keeps.
#include <fmt/format.h>

#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

Next healGuard(HealRun& run) {
  if (run.opt().actDuringFailoverForTest) return Next::Continue;
  auto* seen = run.ctx.failoverSeen;
  // By the sentinels' own timings (customConfig may lengthen them): a failover within them
  // can still finish.
  const SentinelTimings& t = run.sentinelTimings();
  const Duration bound = milliseconds(4 * t.failoverTimeoutMs + t.downAfterMs);
  std::map<std::string, TimePoint> still;  // the entries of the sentinels failing over now
  Next next = Next::Continue;
  for (const auto& s : run.view().sentinels) {
    if (!s.failoverInProgress()) continue;
    if (seen) {
      const auto it = seen->find(s.pod.uid);
      const TimePoint since = it != seen->end() ? it->second : run.ctx.now;
      still.emplace(s.pod.uid, since);
      if (run.ctx.now - since > bound) {
        run.waiting(fmt::format("{}: Sentinel failover stuck in {} for more than {} s; healing without it",
                                s.pod.name, s.master.failoverState, toMillis(bound) / 1000));
        run.stuck.push_back(&s);
        continue;
      }
    }
    if (next == Next::Stop) continue;
    run.waiting(s.pod.name + ": Sentinel failover in progress (" + s.master.failoverState + "), waiting");
    run.requeue(HealPhase::Recovering);
    next = Next::Stop;
  }
  if (seen) *seen = std::move(still);
  return next;
}

}  // namespace kun::rediscluster::healstep
