// Sentinel's own failover owns the cluster while it runs: promoting, re-pointing replicas
// or resetting a sentinel then would fight it (two masters, a replica pointed back at the
// old master, a leader losing its votes). The operator comes back once it is over.
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

Next healGuard(HealRun& run) {
  if (run.opt().actDuringFailoverForTest) return Next::Continue;
  for (const auto& s : run.view().sentinels) {
    if (!s.failoverInProgress()) continue;
    run.waiting(s.pod.name + ": Sentinel failover in progress (" + s.master.failoverState + "), waiting");
    run.requeue(HealPhase::Recovering);
    return Next::Stop;
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
