#pragma once
// The standard Sentinel layout on a RedisSim: one master, N replicas of it, M sentinels
// monitoring it — what tests, the failover-timing run and the benchmark start from — and
// the checks of what "converged" means for it.
#include <optional>
#include <string>
#include <utility>
#include <vector>

#include "fakeapi/redis/redis_sim.h"

namespace kun::redissim {

struct TopologyOptions {
  int replicas = 2;
  int sentinels = 3;
  int quorum = 2;
  std::int64_t downAfterMs = 5000;
  std::int64_t failoverTimeoutMs = 60000;
  int parallelSyncs = 1;
  std::string masterName = "mymaster";
  std::vector<std::pair<std::string, std::string>> redisConfig;  // on every redis node
  std::string password;            // requirepass and masterauth on every redis node
  bool sentinelAuthPass = true;    // give the sentinels that password as auth-pass
  bool persistentVolume = false;
  // Sentinels start already knowing the replicas and each other, as a sentinel.conf that
  // has run before would; otherwise they discover them (INFO, hellos) in the first seconds.
  bool warmSentinels = false;
  // false: the sentinels are created down, for the caller to start (e.g. once the replicas
  // are linked, as a harness that launches them one after the other would).
  bool startSentinels = true;
};

class Topology {
 public:
  Topology(RedisSim& sim, TopologyOptions opts);

  static RedisEndpoint redisEp(int i);     // 10.0.0.<i+1>:6379
  static RedisEndpoint sentinelEp(int i);  // 10.0.1.<i+1>:26379
  static constexpr const char* kClientIp = "10.0.9.1";

  const TopologyOptions& options() const { return opts_; }
  int redisCount() const { return opts_.replicas + 1; }
  int sentinelCount() const { return opts_.sentinels; }
  RedisNode& redis(int i) const;
  SentinelNode& sentinel(int i) const;
  RedisSim& sim() const { return sim_; }

  // Bit i set: sentinel i is left out of agreedMaster and converged.
  using SentinelMask = unsigned;
  // The master all running sentinels report, when they agree (and at least one runs).
  std::optional<RedisEndpoint> agreedMaster(SentinelMask ignored = 0) const;
  // Converged: the sentinels agree on a master, none is failing over, that node runs as a
  // master, every other running redis node is its replica with the link up, and no other
  // node calls itself master. `why` says what is missing.
  bool converged(std::string* why = nullptr, SentinelMask ignored = 0) const;
  // Every running sentinel lists exactly the running replicas and the other sentinels.
  bool sentinelListsExact(std::string* why = nullptr) const;

 private:
  RedisSim& sim_;
  TopologyOptions opts_;
};

}  // namespace kun::redissim
