#pragma once
// One failover-timing run in the simulator: 1 master, 2 replicas, 3 sentinels (quorum 2),
// the master killed or hung, and what follows timed. It follows the protocol of the
// measurement against real processes (scenarios/failover_timing_local_real.cpp) step for
// step, so the two can be compared:
//  1. the redis nodes run and the replicas are linked; then the sentinels are launched and
//     polled until each lists both replicas and the other two sentinels;
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
  // After every sentinel was seen fully discovered, the clients write for warmUpMs, then
  // the fault. The sentinels are launched only once the replicas are linked and the fault
  // follows their discovery by warmUpMs, as in the local harness: so it falls where it
  // falls there in the sentinels' 1 s PING cycle (their links are a few seconds old and
  // still nearly in step with the hellos that completed the discovery), not at a phase
  // drawn uniformly.
  std::int64_t warmUpMs = 1000;
  std::int64_t discoveryPollMs = 50;  // the local harness polls SENTINEL MASTER every 50 ms
  std::int64_t sentinelLaunchMs = 5;  // between launching one sentinel process and the next
  // kill: from exec to listening for the restarted master. The local harness restarts it
  // once it has seen +switch-master and waits until it answers PING; on the reference
  // machine no sentinel's first reconnect (one timer tick after its switch) found it up.
  std::int64_t restartBootMs = 150;
};

// One Sentinel event after the fault, as the local measurement logs it.
struct FailoverRunEvent {
  std::int64_t ms = 0;  // after t0
  int sentinel = 0;     // index of the sentinel (0..2)
  std::string type;     // "+sdown", "+odown", "+switch-master", ...
  std::string payload;  // "master mymaster 10.0.0.1 6379", ...
};

struct FailoverRunResult {
  std::optional<std::int64_t> odownMs, firstSwitchMs, lastSwitchMs, newMasterWritableMs, oldMasterReplicaMs;
  std::int64_t lostAckedSentinelClient = 0, lostAckedPinnedClient = 0;
  std::int64_t ackedSentinelClient = 0, ackedPinnedClient = 0;  // after t0
  std::string traceHash;
  std::int64_t endMs = 0;             // when the run ended, after t0
  std::vector<FailoverRunEvent> events;  // Sentinel events after t0, in order
};

FailoverRunResult runFailoverTiming(const FailoverRunSpec& spec);

}  // namespace kun::redissim
