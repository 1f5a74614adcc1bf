#pragma once
// Sentinel replies, typed. SENTINEL MASTER answers one flat [key, value, key, value, ...]
// array; MASTERS, REPLICAS (SLAVES) and SENTINELS answer an array of those. Every typed
// struct keeps all the fields it was built from in `fields`, so nothing Sentinel adds is
// lost. Numbers Sentinel sends as strings are parsed; a missing key keeps its default.
#include <cstdint>
#include <map>
#include <optional>
#include <stdexcept>
#include <string>
#include <string_view>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"

namespace kun {

// "s_down,o_down,master,disconnected" and the like. Unknown flags are kept in `names`.
struct SentinelFlags {
  std::vector<std::string> names;
  bool master = false;
  bool slave = false;
  bool sentinel = false;
  bool sDown = false;
  bool oDown = false;
  bool masterDown = false;          // "master_down": a replica whose link to its master is down
  bool disconnected = false;
  bool failoverInProgress = false;
  bool promoted = false;
  bool reconfSent = false;
  bool reconfInprog = false;
  bool reconfDone = false;
  bool forceFailover = false;

  static SentinelFlags parse(std::string_view text);
  bool has(std::string_view name) const;
  bool down() const { return sDown || oDown; }
};

using SentinelFields = std::map<std::string, std::string>;

// Every field of one entry, in the order Sentinel sent them. A flat list rather than a map:
// SENTINEL MASTER is read from every sentinel on every reconcile, and looked up only a few
// times. A repeated key reads as its last value, as in a map built from the same reply.
struct SentinelFieldList {
  // [k1, v1, k2, v2, ...]: the reply's own elements, all text (integers written out), so
  // that a parser given the reply takes them over without copying a string.
  std::vector<RedisReply> kv;

  const std::string* find(std::string_view key) const;  // nullptr when absent
  const std::string& at(std::string_view key) const;    // std::out_of_range when absent
  std::string operator[](std::string_view key) const;   // "" when absent
  std::size_t size() const { return kv.size() / 2; }
  bool empty() const { return kv.empty(); }
};

// [k1, v1, k2, v2, ...] -> map. Invalid for an odd count or non-string elements.
Result<SentinelFields> parseSentinelFields(const RedisReply& reply);

struct SentinelMasterInfo {
  std::string name;
  std::string ip;
  int port = 0;
  std::string runId;
  SentinelFlags flags;
  std::string failoverState;        // present only while a failover is in progress
  std::int64_t linkPendingCommands = 0;
  std::int64_t lastPingSentMs = 0;
  std::int64_t lastOkPingReplyMs = 0;
  std::int64_t lastPingReplyMs = 0;
  std::optional<std::int64_t> sDownTimeMs;
  std::optional<std::int64_t> oDownTimeMs;
  std::int64_t downAfterMs = 0;
  std::int64_t infoRefreshMs = 0;
  std::string roleReported;
  std::int64_t configEpoch = 0;
  int numSlaves = 0;
  int numOtherSentinels = 0;
  int quorum = 0;
  std::int64_t failoverTimeoutMs = 0;
  int parallelSyncs = 0;
  SentinelFieldList fields;

  RedisEndpoint endpoint() const { return {ip, port}; }
};

struct SentinelReplicaInfo {
  std::string name;   // "ip:port"
  std::string ip;
  int port = 0;
  std::string runId;
  SentinelFlags flags;
  std::int64_t lastOkPingReplyMs = 0;
  std::int64_t infoRefreshMs = 0;
  std::string roleReported;
  std::int64_t masterLinkDownTimeMs = 0;
  std::string masterLinkStatus;     // "ok" or "err"
  std::string masterHost;
  int masterPort = 0;
  int slavePriority = 100;
  std::int64_t slaveReplOffset = 0;
  bool replicaAnnounced = true;
  // Not kept (empty): replica lists are read on every reconcile; the typed fields above
  // are what the operator uses.
  SentinelFields fields;

  RedisEndpoint endpoint() const { return {ip, port}; }
};

struct SentinelPeerInfo {
  std::string name;   // the peer's run id
  std::string ip;
  int port = 0;
  std::string runId;
  SentinelFlags flags;
  std::int64_t lastHelloMessageMs = 0;
  std::string votedLeader;          // "?" when none
  std::int64_t votedLeaderEpoch = 0;
  // Not kept (empty): sentinel lists are read on every reconcile; the typed fields above
  // are what the operator uses.
  SentinelFields fields;

  RedisEndpoint endpoint() const { return {ip, port}; }
};

Result<SentinelMasterInfo> parseSentinelMaster(const RedisReply& reply);
// The same, for a caller done with the reply: `fields` takes its strings instead of copies.
Result<SentinelMasterInfo> parseSentinelMaster(RedisReply&& reply);
Result<std::vector<SentinelMasterInfo>> parseSentinelMasters(const RedisReply& reply);
Result<std::vector<SentinelReplicaInfo>> parseSentinelReplicas(const RedisReply& reply);
Result<std::vector<SentinelPeerInfo>> parseSentinelSentinels(const RedisReply& reply);

// SENTINEL GET-MASTER-ADDR-BY-NAME: [ip, port], or nil (nullopt) for an unknown name.
Result<std::optional<RedisEndpoint>> parseMasterAddr(const RedisReply& reply);

}  // namespace kun
