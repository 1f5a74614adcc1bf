#pragma once
// One failover-timing run in the simulator: 1 master, 2 replicas, 3 sentinels (quorum 2),
// the master killed or hung, and what follows timed. It follows the protocol of the
// measurement against real processes (scenarios/failover_timing_local_real.cpp) step for
// step, so the two can be compared:
//  1. the layout runs healthy and fully discovered;
//  2. two clients write `SET key n` every writeIntervalMs with 250 ms timeouts, one asking
//     the sentinels (in order, first answer wins) for the master before every write, one
//     pinned to the old master; after 1 s of writes, t0: the fault;
//  3. kill: the master dies and is restarted empty (a new pod on emptyDir) when the first
//     +switch-master is seen; hang:MS: stopped, resumed after MS;
//  4. the run ends when the old master reports role:slave of the new master and every
//     sentinel has switched; or, without +odown, at fault end + down-after + 5 s; or at
//     observeMs;
//  5. lost writes: acknowledged writes missing from the master the sentinels name at the end.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kun::redissim {

struct FailoverRunSpec {
  std::int64_t downAfterMs = 5000;
  std::int64_t failoverTimeoutMs = 60000;
  int parallelSyncs = 1;
  bool hang = false;         // false: kill
  std::int64_t hangMs = 0;
  std::uint64_t seed = 1;
  std::int64_t writeIntervalMs = 10;
  std::int64_t observeMs = 60000;
  std::int64_t clientTimeoutMs = 250;
  std::int64_t warmUpMs = 1000;
  // The fault comes warmUpMs + U(0, faultPhaseJitterMs) after the layout settled, so that
  // where it falls in the sentinels' 1 s PING cycle varies from run to run (with a fixed
  // delay it would sit at nearly the same phase in every run).
  std::int64_t faultPhaseJitterMs = 1000;
  // kill: from exec to listening for the restarted master. The local harness restarts it
  // once it has seen +switch-master and waits until it answers PING; on the reference
  // machine no sentinel's first reconnect (one timer tick after its switch) found it up.
  std::int64_t restartBootMs = 150;
};

struct FailoverRunResult {
  std::optional<std::int64_t> odownMs, firstSwitchMs, lastSwitchMs, newMasterWritableMs, oldMasterReplicaMs;
  std::int64_t lostAckedSentinelClient = 0, lostAckedPinnedClient = 0;
  std::int64_t ackedSentinelClient = 0, ackedPinnedClient = 0;  // after t0
  std::string traceHash;
  std::int64_t endMs = 0;             // when the run ended, after t0
  std::vector<std::string> events;    // Sentinel events after t0: "<ms> <sentinel> <type> <msg>"
};

FailoverRunResult runFailoverTiming(const FailoverRunSpec& spec);

}  // namespace kun::redissim
