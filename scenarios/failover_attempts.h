#pragma once
// When each Sentinel failover attempt began, as the simulated sentinels announce it
// (+new-epoch then +try-failover, by the sentinel that starts one). The harness samples
// the sentinels' views every few hundred milliseconds, so it sees a failover late; the
// write-loss classification needs the moment the attempt that won began, since what the
// old master acknowledged before that is on the replica Sentinel promotes — unless a
// replica was left behind, which is the operator's doing, not Sentinel's.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/runtime/time.h"

namespace kun::redissim {
class RedisSim;
}

namespace kun::scenario {

class FailoverAttempts {
 public:
  // Listens to every sentinel of sim, present and future, for as long as this lives.
  explicit FailoverAttempts(redissim::RedisSim& sim);
  ~FailoverAttempts();
  FailoverAttempts(const FailoverAttempts&) = delete;
  FailoverAttempts& operator=(const FailoverAttempts&) = delete;

  struct Attempt {
    TimePoint at;
    std::string masterIp;
    std::int64_t epoch = 0;
    // Asked for (SENTINEL FAILOVER: by the operator, or a pod's shutdown script), not
    // started by Sentinel itself on a master its quorum agreed was down.
    bool requested = false;
  };

  // The earliest attempt to fail over the master at masterIp under epoch, or failing that
  // the earliest attempt on that master after `since`.
  std::optional<Attempt> find(const std::string& masterIp, std::int64_t epoch, TimePoint since) const;

 private:
  void onEvent(const std::string& sentinel, const std::string& type, const std::string& msg);

  redissim::RedisSim& sim_;
  std::vector<Attempt> attempts_;
  std::map<std::string, std::int64_t> lastNewEpoch_;                 // by sentinel run id
  std::map<std::pair<std::string, std::string>, bool> objectivelyDown_;  // (sentinel, master ip)
};

}  // namespace kun::scenario
