#pragma once
// Config files for real redis-server / redis-sentinel on loopback. Each node gets its own
// 127.x address, as a pod gets its own IP: it binds there, connects out from there
// (bind-source-addr) and announces it (replica-announce-ip / sentinel announce-ip), so
// INFO, ROLE and every Sentinel table show the same addresses a cluster would.
#include <cstdint>
#include <optional>
#include <string>

#include "core/redis/redis_admin.h"

namespace kun::local {

struct RedisNodeConfig {
  RedisEndpoint self;
  std::string dir;                         // working directory (RDB/AOF, logs)
  std::optional<RedisEndpoint> replicaOf;  // start as a replica of this master
  bool persistence = false;                // false: save "" and appendonly no
  std::string password;                    // requirepass + masterauth when not empty
};

struct SentinelNodeConfig {
  RedisEndpoint self;
  std::string dir;
  std::string masterName = "mymaster";
  RedisEndpoint master;
  int quorum = 2;
  std::int64_t downAfterMs = 5000;
  std::int64_t failoverTimeoutMs = 60000;
  int parallelSyncs = 1;
  std::string authPass;
};

std::string redisConfigText(const RedisNodeConfig& c);
std::string sentinelConfigText(const SentinelNodeConfig& c);

}  // namespace kun::local
