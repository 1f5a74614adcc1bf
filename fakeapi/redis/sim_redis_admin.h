#pragma once
// RedisAdmin over the simulator: the operator's blocking command, sent from the
// operator's address through the network model. Unreachable (cut link, lost packet,
// hung process) is a Timeout, nothing listening is Unavailable ("Connection refused"),
// as hiredis reports them.
//
// Simplification: the call takes no virtual time (a blocking call cannot let the event
// loop run); reachability is checked both ways at the call. A command sent to a hung
// process times out here but still runs when the process resumes, as a command sitting in
// its socket buffer would.
#include <cstdint>
#include <optional>
#include <string>
#include <unordered_map>
#include <utility>

#include "core/redis/redis_admin.h"
#include "core/runtime/trace.h"
#include "fakeapi/redis/fabric.h"

namespace kun::redissim {

// True for commands that only read (INFO, PING, ROLE, CONFIG GET, SENTINEL MASTERS, ...).
bool isReadOnlyCommand(const Argv& argv);
// The command as the trace shows it, with passwords replaced by "******".
std::string redactedCommand(const Argv& argv);

class SimRedisAdmin final : public RedisAdmin {
 public:
  SimRedisAdmin(Fabric& fabric, std::string clientIp, Trace* trace = nullptr);

  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password = {}) override;
  Result<std::optional<RedisReply>> sentinelInstances(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                                      SentinelFieldSink& sink) override;
  Result<std::optional<RedisReply>> replicationInfo(const RedisEndpoint& to, std::string_view password,
                                                    ReplicationInfo& out) override;

  const std::string& clientIp() const { return clientIp_; }
  std::uint64_t calls() const { return calls_; }
  // Calls whose command changes state (see isReadOnlyCommand).
  std::uint64_t stateChangingCalls() const { return writes_; }

 private:
  template <class Run>
  auto send(const RedisEndpoint& to, const Argv& argv, std::string_view password, Run run)
      -> Result<decltype(run(std::declval<SimProcess*>()))>;

  // NetworkModel::intern(host), which never changes for an address, kept by host: intern
  // searches a sorted table of every address, and every command looks its server up.
  NetNodeId nodeOf(const std::string& host);

  Fabric& fabric_;
  std::string clientIp_;
  NetNodeId clientId_;
  std::unordered_map<std::string, NetNodeId> nodes_;
  Trace* trace_;
  std::uint64_t calls_ = 0, writes_ = 0;
};

}  // namespace kun::redissim
