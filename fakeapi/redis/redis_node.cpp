#include "fakeapi/redis/redis_node.h"

#include <array>
#include <bit>
#include <cstring>

#include <fmt/format.h>

#include "fakeapi/redis/resp.h"

namespace kun::redissim {

RedisNode::RedisNode(Fabric& fabric, Random rng, RedisNodeOptions opts, Trace* trace)
    : SimProcess(fabric, opts.ip, trace),
      rng_(std::move(rng)),
      opts_(std::move(opts)),
      port_(opts_.port),
      persistentVolume_(opts_.persistentVolume),
      disk_(std::move(opts_.disk)),
      config_(opts_.ip) {
  processId_ = 1 + rng_.below(32000);
  refreshHotConfig();
  fabric.listen(endpoint(), procId());
  if (opts_.startNow) start(opts_.bootDelay);
}

RedisNode::~RedisNode() = default;

std::string RedisNode::traceName() const { return fmt::format("redis {}:{}", ip(), port_); }

bool RedisNode::loading() const { return state() == State::Running && nowMs() < loadingUntilMs_; }

RedisDisk RedisNode::takeDisk() {
  RedisDisk d = std::move(disk_);
  disk_ = RedisDisk{};
  return d;
}

std::size_t RedisNode::connectedReplicas() const {
  std::size_t n = 0;
  for (const auto& [c, r] : replicas_)
    if (r.state == ReplicaInfo::State::Online) ++n;
  return n;
}

// ---------------------------------------------------------------------------------------
// lifecycle

void RedisNode::onBoot() {
  config_ = RedisConfig(ip());
  config_.load("port", std::to_string(opts_.port));
  for (const auto& [k, v] : opts_.config) config_.load(k, v);
  if (disk_.rewrittenConfig) {
    for (const auto& [k, v] : *disk_.rewrittenConfig) config_.load(k, v);
  }
  const int port = static_cast<int>(config_.integer("port"));
  if (port != port_) {
    fabric().unlisten(endpoint(), procId());
    port_ = port;
    fabric().listen(endpoint(), procId());
  }
  refreshHotConfig();  // counts as a view change (viewVersion)
  runId_ = hexId(rng_);
  bootMs_ = nowMs();
  replId_ = hexId(rng_);
  replId2_ = std::string(40, '0');
  replOffset_ = 0;
  secondReplOffset_ = -1;
  backlogActive_ = false;
  backlog_.clear();
  backlogFirstByte_ = 0;
  backlogHistlen_ = 0;
  streamDb_ = -1;
  noReplicasSinceMs_ = nowMs();
  data_.clear();
  dirty_ = 0;
  lastSaveMs_ = nowMs();
  aofPending_.clear();
  aofFlushAll_ = false;
  failoverState_ = FailoverState::None;
  pausedWrites_.clear();
  link_ = MasterLink{};
  masterHost_.clear();
  masterPort_ = 0;
  loadFromDisk();
  recountData();
  record(fmt::format("started run_id={} keys={}", runId_, data_.size()));
  const std::string& replicaof = config_.str("replicaof");
  if (!replicaof.empty()) {
    const auto sp = replicaof.find(' ');
    if (sp != std::string::npos) {
      auto p = parseInt(replicaof.substr(sp + 1));
      if (p) {
        masterHost_ = replicaof.substr(0, sp);
        masterPort_ = static_cast<int>(*p);
        link_.state = LinkState::Connect;
        link_.stateSinceMs = nowMs();
        // A replica restarted from an RDB that holds its replication info can resume
        // with a partial resync.
        if (!disk_.rdbReplId.empty() && disk_.rdbReplOffset >= 0 && disk_.rdb && !config_.flag("appendonly")) {
          replId_ = disk_.rdbReplId;
          replOffset_ = disk_.rdbReplOffset;
        }
      }
    }
  }
  cron();  // the first replicationCron runs right away (a replica connects at once)
}

void RedisNode::onDown() {
  // What was written to the AOF survives the process (see redis_persistence.cpp).
  if (!powerLost_) flushAof();
  record(powerLost_ ? "process lost with its machine" : "process exited");
  viewChanged();
  clients_.clear();
  channels_.clear();
  replicas_.clear();
  data_.clear();
  dataBytes_ = 0;
  backlog_.clear();
  aofPending_.clear();
  pausedWrites_.clear();
  link_ = MasterLink{};
  fullSyncScheduled_ = false;
  cronTimer_ = 0;
}

void RedisNode::shutdown() {
  if (state() != State::Running) {
    crash();
    return;
  }
  if (!config_.str("save").empty()) saveRdb();
  if (config_.flag("appendonly")) persistCron();  // fsync what is pending
  record("shutdown");
  crash();
}

void RedisNode::scheduleCron() {
  cronTimer_ = after(milliseconds(1000), [this] { cron(); });
}

void RedisNode::cron() {
  if (!isMaster()) replicaCron();
  masterCron();
  failoverCron();
  persistCron();
  scheduleCron();
}

// ---------------------------------------------------------------------------------------
// connections and dispatch

void RedisNode::onAccept(ConnId c) {
  Client cl;
  cl.peer = fabric().peerIp(c);
  // As createClient: a connection opened while the default user has no password is
  // authenticated, and stays so when requirepass is set later (a replica's link, Sentinel's
  // links, a client's pool).
  cl.authed = !hot_.needsAuth;
  clients_.emplace(c, std::move(cl));
  ++statConnections_;
}

void RedisNode::onPeerClosed(ConnId c) {
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
  if (replicas_.count(c)) dropReplica(c);
}

void RedisNode::replyTo(ConnId c, RequestId r, RedisReply&& reply) {
  if (c != 0) fabric().reply(c, r, std::move(reply));
}

void RedisNode::onRequest(ConnId c, RequestId r, const Argv& argv) {
  auto it = clients_.find(c);
  if (it == clients_.end()) {  // accepted while we were hung, before onAccept ran
    onAccept(c);
    it = clients_.find(c);
  }
  bool deferred = false;
  RedisReply reply = dispatch(it->second, c, r, argv, &deferred);
  if (!deferred) replyTo(c, r, std::move(reply));
}

RedisReply RedisNode::executeAdmin(const Argv& argv, const std::string& password) {
  Client cl;
  bool deferred = false;
  if (!password.empty()) {
    RedisReply auth = dispatch(cl, 0, 0, {"AUTH", password}, &deferred);
    if (auth.isError()) return auth;  // as hiredis clients report a failed AUTH
  }
  deferred = false;
  return dispatch(cl, 0, 0, argv, &deferred);
}

void RedisNode::refreshHotConfig() {
  viewChanged();
  hot_.backlogSize = config_.integer("repl-backlog-size");
  hot_.minReplicas = config_.integer("min-replicas-to-write");
  hot_.minLag = config_.integer("min-replicas-max-lag");
  hot_.readOnly = config_.flag("replica-read-only");
  hot_.serveStale = config_.flag("replica-serve-stale-data");
  hot_.requirepass = config_.str("requirepass");
  hot_.needsAuth = !hot_.requirepass.empty();
  hot_.appendonly = config_.flag("appendonly");
  hot_.fsyncAlways = config_.str("appendfsync") == "always";
  hot_.hz = config_.integer("hz");
  hot_.maxclients = config_.integer("maxclients");
  hot_.maxmemory = config_.integer("maxmemory");
  hot_.maxmemoryPolicy = config_.str("maxmemory-policy");
  hot_.replicaPriority = config_.integer("replica-priority");
  hot_.replicaAnnounced = config_.flag("replica-announced");
  hot_.replPingPeriod = config_.integer("repl-ping-replica-period");
  hot_.replTimeout = config_.integer("repl-timeout");
  hot_.replBacklogTtl = config_.integer("repl-backlog-ttl");
  const std::string& save = config_.str("save");
  hot_.saveRules.clear();
  std::size_t pos = 0;
  while (pos < save.size()) {
    std::size_t sp = save.find(' ', pos);
    if (sp == std::string::npos) sp = save.size();
    if (auto v = parseInt(std::string_view(save).substr(pos, sp - pos))) hot_.saveRules.push_back(*v);
    pos = sp + 1;
  }
}

void RedisNode::recountData() {
  dataBytes_ = 0;
  for (const auto& [k, v] : data_) dataBytes_ += static_cast<std::int64_t>(k.size() + v.size());
}

const RedisNode::Command* RedisNode::findCommand(std::string_view name) {
  // Looked up on every request: a flat table scanned after lowering the name once (a
  // case-insensitive std::map walk compared ~5 names character by character), the
  // commands the simulation sends most first.
  static constexpr Command kTable[] = {
      {"ping", &RedisNode::cmdPing, -1, kStaleOk | kPubSubOk},
      {"publish", &RedisNode::cmdPublish, 3, kLoadingOk | kStaleOk},
      {"info", &RedisNode::cmdInfo, -1, kLoadingOk | kStaleOk},
      {"replconf", &RedisNode::cmdReplconf, -1, kLoadingOk | kStaleOk},
      {"get", &RedisNode::cmdGet, 2, 0},
      {"config", &RedisNode::cmdConfig, -2, kLoadingOk | kStaleOk},
      {"set", &RedisNode::cmdSet, -3, kWrite},
      {"subscribe", &RedisNode::cmdSubscribe, -2, kPubSubOk | kLoadingOk | kStaleOk | kNoMulti},
      {"echo", &RedisNode::cmdEcho, 2, kStaleOk},
      {"auth", &RedisNode::cmdAuth, -2, kNoAuth | kLoadingOk | kStaleOk | kPubSubOk},
      {"mget", &RedisNode::cmdMget, -2, 0},
      {"del", &RedisNode::cmdDel, -2, kWrite},
      {"exists", &RedisNode::cmdExists, -2, 0},
      {"incr", &RedisNode::cmdIncr, 2, kWrite},
      {"dbsize", &RedisNode::cmdDbsize, 1, 0},
      {"flushall", &RedisNode::cmdFlushall, -1, kWrite},
      {"flushdb", &RedisNode::cmdFlushall, -1, kWrite},
      {"select", &RedisNode::cmdSelect, 2, kLoadingOk | kStaleOk},
      {"role", &RedisNode::cmdRole, 1, kLoadingOk | kStaleOk},
      {"client", &RedisNode::cmdClient, -2, kLoadingOk | kStaleOk},
      {"multi", &RedisNode::cmdMulti, 1, kLoadingOk | kStaleOk},
      {"exec", &RedisNode::cmdExec, 1, kLoadingOk | kStaleOk},
      {"discard", &RedisNode::cmdDiscard, 1, kLoadingOk | kStaleOk},
      {"unsubscribe", &RedisNode::cmdUnsubscribe, -1, kPubSubOk | kLoadingOk | kStaleOk | kNoMulti},
      {"save", &RedisNode::cmdSave, 1, kNoMulti},
      {"bgsave", &RedisNode::cmdSave, -1, 0},
      {"shutdown", &RedisNode::cmdShutdown, -1, kLoadingOk | kStaleOk | kNoMulti},
      {"quit", &RedisNode::cmdQuit, -1, kNoAuth | kLoadingOk | kStaleOk | kPubSubOk},
      {"psync", &RedisNode::cmdPsync, -3, kNoMulti},
      {"replicaof", &RedisNode::cmdReplicaof, 3, kLoadingOk | kStaleOk},
      {"slaveof", &RedisNode::cmdReplicaof, 3, kLoadingOk | kStaleOk},
      {"failover", &RedisNode::cmdFailover, -1, kNoMulti},
  };
  // Each name as two little-endian words, zero-padded (its length tells "a" from "a\0"):
  // a lookup compares words, with no memcmp call per candidate.
  struct Packed {
    std::uint64_t lo = 0, hi = 0;
    std::size_t n = 0;
  };
  static_assert(std::endian::native == std::endian::little, "words are read as memcpy reads them");
  static constexpr auto kPacked = [] {
    std::array<Packed, std::size(kTable)> out{};
    for (std::size_t k = 0; k < std::size(kTable); ++k) {
      const std::string_view n = kTable[k].name;
      out[k].n = n.size();
      for (std::size_t i = 0; i < n.size(); ++i)
        (i < 8 ? out[k].lo : out[k].hi) |= std::uint64_t{static_cast<unsigned char>(n[i])} << (8 * (i % 8));
    }
    return out;
  }();
  char buf[16] = {};
  if (name.empty() || name.size() > sizeof buf) return nullptr;
  for (std::size_t i = 0; i < name.size(); ++i) {
    const char ch = name[i];
    buf[i] = (ch >= 'A' && ch <= 'Z') ? static_cast<char>(ch + ('a' - 'A')) : ch;
  }
  std::uint64_t lo, hi;
  std::memcpy(&lo, buf, 8);
  std::memcpy(&hi, buf + 8, 8);
  for (std::size_t k = 0; k < std::size(kTable); ++k)
    if (kPacked[k].lo == lo && kPacked[k].hi == hi && kPacked[k].n == name.size()) return &kTable[k];
  return nullptr;
}

RedisReply RedisNode::dispatch(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred) {
  ++statCommands_;
  if (argv.empty()) return RedisReply::error("ERR empty command");
  const Command* found = findCommand(argv[0]);
  if (found == nullptr) {
    if (cl.inMulti) cl.multiError = true;
    return errUnknownCommand(argv);
  }
  const Command& cmd = *found;
  const std::string_view name = cmd.name;
  const int argc = static_cast<int>(argv.size());
  if ((cmd.arity > 0 && argc != cmd.arity) || (cmd.arity < 0 && argc < -cmd.arity)) {
    if (cl.inMulti) cl.multiError = true;
    return errArity(name);
  }
  if (hot_.needsAuth && !cl.authed && !(cmd.flags & kNoAuth)) {
    if (cl.inMulti) cl.multiError = true;
    return RedisReply::error("NOAUTH Authentication required.");
  }
  if (!cl.channels.empty() && !(cmd.flags & kPubSubOk)) {
    return RedisReply::error("ERR Can't execute '" + std::string(name) +
                             "': only (P|S)SUBSCRIBE / (P|S)UNSUBSCRIBE / PING / QUIT / RESET are "
                             "allowed in this context");
  }
  const bool write = (cmd.flags & kWrite) != 0;
  auto reject = [&](const char* text) {
    if (cl.inMulti) cl.multiError = true;
    return RedisReply::error(text);
  };
  if (write && !isMaster() && hot_.readOnly)
    return reject("READONLY You can't write against a read only replica.");
  if (!isMaster() && link_.state != LinkState::Connected && !hot_.serveStale && !(cmd.flags & kStaleOk))
    return reject("MASTERDOWN Link with MASTER is down and replica-serve-stale-data is set to 'no'.");
  if (loadingUntilMs_ != 0 && loading() && !(cmd.flags & kLoadingOk))
    return reject("LOADING Redis is loading the dataset in memory");
  if (write && isMaster() && hot_.minReplicas > 0 && hot_.minLag > 0 && goodReplicas_ < hot_.minReplicas)
    return reject("NOREPLICAS Not enough good replicas to write.");
  if (cl.inMulti && name != "exec" && name != "discard" && name != "multi") {
    if (cmd.flags & kNoMulti) {
      cl.multiError = true;
      return RedisReply::error("ERR Command not allowed inside a transaction");
    }
    cl.queued.push_back(argv);
    return RedisReply::status("QUEUED");
  }
  if (write && failoverState_ != FailoverState::None && c != 0) {
    // FAILOVER pauses writers until it ends; they then get the new role's answer.
    pausedWrites_.push_back({c, r, argv});
    *deferred = true;
    return {};
  }
  return (this->*cmd.fn)(cl, c, r, argv, deferred);
}

RedisReply RedisNode::execCommand(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred) {
  const Command* cmd = findCommand(argv[0]);
  if (cmd == nullptr) return errUnknownCommand(argv);
  return (this->*(cmd->fn))(cl, c, r, argv, deferred);
}

}  // namespace kun::redissim
