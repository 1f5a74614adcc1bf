#pragma once
// The ROLE reply, typed. Redis 7 answers:
//   master:   ["master", offset, [[ip, "port", "offset"], ...]]
//   replica:  ["slave", master-ip, master-port, state, offset]
//   sentinel: ["sentinel", [master-name, ...]]
#include <cstdint>
#include <string>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"

namespace kun {

struct RoleInfo {
  enum class Kind { Master, Replica, Sentinel };
  Kind kind = Kind::Master;

  struct Replica {
    std::string ip;
    int port = 0;
    std::int64_t offset = 0;
  };
  // Master.
  std::int64_t masterReplOffset = 0;
  std::vector<Replica> replicas;

  // Replica. linkState is "connect", "connecting", "sync" or "connected"; offset is -1
  // until the first sync.
  std::string masterHost;
  int masterPort = 0;
  std::string linkState;
  std::int64_t replicaOffset = -1;

  // Sentinel.
  std::vector<std::string> monitoredMasters;
};

// An Error reply passes through errorFromReply; any other wrong shape is Invalid.
Result<RoleInfo> parseRole(const RedisReply& reply);

}  // namespace kun
