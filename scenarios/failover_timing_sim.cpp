// simulateFailoverTiming: the failover-timing measurement in the simulator. The run itself
// (layout, clients, fault, end conditions) is fakeapi/redis/failover_run.h, which follows
// the protocol of the local measurement step for step.
#include <cstdio>

#include "fakeapi/redis/failover_run.h"
#include "scenarios/failover_timing.h"
#include "scenarios/failover_timing_report.h"

namespace kun {

std::vector<FailoverRun> simulateFailoverTiming(const FailoverTimingOptions& opts) {
  std::vector<FailoverRun> runs;
  for (int i = 0; i < opts.runs; ++i) {
    redissim::FailoverRunSpec spec;
    spec.downAfterMs = opts.downAfterMs;
    spec.failoverTimeoutMs = opts.failoverTimeoutMs;
    spec.parallelSyncs = opts.parallelSyncs;
    spec.hang = opts.fault == FailoverTimingOptions::Fault::Hang;
    spec.hangMs = opts.hangMs;
    spec.seed = opts.seed + static_cast<std::uint64_t>(i);
    spec.writeIntervalMs = opts.writeIntervalMs;
    spec.observeMs = opts.observeMs;
    const redissim::FailoverRunResult r = redissim::runFailoverTiming(spec);
    FailoverRun run;
    run.odownMs = r.odownMs;
    run.firstSwitchMs = r.firstSwitchMs;
    run.lastSwitchMs = r.lastSwitchMs;
    run.newMasterWritableMs = r.newMasterWritableMs;
    run.oldMasterReplicaMs = r.oldMasterReplicaMs;
    run.lostAckedSentinelClient = r.lostAckedSentinelClient;
    run.lostAckedPinnedClient = r.lostAckedPinnedClient;
    std::vector<FailoverTimelineEvent> timeline;
    for (const auto& e : r.events) timeline.push_back({e.ms, e.sentinel, e.type, e.payload});
    if (!appendFailoverEventLine(opts.eventLog, failoverEventLine(i, opts, run, timeline)))
      std::fprintf(stderr, "failover-timing: cannot append to '%s'\n", opts.eventLog.c_str());
    runs.push_back(run);
  }
  return runs;
}

}  // namespace kun
