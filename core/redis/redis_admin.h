#pragma once
// The RedisAdmin seam: how the operator (and the checks) talk to Redis and Sentinel. One
// call sends one command and returns the reply as RESP, exactly as hiredis would give it,
// so every parser above this seam is the same against real and simulated nodes.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/redis/sentinel_keys.h"
#include "core/runtime/result.h"

namespace kun {

struct RedisEndpoint {
  std::string host;  // pod IP (or 127.x in local mode)
  int port = 6379;
  std::string toString() const { return host + ":" + std::to_string(port); }
  bool operator==(const RedisEndpoint&) const = default;
  auto operator<=>(const RedisEndpoint&) const = default;
};

// A RESP reply. An `Error` reply (e.g. "NOAUTH Authentication required.") is a reply, not
// a transport failure; transport failures (refused, unreachable, timeout) are Result errors.
struct RedisReply {
  enum class Type { Status, Error, Integer, String, Nil, Array };
  Type type = Type::Nil;
  std::string str;          // Status, Error, String
  std::int64_t integer = 0; // Integer
  std::vector<RedisReply> elements;  // Array

  static RedisReply status(std::string s) { return {Type::Status, std::move(s), 0, {}}; }
  static RedisReply error(std::string s) { return {Type::Error, std::move(s), 0, {}}; }
  static RedisReply integerReply(std::int64_t v) { return {Type::Integer, {}, v, {}}; }
  static RedisReply bulk(std::string s) { return {Type::String, std::move(s), 0, {}}; }
  static RedisReply nil() { return {}; }
  static RedisReply array(std::vector<RedisReply> e) { return {Type::Array, {}, 0, std::move(e)}; }

  bool isError() const { return type == Type::Error; }
  bool isOk() const { return type == Type::Status && str == "OK"; }
  // "NOAUTH", "WRONGPASS", "ERR", ... for an Error reply; "" otherwise.
  std::string errorCode() const;
};

struct ReplicationInfo;  // info_parser.h

// Takes the instances a SENTINEL MASTER, REPLICAS or SENTINELS reply lists (each a flat
// [key, value, ...] array) one field at a time, in reply order; see SentinelReader.
class SentinelFieldSink {
 public:
  virtual void beginEntry() = 0;
  virtual void field(std::string_view key, std::string_view value) = 0;
  // A value the sender holds as a number: the same as field(key, its decimal text).
  virtual void number(std::string_view key, std::int64_t value) = 0;
  virtual void endEntry() = 0;

  // For a sender that holds its fields by key (the simulator): the key kSentinelKeys.name(key)
  // by its index there, the same as field(name, value) and number(name, value).
  virtual void fieldAt(std::size_t key, std::string_view value) { field(kSentinelKeys.name(key), value); }
  virtual void numberAt(std::size_t key, std::int64_t value) { number(kSentinelKeys.name(key), value); }
  // The keys whose values make a difference to this sink: such a sender may leave the others
  // out (and need not work them out). A sink that reads every key, as the default, gets all.
  virtual SentinelKeySet wantedKeys() const { return kAllSentinelKeys; }

 protected:
  ~SentinelFieldSink() = default;
};

// Thread-safety is each implementation's to state. The reconciler calls it from every
// worker thread when the controller runs workers > 0: then it must be thread-safe (e.g. a
// PerThreadRedisAdmin over HiredisAdmin). The simulator's runs on its loop, workers == 0.
class RedisAdmin {
 public:
  virtual ~RedisAdmin() = default;
  // Sends argv to the node at `to`, authenticating first with `password` when it is not
  // empty (as a client connecting with AUTH would).
  virtual Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                     std::string_view password = {}) = 0;
  // SENTINEL MASTER|REPLICAS|SENTINELS <name> (argv), sent without a password, for a caller
  // that reads the instances listed. nullopt: the instances went to `sink` (an
  // implementation that holds them, the simulator, need not build the reply). Otherwise the
  // reply itself, which the sink has not seen: this default always answers that way.
  virtual Result<std::optional<RedisReply>> sentinelInstances(const RedisEndpoint& to,
                                                              const std::vector<std::string>& argv,
                                                              SentinelFieldSink& sink) {
    (void)sink;
    auto reply = command(to, argv);
    if (!reply.ok()) return reply.error();
    return std::optional<RedisReply>(std::move(*reply));
  }
  // INFO replication, sent with `password` as command() sends it, for a caller that reads
  // the fields parseReplicationInfo takes from it. nullopt: they went to `out` as that
  // parse gives them (an implementation that holds them, the simulator, need not write the
  // text). Otherwise the reply itself, `out` untouched: this default always answers that way.
  virtual Result<std::optional<RedisReply>> replicationInfo(const RedisEndpoint& to, std::string_view password,
                                                            ReplicationInfo& out) {
    (void)out;
    static const std::vector<std::string> kInfoReplication{"INFO", "replication"};
    auto reply = command(to, kInfoReplication, password);
    if (!reply.ok()) return reply.error();
    return std::optional<RedisReply>(std::move(*reply));
  }
};

}  // namespace kun
