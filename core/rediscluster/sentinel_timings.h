#pragma once
// How long the sentinels of a cluster wait: down-after-milliseconds and failover-timeout
// as the operator leaves them. After MONITOR it sets its own (HealOptions) and then
// spec.sentinel.customConfig's, so the user's value wins. Heal waits on Sentinel by these
// (never acting on a master Sentinel is about to fail over), and the harness draws its
// bounds from them.
#include <cstdint>
#include <string>
#include <vector>

namespace kun::rediscluster {

struct SentinelTimings {
  std::int64_t downAfterMs = 0;
  std::int64_t failoverTimeoutMs = 0;
  bool operator==(const SentinelTimings&) const = default;
};

// `base` with the down-after-milliseconds and failover-timeout of customConfig (lines
// "<option> <value>", options in any case, as validation accepts them); a line whose value
// is not a positive integer leaves base's.
SentinelTimings effectiveSentinelTimings(const std::vector<std::string>& customConfig, SentinelTimings base);

// Each of the two timings, the longer of a's and b's.
inline SentinelTimings longer(const SentinelTimings& a, const SentinelTimings& b) {
  return {a.downAfterMs > b.downAfterMs ? a.downAfterMs : b.downAfterMs,
          a.failoverTimeoutMs > b.failoverTimeoutMs ? a.failoverTimeoutMs : b.failoverTimeoutMs};
}

}  // namespace kun::rediscluster
