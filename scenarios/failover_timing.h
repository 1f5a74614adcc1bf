#pragma once
// `kun-sim failover-timing`: 1 master, 2 replicas, 3 sentinels (quorum 2); fail the master
// and time what follows. The same measurement runs in the simulator (--mode sim) and
// against real redis-server / redis-sentinel processes on loopback (--mode local), so the
// two can be put side by side.
#include <cstdint>
#include <optional>
#include <string>
#include <vector>

namespace kun {

struct FailoverTimingOptions {
  std::int64_t downAfterMs = 5000;
  std::int64_t failoverTimeoutMs = 60000;
  int parallelSyncs = 1;
  enum class Fault { Kill, Hang } fault = Fault::Kill;
  std::int64_t hangMs = 0;          // for Hang: how long the master is stopped
  int runs = 5;
  std::uint64_t seed = 1;
  std::int64_t writeIntervalMs = 10;  // the test clients' write pace
  std::int64_t observeMs = 60000;     // how long after the fault each run watches
  std::string eventLog;               // "" or a file to append each run's Sentinel events to
};

// One Sentinel event of a run, in ms after the fault (the --events log).
struct FailoverTimelineEvent {
  std::int64_t ms = 0;
  int sentinel = 0;     // index of the sentinel, 0..2
  std::string type;     // "+sdown", "+odown", "+switch-master", ...
  std::string payload;  // "master mymaster <ip> <port>", ...
};

// One run's figures, each in ms after the fault was injected; nullopt = did not happen.
struct FailoverRun {
  std::optional<std::int64_t> odownMs;
  std::optional<std::int64_t> firstSwitchMs;
  std::optional<std::int64_t> lastSwitchMs;
  std::optional<std::int64_t> newMasterWritableMs;
  std::optional<std::int64_t> oldMasterReplicaMs;
  std::int64_t lostAckedSentinelClient = 0;  // acked writes missing from the final master
  std::int64_t lostAckedPinnedClient = 0;    // same, for a client pinned to the old master
};

// In the simulator; run i uses seed + i.
std::vector<FailoverRun> simulateFailoverTiming(const FailoverTimingOptions& opts);
// Against real processes on 127.x addresses (fakeapi/local).
std::vector<FailoverRun> measureFailoverTimingLocal(const FailoverTimingOptions& opts);

}  // namespace kun
