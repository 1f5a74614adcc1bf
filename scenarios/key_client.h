#pragma once
// The scenario's application: writes and reads test keys through the master the Sentinels
// name, as a Sentinel-aware client does (ask a sentinel, then talk to the master it gives,
// if it is a master),
// from its own address through the network model. It remembers every acknowledged write,
// so a read, and the end of a run, can tell which acknowledged writes were lost.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/time.h"
#include "fakeapi/redis/sim_client.h"

namespace kun::scenario {

class ScenarioWorld;

struct AckedWrite {
  std::string value;
  TimePoint at;        // when the OK came back
  std::string master;  // the address that acknowledged it
};

struct LostWrite {
  std::string key;
  AckedWrite write;
  std::string found;  // what the master had instead ("" for nothing)
};

class KeyClient {
 public:
  // password(): the cluster's password now (changes with its spec).
  KeyClient(ScenarioWorld& world, std::string ns, std::string cluster, std::function<std::string()> password);
  ~KeyClient();
  KeyClient(const KeyClient&) = delete;
  KeyClient& operator=(const KeyClient&) = delete;

  // SET <prefix>-<i> for i in [0, n), one after another with `pause` between two, each
  // retried (every 200 ms, asking the sentinels again) until acknowledged or the timeout
  // (from the start of the step plus the pauses); returns how many were acknowledged.
  int write(const std::string& prefix, int n, Duration timeout, Duration pause = Duration::zero());
  // GET of the acknowledged keys among <prefix>-<i>; lost: acknowledged and not on the
  // master. false when the master could not be asked within the timeout.
  bool read(const std::string& prefix, int n, Duration timeout, std::vector<LostWrite>& lost);
  // Every acknowledged key, read back (the end of a run).
  bool readAll(Duration timeout, std::vector<LostWrite>& lost);

  std::size_t acknowledged() const { return acks_; }
  // key -> its last acknowledged write.
  const std::map<std::string, AckedWrite>& acknowledgedWrites() const { return acked_; }
  // Whether a node holding `value` under `key` has the key's acknowledged write: its value,
  // or one sent after it (which may have landed without its OK coming back).
  bool holds(const std::string& key, const std::string& value) const;
  // The cluster was deleted: what it acknowledged is no longer expected anywhere.
  void forgetWrites() {
    acked_.clear();
    tried_.clear();
  }

 private:
  // Runs one command against the master (asking the sentinels first) until it answers
  // with something other than an error reply, or the deadline.
  bool onMaster(std::vector<std::string> argv, TimePoint deadline, RedisReply& reply, std::string& master);
  bool readKeys(const std::vector<std::string>& keys, Duration timeout, std::vector<LostWrite>& lost);
  bool answeredAsMaster(const RedisEndpoint& at) const;
  std::vector<RedisEndpoint> sentinels();

  ScenarioWorld& world_;
  std::string ns_, cluster_;
  std::function<std::string()> password_;
  std::unique_ptr<redissim::SimClient> client_;
  std::map<std::string, AckedWrite> acked_;                  // key -> the last acknowledged write
  std::map<std::string, std::vector<std::string>> tried_;   // key -> values sent since that ack
  std::uint64_t seq_ = 0;
  std::size_t acks_ = 0;
  std::size_t nextSentinel_ = 0;
};

}  // namespace kun::scenario
