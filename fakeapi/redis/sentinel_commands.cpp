// The commands a Sentinel answers (PING, INFO, ROLE, SENTINEL ..., the hello PUBLISH,
// SUBSCRIBE to its event channels), with replies shaped as redis-sentinel 7.0 shapes them:
// instances as flat field/value arrays of bulk strings, errors worded as it words them.
#include <charconv>

#include <fmt/format.h>

#include "core/redis/sentinel_keys.h"
#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sentinel_node.h"
#include "fakeapi/redis/text_out.h"
#include "fakeapi/redis/view_digest.h"

namespace kun::redissim {

namespace {
constexpr std::string_view kHelloChannel = "__sentinel__:hello";
}

void SentinelNode::onAccept(ConnId c) { clients_.emplace(c, Client{}); }

void SentinelNode::onPeerClosed(ConnId c) {
  auto it = clients_.find(c);
  if (it == clients_.end()) return;
  for (const auto& ch : it->second.channels) {
    auto cit = channels_.find(ch);
    if (cit != channels_.end()) {
      cit->second.erase(c);
      if (cit->second.empty()) channels_.erase(cit);
    }
  }
  clients_.erase(it);
}

void SentinelNode::onRequest(ConnId c, RequestId r, const Argv& argv) {
  auto it = clients_.find(c);
  if (it == clients_.end()) it = clients_.emplace(c, Client{}).first;
  fabric().reply(c, r, dispatch(it->second, c, argv));
}

RedisReply SentinelNode::executeAdmin(const Argv& argv, const std::string& password) {
  Client cl;
  if (!password.empty()) {
    // Sentinel here has no requirepass: AUTH fails, and a hiredis client reports that.
    RedisReply auth = dispatch(cl, 0, {"AUTH", password});
    if (auth.isError()) return auth;
  }
  return dispatch(cl, 0, argv);
}

RedisReply SentinelNode::dispatch(Client& cl, ConnId c, const Argv& argv) {
  if (argv.empty()) return RedisReply::error("ERR empty command");
  // What the other sentinels send all the time (a PING a second, a hello every 2 s), matched
  // before the name is lowered and compared with every other: answered as below.
  if (iequals(argv[0], "ping") && argv.size() == 1)
    return {RedisReply::Type::Status, std::string("PONG", 4), 0, {}};  // the text made in place: no strlen, no move
  if (iequals(argv[0], "publish") && cl.channels.empty() && argv.size() == 3 && argv[1] == kHelloChannel) {
    processHello(argv[2], seenHello(argv[2]));
    return intReply(1);
  }
  LowerName lowered;
  const std::string_view cmd = lowered.of(argv[0]);  // compared as a view: lengths first, no strlen
  if (!cl.channels.empty() && cmd != "subscribe" && cmd != "unsubscribe" && cmd != "ping" && cmd != "quit")
    return RedisReply::error("ERR Can't execute '" + std::string(cmd) +
                             "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are allowed in "
                             "this context");
  if (cmd == "ping") {
    if (argv.size() > 2) return errArity("ping");
    return argv.size() == 2 ? RedisReply::bulk(argv[1]) : RedisReply::status("PONG");
  }
  if (cmd == "sentinel") {
    if (argv.size() < 2) return errArity("sentinel");
    noteSentinelCommand(argv[1]);
    return sentinelCommand(argv);
  }
  if (cmd == "info") return RedisReply::bulk(infoText(argv.size() >= 2 ? lower(argv[1]) : "default"));
  if (cmd == "role") {
    if (argv.size() != 1) return errArity("role");
    std::vector<std::string> names;
    for (const auto& [n, m] : masters_) names.push_back(n);
    return RedisReply::array({RedisReply::bulk("sentinel"), bulkArray(names)});
  }
  if (cmd == "publish") {
    if (argv.size() != 3) return errArity("publish");
    if (argv[1] != kHelloChannel) return RedisReply::error("ERR Only HELLO messages are accepted by Sentinel instances.");
    processHello(argv[2], seenHello(argv[2]));
    return intReply(1);
  }
  if (cmd == "subscribe" || cmd == "psubscribe") {
    if (argv.size() < 2) return errArity(cmd);
    RedisReply first;
    for (std::size_t i = 1; i < argv.size(); ++i) {
      cl.channels.insert(argv[i]);
      if (c != 0) channels_[argv[i]].insert(c);
      RedisReply conf = RedisReply::array({RedisReply::bulk(std::string(cmd)), RedisReply::bulk(argv[i]),
                                           intReply(static_cast<std::int64_t>(cl.channels.size()))});
      if (i == 1) first = conf;
      else if (c != 0) fabric().push(c, conf);
    }
    return first;
  }
  if (cmd == "unsubscribe") {
    for (const auto& ch : cl.channels) {
      auto it = channels_.find(ch);
      if (it != channels_.end()) it->second.erase(c);
    }
    cl.channels.clear();
    return RedisReply::array({RedisReply::bulk("unsubscribe"), RedisReply::nil(), intReply(0)});
  }
  if (cmd == "auth")
    return RedisReply::error(
        "ERR AUTH <password> called without any password configured for the default user. Are you sure your "
        "configuration is correct?");
  if (cmd == "client") {
    if (argv.size() >= 2 && iequals(argv[1], "setname")) return ok();
    if (argv.size() >= 2 && iequals(argv[1], "kill")) return intReply(0);
    return ok();
  }
  if (cmd == "shutdown") {
    after(Duration{0}, [this] { crash(); });
    return ok();
  }
  return errUnknownCommand(argv);
}

void SentinelNode::instanceFields(const Instance& ri, SentinelFieldSink& out) const {
  const std::int64_t now = mstime();
  // About 40 fields, asked for every instance on every observation of the operator and the
  // harness: each goes out by its key's index, numbers as numbers, and only the ones the
  // sink wants (the operator's readers of replicas and sentinels skip about a third).
  constexpr const auto& K = kSentinelKeys;
  const SentinelKeySet wanted = out.wantedKeys();
  // Inlined at each of their ~30 uses, so a key's bit is a constant (the compiler made
  // them calls).
  auto add = [&out, wanted](std::size_t k, std::string_view v) __attribute__((always_inline)) {
    if (wanted & sentinelKeyBit(k)) out.fieldAt(k, v);
  };
  auto addNum = [&out, wanted](std::size_t k, std::int64_t v) __attribute__((always_inline)) {
    if (wanted & sentinelKeyBit(k)) out.numberAt(k, v);
  };
  out.beginEntry();
  add(K.at("name"), ri.name);
  add(K.at("ip"), ri.host);
  addNum(K.at("port"), ri.port);
  add(K.at("runid"), ri.runid);
  // Every flag, with its comma, fits: no allocation.
  char flags[160];
  std::size_t len = 0;
  auto flag = [&flags, &len](bool on, std::string_view s) __attribute__((always_inline)) {  // each a constant-size copy
    if (!on) return;
    s.copy(flags + len, s.size());
    len += s.size();
    flags[len++] = ',';
  };
  flag(ri.flags & kSDown, "s_down");
  flag(ri.flags & kODown, "o_down");
  flag(ri.flags & kMaster, "master");
  flag(ri.flags & kSlave, "slave");
  flag(ri.flags & kSentinel, "sentinel");
  flag(ri.link.disconnected, "disconnected");
  flag(ri.flags & kMasterDown, "master_down");
  flag(ri.flags & kFailoverInProgress, "failover_in_progress");
  flag(ri.flags & kPromoted, "promoted");
  flag(ri.flags & kReconfSent, "reconf_sent");
  flag(ri.flags & kReconfInprog, "reconf_inprog");
  flag(ri.flags & kReconfDone, "reconf_done");
  flag(ri.flags & kForceFailover, "force_failover");
  add(K.at("flags"), std::string_view(flags, len == 0 ? 0 : len - 1));
  addNum(K.at("link-pending-commands"), ri.link.pendingCommands);
  add(K.at("link-refcount"), "1");
  if (ri.flags & kFailoverInProgress) {
    static const char* kStates[] = {"none",           "wait_start",    "select_slave", "send_slaveof_noone",
                                    "wait_promotion", "reconf_slaves", "update_config"};
    add(K.at("failover-state"), kStates[ri.failoverState]);
  }
  addNum(K.at("last-ping-sent"), ri.link.actPingTime ? now - ri.link.actPingTime : 0);
  addNum(K.at("last-ok-ping-reply"), now - ri.link.lastAvailTime);
  addNum(K.at("last-ping-reply"), now - ri.link.lastPongTime);
  if (ri.flags & kSDown) addNum(K.at("s-down-time"), now - ri.sDownSince);
  if (ri.flags & kODown) addNum(K.at("o-down-time"), now - ri.oDownSince);
  addNum(K.at("down-after-milliseconds"), ri.downAfter);
  if (ri.flags & (kMaster | kSlave)) {
    addNum(K.at("info-refresh"), ri.infoRefresh ? now - ri.infoRefresh : 0);
    add(K.at("role-reported"), ri.roleReported == kMaster ? "master" : "slave");
    addNum(K.at("role-reported-time"), now - ri.roleReportedTime);
  }
  if (ri.flags & kMaster) {
    addNum(K.at("config-epoch"), static_cast<std::int64_t>(ri.configEpoch));
    addNum(K.at("num-slaves"), static_cast<std::int64_t>(ri.slaves.size()));
    addNum(K.at("num-other-sentinels"), static_cast<std::int64_t>(ri.sentinels.size()));
    addNum(K.at("quorum"), ri.quorum);
    addNum(K.at("failover-timeout"), ri.failoverTimeout);
    addNum(K.at("parallel-syncs"), ri.parallelSyncs);
  }
  if (ri.flags & kSlave) {
    addNum(K.at("master-link-down-time"), ri.masterLinkDownTime);
    add(K.at("master-link-status"), ri.slaveMasterLinkUp ? "ok" : "err");
    add(K.at("master-host"), ri.slaveMasterHost.empty() ? "?" : ri.slaveMasterHost);
    addNum(K.at("master-port"), ri.slaveMasterPort);
    addNum(K.at("slave-priority"), ri.slavePriority);
    addNum(K.at("slave-repl-offset"), ri.slaveReplOffset);
    addNum(K.at("replica-announced"), ri.replicaAnnounced);
  }
  if (ri.flags & kSentinel) {
    addNum(K.at("last-hello-message"), now - ri.lastHelloTime);
    add(K.at("voted-leader"), ri.leader.empty() ? "?" : ri.leader);
    addNum(K.at("voted-leader-epoch"), static_cast<std::int64_t>(ri.leaderEpoch));
  }
  out.endEntry();
}

namespace {

// The reply SENTINEL MASTER/REPLICAS/SENTINELS sends: each instance a flat array of bulk
// strings, its elements made in place (no temporary reply or string to move and destroy).
class InstanceReplies final : public SentinelFieldSink {
 public:
  void beginEntry() override { fields_.reserve(64); }
  void field(std::string_view k, std::string_view v) override {
    text(k);
    text(v);
  }
  void number(std::string_view k, std::int64_t v) override {
    char buf[24];
    const auto end = std::to_chars(buf, buf + sizeof buf, v).ptr;
    text(k);
    text(std::string_view(buf, static_cast<std::size_t>(end - buf)));
  }
  // What instanceFields sends: the key's name, without a second virtual call.
  void fieldAt(std::size_t k, std::string_view v) override { InstanceReplies::field(kSentinelKeys.name(k), v); }
  void numberAt(std::size_t k, std::int64_t v) override { InstanceReplies::number(kSentinelKeys.name(k), v); }
  void endEntry() override { entries_.push_back(RedisReply::array(std::move(fields_))); fields_ = {}; }

  RedisReply one() { return std::move(entries_.front()); }
  RedisReply all() { return RedisReply::array(std::move(entries_)); }

 private:
  void text(std::string_view s) {
    RedisReply& e = fields_.emplace_back();
    e.type = RedisReply::Type::String;
    e.str.assign(s.data(), s.size());
  }
  std::vector<RedisReply> fields_;
  std::vector<RedisReply> entries_;
};

}  // namespace

RedisReply SentinelNode::instanceReply(const Instance& ri) const {
  InstanceReplies r;
  instanceFields(ri, r);
  return r.one();
}

void SentinelNode::appendViewDigest(const std::string& master, ViewHash& out) const {
  const Instance* m = masterByName(master);
  digest(out, state(), tilt_, m != nullptr);
  if (!m) return;
  const auto one = [&](const Instance& ri) {
    digest(out, ri.host, ri.port, ri.runid, ri.flags, ri.link.disconnected, ri.failoverState, ri.configEpoch, ri.quorum,
           ri.downAfter, ri.failoverTimeout, ri.parallelSyncs, ri.roleReported, ri.masterLinkDownTime,
           ri.slaveMasterHost, ri.slaveMasterPort, ri.slaveMasterLinkUp, ri.slavePriority, ri.replicaAnnounced,
           ri.leader, ri.leaderEpoch);
  };
  one(*m);
  digest(out, m->slaves.size(), m->sentinels.size());
  for (const auto& [k, ri] : m->slaves) one(*ri);
  for (const auto& [k, ri] : m->sentinels) one(*ri);
}

void SentinelNode::instancesFields(const std::map<std::string, std::unique_ptr<Instance>>& d,
                                   SentinelFieldSink& out) const {
  for (const auto& [k, ri] : d) {
    if ((ri->flags & kSlave) && !ri->replicaAnnounced) continue;
    instanceFields(*ri, out);
  }
}

RedisReply SentinelNode::instancesReply(const std::map<std::string, std::unique_ptr<Instance>>& d) const {
  InstanceReplies r;
  instancesFields(d, r);
  return r.all();
}

// The cases of executeAdmin -> dispatch -> sentinelCommand that answer instances, with the
// same tests: a fresh client (no subscriptions), no password, a known master.
bool SentinelNode::adminInstances(const Argv& argv, SentinelFieldSink& sink) const {
  if (argv.size() != 3 || !iequals(argv[0], "sentinel")) return false;
  const Instance* m = masterByName(argv[2]);
  if (m == nullptr) return false;
  const std::string_view sub = argv[1];
  if (iequals(sub, "master")) instanceFields(*m, sink);
  else if (iequals(sub, "replicas") || iequals(sub, "slaves")) instancesFields(m->slaves, sink);
  else if (iequals(sub, "sentinels")) instancesFields(m->sentinels, sink);
  else return false;
  return true;
}

RedisReply SentinelNode::sentinelCommand(const Argv& argv) {
  const std::string lowered = lower(argv[1]);
  const std::string_view sub = lowered;  // compared as a view: lengths first, no strlen
  const std::size_t argc = argv.size();
  auto arity = [&lowered] { return errArity("sentinel|" + lowered); };
  auto noSuch = [] { return RedisReply::error("ERR No such master with that name"); };
  if (sub == "masters") {
    if (argc != 2) return arity();
    return instancesReply(masters_);
  }
  if (sub == "master") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    return m ? instanceReply(*m) : noSuch();
  }
  if (sub == "replicas" || sub == "slaves") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    return m ? instancesReply(m->slaves) : noSuch();
  }
  if (sub == "sentinels") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    return m ? instancesReply(m->sentinels) : noSuch();
  }
  if (sub == "myid" && argc == 2) return RedisReply::bulk(myid_);
  if (sub == "is-master-down-by-addr") {
    if (argc != 6) return arity();
    auto port = parseInt(argv[3]);
    auto epoch = parseInt(argv[4]);
    if (!port || !epoch) return RedisReply::error("ERR value is not an integer or out of range");
    Instance* m = masterByAddr(argv[2], static_cast<int>(*port));
    const bool isdown = !tilt_ && m && (m->flags & kSDown) && (m->flags & kMaster);
    std::string leader;
    std::uint64_t leaderEpoch = 0;
    if (m && argv[5] != "*") leader = voteLeader(*m, static_cast<std::uint64_t>(*epoch), argv[5], &leaderEpoch);
    return RedisReply::array({intReply(isdown ? 1 : 0), RedisReply::bulk(leader.empty() ? "*" : leader),
                              intReply(static_cast<std::int64_t>(leaderEpoch))});
  }
  if (sub == "reset") {
    if (argc != 3) return arity();
    return intReply(resetByPattern(argv[2]));
  }
  if (sub == "get-master-addr-by-name") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    if (!m) return RedisReply::nil();
    auto [h, p] = currentMasterAddress(*m);
    return bulkArray({h, std::to_string(p)});
  }
  if (sub == "failover") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    if (!m) return noSuch();
    if (m->flags & kFailoverInProgress) return RedisReply::error("INPROG Failover already in progress");
    if (!selectSlave(*m)) return RedisReply::error("NOGOODSLAVE No suitable replica to promote");
    record("Executing user requested FAILOVER of '" + m->name + "'");
    startFailover(*m);
    m->flags |= kForceFailover;
    return ok();
  }
  if (sub == "monitor") {
    if (argc != 6) return arity();
    auto quorum = parseInt(argv[5]);
    if (!quorum) return RedisReply::error("ERR Invalid quorum");
    auto port = parseInt(argv[4]);
    if (!port) return RedisReply::error("ERR Invalid port");
    if (*quorum <= 0) return RedisReply::error("ERR Quorum must be 1 or greater.");
    // Without resolve-hostnames only an IPv4/IPv6 literal is accepted.
    const std::string& host = argv[3];
    bool ipLiteral = !host.empty();
    for (char ch : host)
      if (!(std::isdigit(static_cast<unsigned char>(ch)) || ch == '.' || ch == ':' || std::isxdigit(static_cast<unsigned char>(ch))))
        ipLiteral = false;
    if (!ipLiteral) return RedisReply::error("ERR Invalid IP address or hostname specified");
    if (*port <= 0 || *port > 65535) return RedisReply::error("ERR Invalid port number.");
    if (masterByName(argv[2])) return RedisReply::error("ERR Duplicate master name.");
    Instance* m = createInstance(argv[2], kMaster, host, static_cast<int>(*port), static_cast<int>(*quorum), nullptr);
    if (!m) return RedisReply::error("ERR Duplicate master name.");
    m->failoverTimeout = 180000;
    event("+monitor", m, fmt::format("quorum {}", m->quorum));
    return ok();
  }
  if (sub == "remove") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    if (!m) return noSuch();
    event("-monitor", m);
    resetMaster(*m, false, false);
    closeCc(*m);
    closePc(*m);
    byUid_.erase(m->uid);
    masters_.erase(argv[2]);
    return ok();
  }
  if (sub == "ckquorum") {
    if (argc != 3) return arity();
    Instance* m = masterByName(argv[2]);
    if (!m) return noSuch();
    int usable = 1;
    const int voters = static_cast<int>(m->sentinels.size()) + 1;
    for (const auto& [k, s] : m->sentinels)
      if (!(s->flags & (kSDown | kODown))) ++usable;
    const bool noQuorum = usable < m->quorum;
    const bool noAuth = usable < voters / 2 + 1;
    if (!noQuorum && !noAuth)
      return RedisReply::status(fmt::format("OK {} usable Sentinels. Quorum and failover authorization can be reached", usable));
    std::string e = fmt::format("NOQUORUM {} usable Sentinels. ", usable);
    if (noQuorum) e += "Not enough available Sentinels to reach the specified quorum for this master";
    if (noAuth) {
      if (noQuorum) e += ". ";
      e += "Not enough available Sentinels to reach the majority and authorize a failover";
    }
    return RedisReply::error(e);
  }
  if (sub == "set") {
    if (argc < 3) return arity();
    return sentinelSet(argv);
  }
  if (sub == "flushconfig") {
    if (argc != 2) return arity();
    return ok();
  }
  if (sub == "config") {
    if (argc == 4 && iequals(argv[2], "get")) {
      std::vector<std::string> f;
      for (const char* k : {"resolve-hostnames", "announce-hostnames", "announce-ip", "announce-port", "sentinel-user",
                            "sentinel-pass"}) {
        if (!globMatch(argv[3], k, true)) continue;
        f.push_back(k);
        const std::string key = k;
        f.push_back(key == "announce-port" ? "0" : (key.find("hostnames") != std::string::npos ? "no" : ""));
      }
      return bulkArray(f);
    }
    if (argc == 5 && iequals(argv[2], "set")) return ok();
    return RedisReply::error("ERR Only SENTINEL CONFIG GET <option> / SET <option> <value> are supported.");
  }
  if (sub == "debug") {
    return bulkArray({"INFO-PERIOD", "10000", "PING-PERIOD", "1000", "ASK-PERIOD", "1000", "PUBLISH-PERIOD", "2000",
                      "DEFAULT-DOWN-AFTER", "30000", "DEFAULT-FAILOVER-TIMEOUT", "180000", "TILT-TRIGGER", "2000",
                      "TILT-PERIOD", "30000", "SLAVE-RECONF-TIMEOUT", "10000", "MIN-LINK-RECONNECT-PERIOD", "15000",
                      "ELECTION-TIMEOUT", "10000", "SCRIPT-MAX-RUNTIME", "60000", "SCRIPT-RETRY-DELAY", "30000"});
  }
  if (sub == "simulate-failure") {
    simCrashAfterElection_ = simCrashAfterPromotion_ = false;
    for (std::size_t i = 2; i < argc; ++i) {
      const std::string o = lower(argv[i]);
      if (o == "crash-after-election") simCrashAfterElection_ = true;
      else if (o == "crash-after-promotion") simCrashAfterPromotion_ = true;
      else if (o == "help") return bulkArray({"crash-after-election", "crash-after-promotion"});
      else return RedisReply::error("ERR Unknown failure simulation specified");
    }
    return ok();
  }
  if (sub == "pending-scripts") return RedisReply::array({});
  return RedisReply::error("ERR unknown subcommand '" + argv[1] + "'. Try SENTINEL HELP.");
}

RedisReply SentinelNode::sentinelSet(const Argv& argv) {
  Instance* m = masterByName(argv[2]);
  if (!m) return RedisReply::error("ERR No such master with that name");
  int changes = 0;
  for (std::size_t j = 3; j < argv.size(); ++j) {
    const std::string option = lower(argv[j]);
    const std::size_t more = argv.size() - 1 - j;
    const std::size_t optAt = j;
    auto badfmt = [&](std::size_t at) {
      return RedisReply::error(fmt::format("ERR Invalid argument '{}' for SENTINEL SET '{}'", argv[at], argv[optAt]));
    };
    if ((option == "down-after-milliseconds" || option == "failover-timeout" || option == "parallel-syncs" ||
         option == "quorum") && more > 0) {
      auto v = parseInt(argv[++j]);
      if (!v || *v <= 0) return badfmt(j);
      if (option == "down-after-milliseconds") {
        m->downAfter = *v;
        for (auto& [k, s] : m->slaves) s->downAfter = *v;
        for (auto& [k, s] : m->sentinels) s->downAfter = *v;
      } else if (option == "failover-timeout") {
        m->failoverTimeout = *v;
      } else if (option == "parallel-syncs") {
        m->parallelSyncs = static_cast<int>(*v);
      } else {
        m->quorum = static_cast<int>(*v);
      }
      event("+set", m, fmt::format("{} {}", argv[optAt], argv[j]));
    } else if ((option == "auth-pass" || option == "auth-user") && more > 0) {
      const std::string& value = argv[++j];
      if (option == "auth-pass") m->authPass = value;
      // Links are dropped so that they reconnect with the new credentials.
      closeCc(*m);
      closePc(*m);
      for (auto& [k, s] : m->slaves) {
        closeCc(*s);
        closePc(*s);
      }
      event("+set", m, fmt::format("{} {}", argv[optAt], option == "auth-pass" ? "******" : value));
    } else if (option == "master-reboot-down-after-period" && more > 0) {
      auto v = parseInt(argv[++j]);
      if (!v || *v < 0) return badfmt(j);
      event("+set", m, fmt::format("{} {}", argv[optAt], argv[j]));
    } else if (option == "rename-command" && more > 1) {
      j += 2;
      event("+set", m, fmt::format("{} {} {}", argv[optAt], argv[optAt + 1], argv[optAt + 2]));
    } else if ((option == "notification-script" || option == "client-reconfig-script") && more > 0) {
      return RedisReply::error(
          "ERR Reconfiguration of scripts path is denied for security reasons. Check the deny-scripts-reconfig "
          "configuration directive in your Sentinel configuration");
    } else {
      return RedisReply::error("ERR Unknown option or number of arguments for SENTINEL SET '" + argv[j] + "'");
    }
    ++changes;
  }
  return ok();
}

std::string SentinelNode::infoText(const std::string& section) const {
  const bool all = section == "default" || section == "all" || section == "everything";
  std::string out;
  // Room for the text at once (the readiness probe asks for the Sentinel section every few
  // seconds): growing it as it is written took four reallocations.
  out.reserve(all || section == "server" ? 1024 : 256);
  if (all || section == "server") {
    const std::int64_t up = (mstime() - bootMs_) / 1000;
    TextOut(out) << kInfoServerHead << "redis_mode:sentinel\r\n" << kInfoServerHost
                 << "process_id:1\r\n"
                    "process_supervised:no\r\n"
                    "run_id:" << runId_ << "\r\n"
                    "tcp_port:" << port_ << "\r\n"
                    "server_time_usec:" << wallMicros() << "\r\n"
                    "uptime_in_seconds:" << up << "\r\n"
                    "uptime_in_days:" << up / 86400 << "\r\n"
                    "hz:10\r\n"
                    "configured_hz:10\r\n"
                    "executable:/usr/bin/redis-sentinel\r\n"
                    "config_file:/etc/redis/sentinel.conf\r\n"
                    "io_threads_active:0\r\n";
  }
  if (all || section == "clients") {
    if (!out.empty()) out += "\r\n";
    TextOut(out) << "# Clients\r\nconnected_clients:" << clients_.size() << "\r\n";
  }
  if (all || section == "sentinel") {
    if (!out.empty()) out += "\r\n";
    TextOut t(out);
    t << "# Sentinel\r\n"
         "sentinel_masters:" << masters_.size() << "\r\n"
         "sentinel_tilt:" << (tilt_ ? 1 : 0) << "\r\n"
         "sentinel_tilt_since_seconds:" << (tilt_ ? (mstime() - tiltStart_) / 1000 : -1) << "\r\n"
         "sentinel_running_scripts:0\r\n"
         "sentinel_scripts_queue_length:0\r\n"
         "sentinel_simulate_failure_flags:"
      << ((simCrashAfterElection_ ? 1 : 0) | (simCrashAfterPromotion_ ? 2 : 0)) << "\r\n";
    int i = 0;
    for (const auto& [n, m] : masters_) {
      const char* status = (m->flags & kODown) ? "odown" : (m->flags & kSDown) ? "sdown" : "ok";
      t << "master" << i++ << ":name=" << n << ",status=" << status << ",address=" << m->host << ":" << m->port
        << ",slaves=" << m->slaves.size() << ",sentinels=" << m->sentinels.size() + 1 << "\r\n";
    }
  }
  return out;
}

}  // namespace kun::redissim
