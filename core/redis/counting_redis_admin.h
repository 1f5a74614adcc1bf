#pragma once
// A RedisAdmin that forwards every command to another one and counts what it sent, split
// into reads and state-changing commands (those that change a node's role, config, data
// or a sentinel's monitoring). The design promises that reconciling a healthy cluster
// sends only reads; the scenario tests hold the operator to it through this wrapper, and
// the same counts can feed a metric.
#include <cstdint>
#include <map>
#include <string>
#include <vector>

#include "core/redis/redis_admin.h"

namespace kun {

// "CONFIG SET", "SENTINEL RESET", "REPLICAOF", "INFO", ...: the command name, upper case,
// with its subcommand for the container commands (CONFIG, SENTINEL, CLIENT, ACL).
std::string redisCommandName(const std::vector<std::string>& argv);
// Whether the command changes the node it is sent to (REPLICAOF/SLAVEOF, CONFIG SET/
// REWRITE/RESETSTAT, SENTINEL MONITOR/REMOVE/SET/RESET/FAILOVER/FLUSHCONFIG/CONFIG SET,
// FAILOVER, SHUTDOWN, CLIENT KILL/PAUSE, data writes, SAVE/BGSAVE, ...).
bool isStateChanging(const std::vector<std::string>& argv);

class CountingRedisAdmin final : public RedisAdmin {
 public:
  explicit CountingRedisAdmin(RedisAdmin& inner) : inner_(inner) {}

  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password = {}) override;

  std::uint64_t total() const { return total_; }
  std::uint64_t stateChanging() const { return stateChanging_; }
  // Sent state-changing commands by name ("CONFIG SET" -> 3).
  const std::map<std::string, std::uint64_t>& stateChangingByName() const { return byName_; }
  // "CONFIG SET x3, REPLICAOF x1": for failure messages.
  std::string describeStateChanging() const;
  void reset();

 private:
  RedisAdmin& inner_;
  std::uint64_t total_ = 0;
  std::uint64_t stateChanging_ = 0;
  std::map<std::string, std::uint64_t> byName_;
};

}  // namespace kun
