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
#include "core/redis/sentinel_keys.h"
#include "core/runtime/result.h"

namespace kun {

// "s_down,o_down,master,disconnected" and the like. Unknown flags are kept in `text`.
struct SentinelFlags {
  std::string text;  // as sent: one string, not one per name (read for every instance)
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
  // *this = parse(text), reusing text's buffer (the reader sets the flags of every entry).
  // A flag added above must be cleared there too.
  void assign(std::string_view text);
  bool has(std::string_view name) const;
  std::vector<std::string_view> names() const;  // the names in `text`, in order (no empty ones)
  bool down() const { return sDown || oDown; }
};

using SentinelFields = std::map<std::string, std::string>;

// Every field of one entry, in the order Sentinel sent them. One buffer and a small record
// per field rather than a map or a string per field: SENTINEL MASTER is read from every
// sentinel on every reconcile, and looked up only a few times. A key of kSentinelKeys is
// kept as its index, a number as the number: a value reads as text (a number as its
// decimal digits) only when asked for. A repeated key reads as its last value, as in a map
// built from the same reply.
class SentinelFieldList {
 public:
  std::optional<std::string> find(std::string_view key) const;  // nullopt when absent
  std::string at(std::string_view key) const;  // std::out_of_range when absent
  std::string operator[](std::string_view key) const;  // "" when absent
  std::size_t size() const { return fields_.size(); }
  bool empty() const { return fields_.empty(); }
  std::string_view key(std::size_t i) const;
  std::string value(std::size_t i) const;

  // Inline: the reader adds every field of every SENTINEL MASTER entry. `key` is an index
  // of kSentinelKeys, or kSentinelKeys.size() for a key of none (then `text` is that key).
  void add(std::size_t key, std::string_view text, std::string_view value) {
    const bool named = key < kSentinelKeys.size();
    if (!named) text_.append(text);
    text_.append(value);
    fields_.push_back({0, end(), named ? 0u : static_cast<std::uint32_t>(text.size()),
                       static_cast<std::uint8_t>(key), false});
  }
  void add(std::size_t key, std::string_view text, std::int64_t value) {
    const bool named = key < kSentinelKeys.size();
    if (!named) text_.append(text);
    fields_.push_back({value, end(), named ? 0u : static_cast<std::uint32_t>(text.size()),
                       static_cast<std::uint8_t>(key), true});
  }
  void reserve(std::size_t fields, std::size_t bytes);
  // The same keys and values, in the same order (however each was handed over).
  bool operator==(const SentinelFieldList& o) const;

 private:
  struct Field {
    std::int64_t number;  // the value, when isNumber
    std::uint32_t end;    // where the field's text (its key unless named, its value unless a number) ends
    std::uint32_t keyLength;  // of the key's text; 0 when named
    std::uint8_t key;     // its index in kSentinelKeys, or kSentinelKeys.size() for another key
    bool isNumber;
  };
  std::uint32_t end() const { return static_cast<std::uint32_t>(text_.size()); }
  std::uint32_t begin(std::size_t i) const { return i == 0 ? 0 : fields_[i - 1].end; }

  std::string text_;  // per field, back to back: the key unless named, the value unless a number
  std::vector<Field> fields_;
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
Result<std::vector<SentinelMasterInfo>> parseSentinelMasters(const RedisReply& reply);
Result<std::vector<SentinelReplicaInfo>> parseSentinelReplicas(const RedisReply& reply);
Result<std::vector<SentinelPeerInfo>> parseSentinelSentinels(const RedisReply& reply);

// Reads the instances of one kind (Info: SentinelMasterInfo, SentinelReplicaInfo or
// SentinelPeerInfo) from a field feed: the parse* functions above feed it a reply's
// elements, the simulator its instances directly (RedisAdmin::sentinelInstances). Either
// way the result is the same, field for field and error for error: a number handed over
// reads as its decimal text would (without writing it out where it is not kept).
//
// A sender that holds its fields by key (fieldAt, numberAt) is stored by the key's index
// with no compare, and may leave out the keys wantedKeys() does not list: the kind's own
// (a master keeps every field, so it wants them all).
template <class Info>
class SentinelReader final : public SentinelFieldSink {
 public:
  void beginEntry() override;
  void field(std::string_view key, std::string_view value) override;
  void number(std::string_view key, std::int64_t value) override;
  void endEntry() override;
  void fieldAt(std::size_t key, std::string_view value) override;
  void numberAt(std::size_t key, std::int64_t value) override;
  SentinelKeySet wantedKeys() const override;

  // An entry that failed the parse: its error, as the parse* function reports it.
  bool failed() const { return !error_.message.empty(); }
  // Every entry read (SENTINEL REPLICAS, SENTINELS, MASTERS), or the first error.
  Result<std::vector<Info>> takeAll();
  // The one entry of a SENTINEL MASTER reply (an Internal error if not fed exactly one).
  Result<Info> takeOne();
  // The same into `into` (left as it was on an error): one move where the Result and the
  // caller's copy of it make two.
  Status takeOne(Info& into);

 private:
  static constexpr std::size_t kNoKey = ~std::size_t{0};
  // The value of the key at index `key` of kSentinelKeys (its size: none of them), as text
  // or as the number the sender held; `text` is the key as sent (kept in a master's fields).
  template <class V>
  void take(std::size_t key, std::string_view text, V value);
  // The index of `key`: senders list the keys in one order, so the key after the last one
  // found is tried before the search.
  std::size_t indexOf(std::string_view key);
  // Why takeOne fails (ok when it does not).
  Status checkOne() const;

  std::vector<Info> out_;
  SentinelKeySet seen_ = 0;  // keys the entry being read has given
  std::size_t next_ = 0;     // the index after the last key found
  std::size_t badKey_ = kNoKey;  // its first field, in key order, whose number is bad
  std::string badText_;
  Error error_;
};

extern template class SentinelReader<SentinelMasterInfo>;
extern template class SentinelReader<SentinelReplicaInfo>;
extern template class SentinelReader<SentinelPeerInfo>;

// One reply entry ([k1, v1, ...]) into a reader, after the shape checks the parse* functions
// make (an array of an even count of text keys and text or integer values); the checks'
// error, and nothing fed, when it fails.
Status feedSentinelEntry(const RedisReply& entry, SentinelFieldSink& sink);

// SENTINEL GET-MASTER-ADDR-BY-NAME: [ip, port], or nil (nullopt) for an unknown name.
Result<std::optional<RedisEndpoint>> parseMasterAddr(const RedisReply& reply);

}  // namespace kun
