#include "core/redis/sentinel_parser.h"

#include <algorithm>
#include <array>
#include <charconv>

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

// One entry's values for the keys of a table, pointing into the reply: the first of a
// repeated key. Checks the entry's shape as parseSentinelFields does.
template <std::size_t N>
struct EntryValues {
  std::array<const RedisReply*, N> at{};

  Status collect(const RedisReply& entry, const KeyTable<N>& keys) {
    if (entry.type != RedisReply::Type::Array) {
      return unexpectedReply("SENTINEL", "a flat key/value array", entry);
    }
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
      const std::size_t slot = keys.indexOf(k.str);
      if (slot < N && at[slot] == nullptr) at[slot] = &v;
    }
    return {};
  }
};

// A value as text: integers written out, as Sentinel's own bulk strings would be.
std::string textOf(const RedisReply& v) {
  return v.type == RedisReply::Type::Integer ? std::to_string(v.integer) : v.str;
}

// Reads typed fields from one entry, remembering the first bad number.
template <std::size_t N>
class FieldReader {
 public:
  FieldReader(const KeyTable<N>& keys, const EntryValues<N>& values, std::string_view what)
      : keys_(keys), values_(values), what_(what) {}

  void str(std::size_t key, std::string& out) {
    if (const RedisReply* v = values_.at[key]) {
      if (v->type == RedisReply::Type::Integer) out = std::to_string(v->integer);
      else out = v->str;
    }
  }
  template <class Int>
  void num(std::size_t key, Int& out) {
    const RedisReply* v = values_.at[key];
    if (v == nullptr || !error_.empty()) return;
    const bool ok = v->type == RedisReply::Type::Integer ? toInt(std::to_string(v->integer), out) : toInt(v->str, out);
    if (!ok) {
      error_ = keys_.name(key);
      bad_ = textOf(*v);
    }
  }
  template <class Int>
  void optNum(std::size_t key, std::optional<Int>& out) {
    if (values_.at[key] == nullptr) return;
    Int v{};
    num(key, v);
    out = v;
  }
  void flags(std::size_t key, SentinelFlags& out) {
    if (const RedisReply* v = values_.at[key]) {
      if (v->type == RedisReply::Type::Integer) out = SentinelFlags::parse(std::to_string(v->integer));
      else out = SentinelFlags::parse(v->str);
    }
  }
  Status status() const {
    if (error_.empty()) return {};
    return makeError(Reason::Invalid, std::string(what_) + ": field " + error_ + " is not a number: '" + bad_ + "'",
                     error_);
  }

 private:
  const KeyTable<N>& keys_;
  const EntryValues<N>& values_;
  std::string_view what_;
  std::string error_;
  std::string bad_;
};

// One entry of a kind whose keys are K: its shape checked, then the fields every kind
// starts with (name, ip, port, runid, flags), then the kind's own (`rest`).
template <const auto& K, class Info, class Rest>
Status readEntry(const RedisReply& entry, std::string_view what, Info& info, Rest rest) {
  EntryValues<K.size()> values;
  if (Status s = values.collect(entry, K); !s) return s;
  FieldReader r(K, values, what);
  r.str(K.at("name"), info.name);
  r.str(K.at("ip"), info.ip);
  r.num(K.at("port"), info.port);
  r.str(K.at("runid"), info.runId);
  r.flags(K.at("flags"), info.flags);
  rest(r, info);
  return r.status();
}

constexpr KeyTable kMasterKeys({
    "name", "ip", "port", "runid", "flags", "failover-state", "link-pending-commands", "last-ping-sent",
    "last-ok-ping-reply", "last-ping-reply", "s-down-time", "o-down-time", "down-after-milliseconds", "info-refresh",
    "role-reported", "config-epoch", "num-slaves", "num-other-sentinels", "quorum", "failover-timeout",
    "parallel-syncs",
});

// The typed fields of a master entry (`fields` is left to the caller).
Status readMaster(const RedisReply& entry, SentinelMasterInfo& m) {
  return readEntry<kMasterKeys>(entry, "SENTINEL MASTER", m, [](auto& r, SentinelMasterInfo& m) {
    constexpr const auto& K = kMasterKeys;
    r.str(K.at("failover-state"), m.failoverState);
    r.num(K.at("link-pending-commands"), m.linkPendingCommands);
    r.num(K.at("last-ping-sent"), m.lastPingSentMs);
    r.num(K.at("last-ok-ping-reply"), m.lastOkPingReplyMs);
    r.num(K.at("last-ping-reply"), m.lastPingReplyMs);
    r.optNum(K.at("s-down-time"), m.sDownTimeMs);
    r.optNum(K.at("o-down-time"), m.oDownTimeMs);
    r.num(K.at("down-after-milliseconds"), m.downAfterMs);
    r.num(K.at("info-refresh"), m.infoRefreshMs);
    r.str(K.at("role-reported"), m.roleReported);
    r.num(K.at("config-epoch"), m.configEpoch);
    r.num(K.at("num-slaves"), m.numSlaves);
    r.num(K.at("num-other-sentinels"), m.numOtherSentinels);
    r.num(K.at("quorum"), m.quorum);
    r.num(K.at("failover-timeout"), m.failoverTimeoutMs);
    r.num(K.at("parallel-syncs"), m.parallelSyncs);
  });
}

// Every field of an already checked entry, in order, as text.
SentinelFieldList fieldList(std::vector<RedisReply> kv) {
  for (auto& e : kv) {
    if (e.type == RedisReply::Type::Integer) e = RedisReply::bulk(std::to_string(e.integer));
  }
  return SentinelFieldList{std::move(kv)};
}

Status readMasterEntry(const RedisReply& entry, SentinelMasterInfo& m) {
  if (Status s = readMaster(entry, m); !s) return s;
  m.fields = fieldList(entry.elements);
  return {};
}

constexpr KeyTable kReplicaKeys({
    "name", "ip", "port", "runid", "flags", "last-ok-ping-reply", "info-refresh", "role-reported",
    "master-link-down-time", "master-link-status", "master-host", "master-port", "slave-priority",
    "slave-repl-offset", "replica-announced",
});

Status readReplica(const RedisReply& entry, SentinelReplicaInfo& s) {
  return readEntry<kReplicaKeys>(entry, "SENTINEL REPLICAS", s, [](auto& r, SentinelReplicaInfo& s) {
    constexpr const auto& K = kReplicaKeys;
    r.num(K.at("last-ok-ping-reply"), s.lastOkPingReplyMs);
    r.num(K.at("info-refresh"), s.infoRefreshMs);
    r.str(K.at("role-reported"), s.roleReported);
    r.num(K.at("master-link-down-time"), s.masterLinkDownTimeMs);
    r.str(K.at("master-link-status"), s.masterLinkStatus);
    r.str(K.at("master-host"), s.masterHost);
    r.num(K.at("master-port"), s.masterPort);
    r.num(K.at("slave-priority"), s.slavePriority);
    r.num(K.at("slave-repl-offset"), s.slaveReplOffset);
    int announced = s.replicaAnnounced ? 1 : 0;
    r.num(K.at("replica-announced"), announced);
    s.replicaAnnounced = announced != 0;
  });
}

constexpr KeyTable kPeerKeys({
    "name", "ip", "port", "runid", "flags", "last-hello-message", "voted-leader", "voted-leader-epoch",
});

Status readPeer(const RedisReply& entry, SentinelPeerInfo& p) {
  return readEntry<kPeerKeys>(entry, "SENTINEL SENTINELS", p, [](auto& r, SentinelPeerInfo& p) {
    constexpr const auto& K = kPeerKeys;
    r.num(K.at("last-hello-message"), p.lastHelloMessageMs);
    r.str(K.at("voted-leader"), p.votedLeader);
    r.num(K.at("voted-leader-epoch"), p.votedLeaderEpoch);
  });
}

// Each entry is read in place into the list: nothing is built to be moved.
template <class T>
Result<std::vector<T>> listOf(const RedisReply& reply, std::string_view what, Status (*read)(const RedisReply&, T&)) {
  if (reply.type != RedisReply::Type::Array) return unexpectedReply(what, "an array", reply);
  std::vector<T> out;
  out.reserve(reply.elements.size());
  for (const auto& e : reply.elements)
    if (Status s = read(e, out.emplace_back()); !s) return s.error();
  return out;
}
}  // namespace

const std::string* SentinelFieldList::find(std::string_view key) const {
  for (std::size_t i = kv.size() / 2; i-- > 0;)
    if (kv[2 * i].str == key) return &kv[2 * i + 1].str;
  return nullptr;
}

const std::string& SentinelFieldList::at(std::string_view key) const {
  if (const std::string* v = find(key)) return *v;
  throw std::out_of_range("no SENTINEL field " + std::string(key));
}

std::string SentinelFieldList::operator[](std::string_view key) const {
  const std::string* v = find(key);
  return v ? *v : std::string();
}

SentinelFlags SentinelFlags::parse(std::string_view text) {
  SentinelFlags f;
  if (!text.empty()) f.names.reserve(static_cast<std::size_t>(std::count(text.begin(), text.end(), ',')) + 1);
  while (!text.empty()) {
    auto comma = text.find(',');
    std::string_view n = text.substr(0, comma);
    text = comma == std::string_view::npos ? std::string_view{} : text.substr(comma + 1);
    if (n.empty()) continue;
    f.names.emplace_back(n);
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
  }
  return f;
}

bool SentinelFlags::has(std::string_view name) const {
  for (const auto& n : names) {
    if (n == name) return true;
  }
  return false;
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
  SentinelMasterInfo m;
  if (Status s = readMasterEntry(reply, m); !s) return s.error();
  return m;
}

Result<SentinelMasterInfo> parseSentinelMaster(RedisReply&& reply) {
  SentinelMasterInfo m;
  if (Status s = readMaster(reply, m); !s) return s.error();
  m.fields = fieldList(std::move(reply.elements));
  return m;
}

Result<std::vector<SentinelMasterInfo>> parseSentinelMasters(const RedisReply& reply) {
  return listOf<SentinelMasterInfo>(reply, "SENTINEL MASTERS", readMasterEntry);
}

Result<std::vector<SentinelReplicaInfo>> parseSentinelReplicas(const RedisReply& reply) {
  return listOf<SentinelReplicaInfo>(reply, "SENTINEL REPLICAS", readReplica);
}

Result<std::vector<SentinelPeerInfo>> parseSentinelSentinels(const RedisReply& reply) {
  return listOf<SentinelPeerInfo>(reply, "SENTINEL SENTINELS", readPeer);
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
