#pragma once
// A RedisAdmin that forwards every command to another one and counts what it sent, split
// into reads and state-changing commands (those that change a node's role, config, data
// or a sentinel's monitoring). The design promises that reconciling a healthy cluster
// sends only reads; the scenario tests hold the operator to it through this wrapper, and
// the same counts can feed a metric.
//
// Thread-safe when the inner admin is: the counts are locked (never across the command).
// stateChangingByName() hands out the map itself: read it while no command is being sent.
#include <cstdint>
#include <map>
#include <mutex>
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

  std::uint64_t total() const;
  std::uint64_t stateChanging() const;
  // Sent state-changing commands by name ("CONFIG SET" -> 3).
  const std::map<std::string, std::uint64_t>& stateChangingByName() const { return byName_; }
  // "CONFIG SET x3, REPLICAOF x1": for failure messages.
  std::string describeStateChanging() const;
  void reset();

 private:
  RedisAdmin& inner_;
  mutable std::mutex mu_;  // guards the counts
  std::uint64_t total_ = 0;
  std::uint64_t stateChanging_ = 0;
  std::map<std::string, std::uint64_t> byName_;
};

}  // namespace kun
