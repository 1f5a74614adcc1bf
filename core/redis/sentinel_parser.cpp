#include "core/redis/sentinel_parser.h"

#include <algorithm>
#include <array>
#include <charconv>
#include <limits>

#include "core/redis/key_table.h"
#include "core/redis/reply_error.h"

namespace kun {

namespace {

bool isText(const RedisReply& r) {
  return r.type == RedisReply::Type::String || r.type == RedisReply::Type::Status;
}

template <class Int>
bool toInt(std::string_view s, Int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// The common fields come first, at the same indices for every kind (setCommon).
constexpr const auto& K = kSentinelKeys;
static_assert(K.at("name") == 0 && K.at("ip") == 1 && K.at("port") == 2 && K.at("runid") == 3 &&
              K.at("flags") == 4);

// The set of `keys`.
template <std::size_t N>
consteval SentinelKeySet keySet(const std::string_view (&keys)[N]) {
  SentinelKeySet set = 0;
  for (std::string_view k : keys) set |= sentinelKeyBit(K.at(k));
  return set;
}

// A value as it came: text (a reply's element) or a number the sender held (the simulator).
// A number reads as its decimal text would: kept as that text in a text field, and in a
// numeric field the same number when the field's type holds it, else not a number.
struct Digits {
  explicit Digits(std::int64_t v) : len(static_cast<std::size_t>(std::to_chars(buf, buf + sizeof buf, v).ptr - buf)) {}
  std::string_view view() const { return {buf, len}; }
  char buf[24];
  std::size_t len;
};

template <class Int>
bool toInt(std::int64_t v, Int& out) {
  if (v < std::numeric_limits<Int>::min() || v > std::numeric_limits<Int>::max()) return false;
  out = static_cast<Int>(v);
  return true;
}

void assignText(std::string& out, std::string_view v) { out.assign(v); }
void assignText(std::string& out, std::int64_t v) { out.assign(Digits(v).view()); }

void assignFlags(SentinelFlags& out, std::string_view v) { out.assign(v); }
void assignFlags(SentinelFlags& out, std::int64_t v) { out.assign(Digits(v).view()); }

template <class Int, class V>
bool optNum(V v, std::optional<Int>& out) {
  Int n{};
  const bool ok = toInt(v, n);
  out = n;
  return ok;
}

// Sets the field of `key` from its value; false when it is a number that does not parse.
// Called for the common keys only.
template <class Info, class V>
bool setCommon(Info& info, std::size_t key, V v) {
  switch (key) {
    case 0: assignText(info.name, v); return true;
    case 1: assignText(info.ip, v); return true;
    case 2: return toInt(v, info.port);
    case 3: assignText(info.runId, v); return true;
    default: assignFlags(info.flags, v); return true;
  }
}

constexpr SentinelKeySet kCommonKeys = keySet({"name", "ip", "port", "runid", "flags"});

// What differs between the kinds: how the error names the command, whether every field is
// kept (`fields`), the keys read into the kind's own fields (kReads) and how (set: called
// for those and the common keys only). The indices of kSentinelKeys order a kind's numeric
// fields as they were read when each was once looked up in turn (the first bad one is
// reported): port first, then the table's order.
template <class Info>
struct Kind;

template <>
struct Kind<SentinelMasterInfo> {
  static constexpr std::string_view kWhat = "SENTINEL MASTER";
  static constexpr bool kKeepsFields = true;
  static constexpr SentinelKeySet kReads =
      kCommonKeys | keySet({"failover-state", "link-pending-commands", "last-ping-sent", "last-ok-ping-reply",
                            "last-ping-reply", "s-down-time", "o-down-time", "down-after-milliseconds",
                            "info-refresh", "role-reported", "config-epoch", "num-slaves", "num-other-sentinels",
                            "quorum", "failover-timeout", "parallel-syncs"});
  template <class V>
  static bool set(SentinelMasterInfo& m, std::size_t key, V v) {
    switch (key) {
      case K.at("failover-state"): assignText(m.failoverState, v); return true;
      case K.at("link-pending-commands"): return toInt(v, m.linkPendingCommands);
      case K.at("last-ping-sent"): return toInt(v, m.lastPingSentMs);
      case K.at("last-ok-ping-reply"): return toInt(v, m.lastOkPingReplyMs);
      case K.at("last-ping-reply"): return toInt(v, m.lastPingReplyMs);
      case K.at("s-down-time"): return optNum(v, m.sDownTimeMs);
      case K.at("o-down-time"): return optNum(v, m.oDownTimeMs);
      case K.at("down-after-milliseconds"): return toInt(v, m.downAfterMs);
      case K.at("info-refresh"): return toInt(v, m.infoRefreshMs);
      case K.at("role-reported"): assignText(m.roleReported, v); return true;
      case K.at("config-epoch"): return toInt(v, m.configEpoch);
      case K.at("num-slaves"): return toInt(v, m.numSlaves);
      case K.at("num-other-sentinels"): return toInt(v, m.numOtherSentinels);
      case K.at("quorum"): return toInt(v, m.quorum);
      case K.at("failover-timeout"): return toInt(v, m.failoverTimeoutMs);
      case K.at("parallel-syncs"): return toInt(v, m.parallelSyncs);
      default: return setCommon(m, key, v);
    }
  }
};

template <>
struct Kind<SentinelReplicaInfo> {
  static constexpr std::string_view kWhat = "SENTINEL REPLICAS";
  static constexpr bool kKeepsFields = false;
  static constexpr SentinelKeySet kReads =
      kCommonKeys | keySet({"last-ok-ping-reply", "info-refresh", "role-reported", "master-link-down-time",
                            "master-link-status", "master-host", "master-port", "slave-priority",
                            "slave-repl-offset", "replica-announced"});
  template <class V>
  static bool set(SentinelReplicaInfo& s, std::size_t key, V v) {
    switch (key) {
      case K.at("last-ok-ping-reply"): return toInt(v, s.lastOkPingReplyMs);
      case K.at("info-refresh"): return toInt(v, s.infoRefreshMs);
      case K.at("role-reported"): assignText(s.roleReported, v); return true;
      case K.at("master-link-down-time"): return toInt(v, s.masterLinkDownTimeMs);
      case K.at("master-link-status"): assignText(s.masterLinkStatus, v); return true;
      case K.at("master-host"): assignText(s.masterHost, v); return true;
      case K.at("master-port"): return toInt(v, s.masterPort);
      case K.at("slave-priority"): return toInt(v, s.slavePriority);
      case K.at("slave-repl-offset"): return toInt(v, s.slaveReplOffset);
      case K.at("replica-announced"): {
        int announced = s.replicaAnnounced ? 1 : 0;
        const bool ok = toInt(v, announced);
        s.replicaAnnounced = announced != 0;
        return ok;
      }
      default: return setCommon(s, key, v);
    }
  }
};

template <>
struct Kind<SentinelPeerInfo> {
  static constexpr std::string_view kWhat = "SENTINEL SENTINELS";
  static constexpr bool kKeepsFields = false;
  static constexpr SentinelKeySet kReads =
      kCommonKeys | keySet({"last-hello-message", "voted-leader", "voted-leader-epoch"});
  template <class V>
  static bool set(SentinelPeerInfo& p, std::size_t key, V v) {
    switch (key) {
      case K.at("last-hello-message"): return toInt(v, p.lastHelloMessageMs);
      case K.at("voted-leader"): assignText(p.votedLeader, v); return true;
      case K.at("voted-leader-epoch"): return toInt(v, p.votedLeaderEpoch);
      default: return setCommon(p, key, v);
    }
  }
};

template <class T>
Result<std::vector<T>> listOf(const RedisReply& reply, std::string_view what) {
  if (reply.type != RedisReply::Type::Array) return unexpectedReply(what, "an array", reply);
  SentinelReader<T> r;
  for (const auto& e : reply.elements) {
    if (Status s = feedSentinelEntry(e, r); !s) return s.error();
    if (r.failed()) break;
  }
  return r.takeAll();
}

}  // namespace

// An entry is read field by field as it comes; a number that does not parse is remembered
// and the entry fails at its end with the first such field in key order, the order in
// which the typed fields were once read one after another. The first of a repeated key is
// the one read.
template <class Info>
void SentinelReader<Info>::beginEntry() {
  // A cluster's lists are a few entries: room for them at once, not a move of each entry
  // read so far at every growth.
  if (out_.empty()) out_.reserve(4);
  Info& info = out_.emplace_back();
  // Room for every key Sentinel lists and its text values (a reply's are all text).
  if constexpr (Kind<Info>::kKeepsFields) info.fields.reserve(40, 512);
  seen_ = 0;
  next_ = 0;
  badKey_ = kNoKey;
}

// Inlined: it runs for every field of every entry read as text, and the call cost as much
// as the guess it makes.
template <class Info>
[[gnu::always_inline]] inline std::size_t SentinelReader<Info>::indexOf(std::string_view key) {
  const std::size_t i = K.is(next_, key) ? next_ : K.indexOf(key);
  if (i < K.size()) next_ = i + 1;
  return i;
}

template <class Info>
template <class V>
[[gnu::always_inline]] inline void SentinelReader<Info>::take(std::size_t key, std::string_view text, V value) {
  if (failed()) return;
  if constexpr (Kind<Info>::kKeepsFields) out_.back().fields.add(key, text, value);
  if (key >= K.size() || (Kind<Info>::kReads & sentinelKeyBit(key)) == 0 || (seen_ & sentinelKeyBit(key)) != 0)
    return;
  seen_ |= sentinelKeyBit(key);
  if (!Kind<Info>::set(out_.back(), key, value) && key < badKey_) {
    badKey_ = key;
    assignText(badText_, value);
  }
}

template <class Info>
void SentinelReader<Info>::field(std::string_view key, std::string_view value) {
  take(indexOf(key), key, value);
}

template <class Info>
void SentinelReader<Info>::number(std::string_view key, std::int64_t value) {
  take(indexOf(key), key, value);
}

template <class Info>
void SentinelReader<Info>::fieldAt(std::size_t key, std::string_view value) {
  take(key, {}, value);
}

template <class Info>
void SentinelReader<Info>::numberAt(std::size_t key, std::int64_t value) {
  take(key, {}, value);
}

template <class Info>
SentinelKeySet SentinelReader<Info>::wantedKeys() const {
  return Kind<Info>::kKeepsFields ? kAllSentinelKeys : Kind<Info>::kReads;
}

template <class Info>
void SentinelReader<Info>::endEntry() {
  if (failed() || badKey_ == kNoKey) return;
  const std::string_view name = K.name(badKey_);
  error_ = makeError(Reason::Invalid,
                     std::string(Kind<Info>::kWhat) + ": field " + std::string(name) + " is not a number: '" +
                         badText_ + "'",
                     std::string(name));
}

template <class Info>
Result<std::vector<Info>> SentinelReader<Info>::takeAll() {
  if (failed()) return error_;
  return std::move(out_);
}

template <class Info>
Status SentinelReader<Info>::checkOne() const {
  if (failed()) return error_;
  if (out_.size() != 1) return makeError(Reason::Internal, std::string(Kind<Info>::kWhat) + ": not one instance");
  return {};
}

template <class Info>
Result<Info> SentinelReader<Info>::takeOne() {
  if (Status s = checkOne(); !s.ok()) return s.error();
  return std::move(out_.front());
}

template <class Info>
Status SentinelReader<Info>::takeOne(Info& into) {
  if (Status s = checkOne(); !s.ok()) return s;
  into = std::move(out_.front());
  return {};
}

template class SentinelReader<SentinelMasterInfo>;
template class SentinelReader<SentinelReplicaInfo>;
template class SentinelReader<SentinelPeerInfo>;

Status feedSentinelEntry(const RedisReply& entry, SentinelFieldSink& sink) {
  if (entry.type != RedisReply::Type::Array) return unexpectedReply("SENTINEL", "a flat key/value array", entry);
  const auto& e = entry.elements;
  if (e.size() % 2 != 0) {
    return makeError(Reason::Invalid, "SENTINEL: key/value array has an odd number of elements");
  }
  for (std::size_t i = 0; i < e.size(); i += 2) {
    const auto& k = e[i];
    const auto& v = e[i + 1];
    if (!isText(k)) return makeError(Reason::Invalid, "SENTINEL: a key is not a string");
    if (!isText(v) && v.type != RedisReply::Type::Integer) {
      return makeError(Reason::Invalid, "SENTINEL: value of " + k.str + " is not a string", k.str);
    }
  }
  sink.beginEntry();
  for (std::size_t i = 0; i < e.size(); i += 2) {
    if (e[i + 1].type == RedisReply::Type::Integer) sink.number(e[i].str, e[i + 1].integer);
    else sink.field(e[i].str, e[i + 1].str);
  }
  sink.endEntry();
  return {};
}

void SentinelFieldList::reserve(std::size_t fields, std::size_t bytes) {
  fields_.reserve(fields);
  text_.reserve(bytes);
}

std::string_view SentinelFieldList::key(std::size_t i) const {
  const Field& f = fields_[i];
  if (f.key < kSentinelKeys.size()) return kSentinelKeys.name(f.key);
  return std::string_view(text_).substr(begin(i), f.keyLength);
}

std::string SentinelFieldList::value(std::size_t i) const {
  const Field& f = fields_[i];
  if (f.isNumber) return std::string(Digits(f.number).view());
  const std::uint32_t from = begin(i) + f.keyLength;
  return text_.substr(from, f.end - from);
}

bool SentinelFieldList::operator==(const SentinelFieldList& o) const {
  if (size() != o.size()) return false;
  for (std::size_t i = 0; i < size(); ++i)
    if (key(i) != o.key(i) || value(i) != o.value(i)) return false;
  return true;
}

std::optional<std::string> SentinelFieldList::find(std::string_view key) const {
  for (std::size_t i = size(); i-- > 0;)
    if (this->key(i) == key) return value(i);
  return std::nullopt;
}

std::string SentinelFieldList::at(std::string_view key) const {
  if (auto v = find(key)) return std::move(*v);
  throw std::out_of_range("no SENTINEL field " + std::string(key));
}

std::string SentinelFieldList::operator[](std::string_view key) const {
  auto v = find(key);
  return v ? std::move(*v) : std::string();
}

namespace {

// Calls fn(name) for each non-empty name of a comma-separated list, in order; stops when
// fn is true and is true then.
template <class Fn>
bool forEachName(std::string_view text, Fn fn) {
  while (!text.empty()) {
    const auto comma = text.find(',');
    const std::string_view n = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (!n.empty() && fn(n)) return true;
  }
  return false;
}

}  // namespace

SentinelFlags SentinelFlags::parse(std::string_view text) {
  SentinelFlags f;
  f.assign(text);
  return f;
}

void SentinelFlags::assign(std::string_view text) {
  // Every flag cleared in place: a fresh SentinelFlags assigned over this one would move
  // the text's buffer out and back for every entry read.
  master = slave = sentinel = sDown = oDown = masterDown = disconnected = false;
  failoverInProgress = promoted = reconfSent = reconfInprog = reconfDone = forceFailover = false;
  this->text.assign(text);
  SentinelFlags& f = *this;
  forEachName(text, [&f](std::string_view n) {
    if (n == "master") f.master = true;
    else if (n == "slave") f.slave = true;
    else if (n == "sentinel") f.sentinel = true;
    else if (n == "s_down") f.sDown = true;
    else if (n == "o_down") f.oDown = true;
    else if (n == "master_down") f.masterDown = true;
    else if (n == "disconnected") f.disconnected = true;
    else if (n == "failover_in_progress") f.failoverInProgress = true;
    else if (n == "promoted") f.promoted = true;
    else if (n == "reconf_sent") f.reconfSent = true;
    else if (n == "reconf_inprog") f.reconfInprog = true;
    else if (n == "reconf_done") f.reconfDone = true;
    else if (n == "force_failover") f.forceFailover = true;
    return false;
  });
}

bool SentinelFlags::has(std::string_view name) const {
  return forEachName(text, [name](std::string_view n) { return n == name; });
}

std::vector<std::string_view> SentinelFlags::names() const {
  std::vector<std::string_view> out;
  forEachName(text, [&out](std::string_view n) {
    out.push_back(n);
    return false;
  });
  return out;
}

Result<SentinelFields> parseSentinelFields(const RedisReply& reply) {
  if (reply.type != RedisReply::Type::Array) {
    return unexpectedReply("SENTINEL", "a flat key/value array", reply);
  }
  if (reply.elements.size() % 2 != 0) {
    return makeError(Reason::Invalid, "SENTINEL: key/value array has an odd number of elements");
  }
  SentinelFields out;
  for (std::size_t i = 0; i < reply.elements.size(); i += 2) {
    const auto& k = reply.elements[i];
    const auto& v = reply.elements[i + 1];
    if (!isText(k)) return makeError(Reason::Invalid, "SENTINEL: a key is not a string");
    if (isText(v)) {
      out[k.str] = v.str;
    } else if (v.type == RedisReply::Type::Integer) {
      out[k.str] = std::to_string(v.integer);
    } else {
      return makeError(Reason::Invalid, "SENTINEL: value of " + k.str + " is not a string", k.str);
    }
  }
  return out;
}

Result<SentinelMasterInfo> parseSentinelMaster(const RedisReply& reply) {
  SentinelReader<SentinelMasterInfo> r;
  if (Status s = feedSentinelEntry(reply, r); !s) return s.error();
  return r.takeOne();
}

Result<std::vector<SentinelMasterInfo>> parseSentinelMasters(const RedisReply& reply) {
  return listOf<SentinelMasterInfo>(reply, "SENTINEL MASTERS");
}

Result<std::vector<SentinelReplicaInfo>> parseSentinelReplicas(const RedisReply& reply) {
  return listOf<SentinelReplicaInfo>(reply, "SENTINEL REPLICAS");
}

Result<std::vector<SentinelPeerInfo>> parseSentinelSentinels(const RedisReply& reply) {
  return listOf<SentinelPeerInfo>(reply, "SENTINEL SENTINELS");
}

Result<std::optional<RedisEndpoint>> parseMasterAddr(const RedisReply& reply) {
  if (reply.type == RedisReply::Type::Nil) return std::optional<RedisEndpoint>{};
  if (reply.type != RedisReply::Type::Array) {
    return unexpectedReply("SENTINEL GET-MASTER-ADDR-BY-NAME", "[ip, port] or nil", reply);
  }
  if (reply.elements.size() != 2 || !isText(reply.elements[0]) || !isText(reply.elements[1])) {
    return makeError(Reason::Invalid, "SENTINEL GET-MASTER-ADDR-BY-NAME: expected [ip, port]");
  }
  RedisEndpoint ep;
  ep.host = reply.elements[0].str;
  if (!toInt(reply.elements[1].str, ep.port)) {
    return makeError(Reason::Invalid,
                     "SENTINEL GET-MASTER-ADDR-BY-NAME: port is not a number: '" +
                         reply.elements[1].str + "'");
  }
  return std::optional<RedisEndpoint>{std::move(ep)};
}

}  // namespace kun
