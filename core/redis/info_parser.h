#pragma once
// INFO text -> sections of key/value pairs, and typed views of the sections the operator
// and the checks read (`# Replication`, `# Server`). The same parser reads real
// redis-server replies and the simulator's, so the simulator must write INFO as Redis does.
#include <cstdint>
#include <map>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/result.h"

namespace kun {

// Section names are lower-cased ("replication", "server"); keys are kept as written.
// A "key:value" line before any "# Section" header lands in section "".
struct InfoSections {
  std::map<std::string, std::map<std::string, std::string>> sections;

  // nullptr when the section or key is absent.
  const std::string* find(std::string_view section, std::string_view key) const;
  bool has(std::string_view section) const;
};

// Accepts "\r\n" or "\n" line ends; ignores blank lines and lines without ':'.
InfoSections parseInfo(std::string_view text);
// The value of `key` in an INFO text, whatever its section; nullopt when absent. For a
// caller that wants one field, not the whole parse.
std::optional<std::string_view> infoValue(std::string_view text, std::string_view key);

// One `slaveN:ip=...,port=...,state=...,offset=...,lag=...` line of a master's INFO.
struct InfoReplicaEntry {
  int index = 0;          // the N of slaveN
  std::string ip;
  int port = 0;
  std::string state;      // online, wait_bgsave, send_bulk, ...
  std::int64_t offset = 0;
  std::int64_t lag = 0;
};

struct ReplicationInfo {
  std::string role;  // "master" or "slave", as Redis reports it
  bool isMaster() const { return role == "master"; }
  bool isReplica() const { return role == "slave"; }

  // Master side (a replica reports connected_slaves too, for chained replicas).
  int connectedSlaves = 0;
  std::vector<InfoReplicaEntry> replicas;  // in slaveN order

  // Replica side; empty / defaults on a master.
  std::string masterHost;
  int masterPort = 0;
  std::string masterLinkStatus;            // "up" or "down"
  bool masterLinkUp() const { return masterLinkStatus == "up"; }
  std::int64_t masterLastIoSecondsAgo = -1;
  bool masterSyncInProgress = false;
  std::int64_t slaveReplOffset = 0;
  std::int64_t masterLinkDownSinceSeconds = -1;  // only while the link is down
  int slavePriority = 100;
  bool slaveReadOnly = true;

  // Both.
  std::string masterFailoverState;         // "no-failover", ...
  std::string masterReplid;
  std::string masterReplid2;
  std::int64_t masterReplOffset = 0;
  std::int64_t secondReplOffset = -1;
  bool replBacklogActive = false;
};

// Invalid (field = the INFO key) when `role` is missing or a number does not parse.
Result<ReplicationInfo> parseReplicationInfo(const InfoSections& info);
Result<ReplicationInfo> parseReplicationInfo(std::string_view infoText);

// "ip=127.0.0.2,port=6379,state=online,offset=42,lag=0" -> entry (index left 0).
Result<InfoReplicaEntry> parseInfoReplicaEntry(std::string_view value);

struct ServerInfo {
  std::string redisVersion;
  std::string redisMode;  // "standalone", "sentinel", "cluster"
  std::string runId;
  std::int64_t processId = 0;
  int tcpPort = 0;
  std::int64_t uptimeInSeconds = 0;
};

Result<ServerInfo> parseServerInfo(const InfoSections& info);

}  // namespace kun
