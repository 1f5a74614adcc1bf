#include "core/redis/sentinel_parser.h"

#include <charconv>

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

// One entry's [k1, v1, k2, v2, ...] in place: keys and values point into the reply, except
// integer values, written out in `numbers` (reserved up front, so the views into it stay
// valid). The lists are read on every reconcile (three sentinels, a line per replica), so
// nothing is copied and no map is built unless asked for.
struct FlatFields {
  std::vector<std::pair<std::string_view, std::string_view>> items;
  std::vector<std::string> numbers;
  const std::string_view* find(std::string_view key) const {
    for (const auto& [k, v] : items)
      if (k == key) return &v;
    return nullptr;
  }
  SentinelFieldList toList() const {
    SentinelFieldList l;
    l.items.reserve(items.size());
    for (const auto& [k, v] : items) l.items.emplace_back(k, v);
    return l;
  }
};

Result<FlatFields> flatFields(const RedisReply& reply) {
  if (reply.type != RedisReply::Type::Array) {
    return unexpectedReply("SENTINEL", "a flat key/value array", reply);
  }
  if (reply.elements.size() % 2 != 0) {
    return makeError(Reason::Invalid, "SENTINEL: key/value array has an odd number of elements");
  }
  FlatFields out;
  out.items.reserve(reply.elements.size() / 2);
  std::size_t integers = 0;
  for (std::size_t i = 1; i < reply.elements.size(); i += 2)
    if (reply.elements[i].type == RedisReply::Type::Integer) ++integers;
  out.numbers.reserve(integers);
  for (std::size_t i = 0; i < reply.elements.size(); i += 2) {
    const auto& k = reply.elements[i];
    const auto& v = reply.elements[i + 1];
    if (!isText(k)) return makeError(Reason::Invalid, "SENTINEL: a key is not a string");
    if (isText(v)) {
      out.items.emplace_back(k.str, v.str);
    } else if (v.type == RedisReply::Type::Integer) {
      out.numbers.push_back(std::to_string(v.integer));
      out.items.emplace_back(k.str, out.numbers.back());
    } else {
      return makeError(Reason::Invalid, "SENTINEL: value of " + k.str + " is not a string", k.str);
    }
  }
  return out;
}

// Reads typed fields from one entry, remembering the first bad number.
class FieldReader {
 public:
  FieldReader(const FlatFields& f, std::string_view what) : f_(f), what_(what) {}

  void str(const char* key, std::string& out) {
    if (const std::string_view* v = f_.find(key)) out = std::string(*v);
  }
  template <class Int>
  void num(const char* key, Int& out) {
    const std::string_view* v = f_.find(key);
    if (v == nullptr || !error_.empty()) return;
    if (!toInt(*v, out)) {
      error_ = key;
      bad_ = *v;
    }
  }
  template <class Int>
  void optNum(const char* key, std::optional<Int>& out) {
    if (f_.find(key) == nullptr) return;
    Int v{};
    num(key, v);
    out = v;
  }
  void flags(SentinelFlags& out) {
    if (const std::string_view* v = f_.find("flags")) out = SentinelFlags::parse(*v);
  }
  Status status() const {
    if (error_.empty()) return {};
    return makeError(Reason::Invalid, std::string(what_) + ": field " + error_ + " is not a number: '" + bad_ + "'",
                     error_);
  }

 private:
  const FlatFields& f_;
  std::string_view what_;
  std::string error_;
  std::string bad_;
};

Result<SentinelMasterInfo> masterFrom(const FlatFields& f) {
  SentinelMasterInfo m;
  FieldReader r(f, "SENTINEL MASTER");
  r.str("name", m.name);
  r.str("ip", m.ip);
  r.num("port", m.port);
  r.str("runid", m.runId);
  r.flags(m.flags);
  r.str("failover-state", m.failoverState);
  r.num("link-pending-commands", m.linkPendingCommands);
  r.num("last-ping-sent", m.lastPingSentMs);
  r.num("last-ok-ping-reply", m.lastOkPingReplyMs);
  r.num("last-ping-reply", m.lastPingReplyMs);
  r.optNum("s-down-time", m.sDownTimeMs);
  r.optNum("o-down-time", m.oDownTimeMs);
  r.num("down-after-milliseconds", m.downAfterMs);
  r.num("info-refresh", m.infoRefreshMs);
  r.str("role-reported", m.roleReported);
  r.num("config-epoch", m.configEpoch);
  r.num("num-slaves", m.numSlaves);
  r.num("num-other-sentinels", m.numOtherSentinels);
  r.num("quorum", m.quorum);
  r.num("failover-timeout", m.failoverTimeoutMs);
  r.num("parallel-syncs", m.parallelSyncs);
  if (Status s = r.status(); !s) return s.error();
  m.fields = f.toList();
  return m;
}

Result<SentinelReplicaInfo> replicaFrom(const FlatFields& f) {
  SentinelReplicaInfo s;
  FieldReader r(f, "SENTINEL REPLICAS");
  r.str("name", s.name);
  r.str("ip", s.ip);
  r.num("port", s.port);
  r.str("runid", s.runId);
  r.flags(s.flags);
  r.num("last-ok-ping-reply", s.lastOkPingReplyMs);
  r.num("info-refresh", s.infoRefreshMs);
  r.str("role-reported", s.roleReported);
  r.num("master-link-down-time", s.masterLinkDownTimeMs);
  r.str("master-link-status", s.masterLinkStatus);
  r.str("master-host", s.masterHost);
  r.num("master-port", s.masterPort);
  r.num("slave-priority", s.slavePriority);
  r.num("slave-repl-offset", s.slaveReplOffset);
  int announced = s.replicaAnnounced ? 1 : 0;
  r.num("replica-announced", announced);
  s.replicaAnnounced = announced != 0;
  if (Status st = r.status(); !st) return st.error();
  return s;
}

Result<SentinelPeerInfo> peerFrom(const FlatFields& f) {
  SentinelPeerInfo p;
  FieldReader r(f, "SENTINEL SENTINELS");
  r.str("name", p.name);
  r.str("ip", p.ip);
  r.num("port", p.port);
  r.str("runid", p.runId);
  r.flags(p.flags);
  r.num("last-hello-message", p.lastHelloMessageMs);
  r.str("voted-leader", p.votedLeader);
  r.num("voted-leader-epoch", p.votedLeaderEpoch);
  if (Status s = r.status(); !s) return s.error();
  return p;
}

template <class T, class Build>
Result<std::vector<T>> listOf(const RedisReply& reply, std::string_view what, Build build) {
  if (reply.type != RedisReply::Type::Array) return unexpectedReply(what, "an array", reply);
  std::vector<T> out;
  out.reserve(reply.elements.size());
  for (const auto& e : reply.elements) {
    auto fields = flatFields(e);
    if (!fields) return fields.error();
    auto item = build(*fields);
    if (!item) return item.error();
    out.push_back(std::move(*item));
  }
  return out;
}

}  // namespace

const std::string* SentinelFieldList::find(std::string_view key) const {
  for (auto it = items.rbegin(); it != items.rend(); ++it)
    if (it->first == key) return &it->second;
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
  auto fields = flatFields(reply);
  if (!fields) return fields.error();
  return masterFrom(*fields);
}

Result<std::vector<SentinelMasterInfo>> parseSentinelMasters(const RedisReply& reply) {
  return listOf<SentinelMasterInfo>(reply, "SENTINEL MASTERS", masterFrom);
}

Result<std::vector<SentinelReplicaInfo>> parseSentinelReplicas(const RedisReply& reply) {
  return listOf<SentinelReplicaInfo>(reply, "SENTINEL REPLICAS", replicaFrom);
}

Result<std::vector<SentinelPeerInfo>> parseSentinelSentinels(const RedisReply& reply) {
  return listOf<SentinelPeerInfo>(reply, "SENTINEL SENTINELS", peerFrom);
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
