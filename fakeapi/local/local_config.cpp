#include "fakeapi/local/local_config.h"

#include <fmt/format.h>

namespace kun::local {

namespace {

// Common to both: where to listen, where to connect from, and protected mode off (without
// a password it would refuse clients whose source is not 127.0.0.1 or ::1).
std::string networkLines(const RedisEndpoint& self, const std::string& dir) {
  return fmt::format(
      "bind {0}\n"
      "port {1}\n"
      "bind-source-addr {0}\n"
      "protected-mode no\n"
      "daemonize no\n"
      "dir {2}\n"
      "logfile {2}/server.log\n",
      self.host, self.port, dir);
}

}  // namespace

std::string redisConfigText(const RedisNodeConfig& c) {
  std::string out = networkLines(c.self, c.dir);
  out += fmt::format("replica-announce-ip {}\nreplica-announce-port {}\n", c.self.host, c.self.port);
  if (c.persistence) {
    out += "appendonly yes\nsave 3600 1 300 100 60 10000\n";
  } else {
    out += "appendonly no\nsave \"\"\n";
  }
  if (!c.password.empty()) {
    out += fmt::format("requirepass \"{0}\"\nmasterauth \"{0}\"\n", c.password);
  }
  if (c.replicaOf) out += fmt::format("replicaof {} {}\n", c.replicaOf->host, c.replicaOf->port);
  return out;
}

std::string sentinelConfigText(const SentinelNodeConfig& c) {
  std::string out = networkLines(c.self, c.dir);
  out += fmt::format(
      "sentinel announce-ip {0}\n"
      "sentinel announce-port {1}\n"
      "sentinel resolve-hostnames no\n"
      "sentinel monitor {2} {3} {4} {5}\n"
      "sentinel down-after-milliseconds {2} {6}\n"
      "sentinel failover-timeout {2} {7}\n"
      "sentinel parallel-syncs {2} {8}\n",
      c.self.host, c.self.port, c.masterName, c.master.host, c.master.port, c.quorum,
      c.downAfterMs, c.failoverTimeoutMs, c.parallelSyncs);
  if (!c.authPass.empty()) out += fmt::format("sentinel auth-pass {} \"{}\"\n", c.masterName, c.authPass);
  return out;
}

}  // namespace kun::local
