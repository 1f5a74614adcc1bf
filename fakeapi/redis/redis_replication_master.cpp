// Replication, the master's half: the stream and its backlog, PSYNC (partial from the
// backlog or full), replica bookkeeping (ACKs, lag, min-replicas), and FAILOVER.
//
// The stream travels as pushes on the replica's connection: str "stream", integer = offset
// of the command's first byte, elements = the command. A full sync is one push with str
// "rdb", integer = the snapshot's offset, elements = [replid, key, value, ...].
#include <fmt/format.h>

#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"

namespace kun::redissim {

namespace {
constexpr std::int64_t kTransferBytesPerMs = 100 * 1000;  // ~100 MB/s on a pod network
}

void RedisNode::createBacklog() {
  backlogActive_ = true;
  backlog_.clear();
  backlogFirstByte_ = replOffset_ + 1;
  backlogHistlen_ = 0;
  streamDb_ = -1;
}

void RedisNode::trimBacklog() {
  const std::int64_t cap = hot_.backlogSize;
  while (!backlog_.empty() && backlogHistlen_ - backlog_.front().len >= cap) {
    backlogHistlen_ -= backlog_.front().len;
    backlog_.pop_front();
    backlogFirstByte_ = backlog_.empty() ? replOffset_ + 1 : backlog_.front().start;
  }
}

void RedisNode::feedBacklog(StreamEntry entry, std::int64_t len) {
  if (!backlogActive_) return;
  const std::int64_t start = entry->integer;
  backlog_.push_back({start, len, std::move(entry)});
  backlogHistlen_ += len;
  trimBacklog();
}

RedisNode::StreamEntry RedisNode::streamEntry(Argv argv, std::int64_t start) {
  auto msg = std::make_shared<RedisReply>();
  msg->type = RedisReply::Type::Array;
  msg->str = "stream";
  msg->integer = start;
  msg->elements.resize(argv.size());
  for (std::size_t i = 0; i < argv.size(); ++i) {
    msg->elements[i].type = RedisReply::Type::String;
    msg->elements[i].str = std::move(argv[i]);
  }
  return msg;
}

void RedisNode::emit(Argv argv) {
  const std::int64_t start = replOffset_ + 1;
  const std::int64_t len = respLength(argv);
  replOffset_ += len;
  StreamEntry entry = streamEntry(std::move(argv), start);
  for (auto& [c, r] : replicas_) {
    if (r.state == ReplicaInfo::State::Online) fabric().push(c, entry);
    else if (r.state == ReplicaInfo::State::SendBulk) r.pendingStream.push_back(entry);
  }
  feedBacklog(std::move(entry), len);
}

void RedisNode::propagate(Argv argv) {
  if (!isMaster()) return;  // a replica only relays its master's stream
  if (!backlogActive_ && replicas_.empty()) return;
  if (!backlogActive_) createBacklog();
  if (streamDb_ != 0) {
    emit({"SELECT", "0"});
    streamDb_ = 0;
  }
  emit(std::move(argv));
}

void RedisNode::shiftReplicationId() {
  replId2_ = replId_;
  secondReplOffset_ = replOffset_ + 1;
  replId_ = hexId(rng_);
  viewChanged();
}

std::int64_t RedisNode::rdbSizeBytes() const {
  return 128 + dataBytes_ + 16 * static_cast<std::int64_t>(data_.size());
}

RedisReply RedisNode::cmdReplconf(Client& cl, ConnId c, RequestId, const Argv& argv, bool* deferred) {
  if (argv.size() % 2 == 0) return errSyntax();
  LowerName lowered;
  for (std::size_t i = 1; i + 1 < argv.size(); i += 2) {
    const std::string_view opt = lowered.of(argv[i]);  // compared as a view: lengths first
    if (opt == "listening-port") {
      auto p = parseInt(argv[i + 1]);
      if (!p) return RedisReply::error("ERR value is not an integer or out of range");
      cl.replPort = static_cast<int>(*p);
    } else if (opt == "ip-address") {
      cl.replIp = argv[i + 1];
    } else if (opt == "capa" || opt == "rdb-only" || opt == "rdb-filter-only") {
    } else if (opt == "ack") {
      *deferred = true;  // REPLCONF ACK is never answered
      auto it = replicas_.find(c);
      auto off = parseInt(argv[i + 1]);
      if (it != replicas_.end() && off) {
        if (*off > it->second.ackOffset) it->second.ackOffset = *off;
        it->second.lastAckMs = nowMs();
        if (failoverState_ == FailoverState::WaitForSync) failoverCron();
      }
      return {};
    } else if (opt == "getack") {
      *deferred = true;
      return {};
    } else {
      return RedisReply::error("ERR Unrecognized REPLCONF option: " + argv[i]);
    }
  }
  return ok();
}

RedisReply RedisNode::cmdPsync(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred) {
  if (c == 0) return RedisReply::error("ERR PSYNC is reserved for replicas");
  if (argv.size() > 4) return errSyntax();
  if (argv.size() == 4) {
    if (!iequals(argv[3], "failover")) return errSyntax();
    // The old master of a FAILOVER asks us, its target, to take over.
    if (isMaster() || argv[1] != replId_)
      return RedisReply::error("ERR PSYNC FAILOVER replid must match my replid.");
    record("FAILOVER requested by my master: becoming master");
    unsetMaster();
  }
  if (!isMaster() && link_.state != LinkState::Connected)
    return RedisReply::error("NOMASTERLINK Can't SYNC while not connected with my master");
  auto offParsed = parseInt(argv[2]);
  const std::string& wantId = argv[1];
  const std::int64_t off = offParsed ? *offParsed : -1;
  cl.isReplica = true;
  ReplicaInfo info;
  info.ip = cl.replIp.empty() ? fabric().net().ipOf(cl.peer) : cl.replIp;
  info.port = cl.replPort;
  info.lastAckMs = nowMs();

  const bool idOk = wantId == replId_ || (wantId == replId2_ && off <= secondReplOffset_);
  bool offOk = backlogActive_ && off >= backlogFirstByte_ && off <= backlogFirstByte_ + backlogHistlen_;
  std::size_t from = backlog_.size();
  if (idOk && offOk) {
    // The backlog holds whole commands; the replica's offset sits on a boundary.
    from = 0;
    while (from < backlog_.size() && backlog_[from].start < off) ++from;
    if (from < backlog_.size() && backlog_[from].start != off) offOk = false;
    if (from == backlog_.size() && off != replOffset_ + 1) offOk = false;
  }
  if (idOk && offOk) {
    ++statPartialOk_;
    info.state = ReplicaInfo::State::Online;
    info.ackOffset = off - 1;
    replicas_[c] = std::move(info);
    viewChanged();
    record(fmt::format("partial resync accepted for replica {} from offset {}", replicas_[c].ip, off));
    // +CONTINUE, then the missing part of the stream, in order on this connection.
    fabric().reply(c, r, RedisReply::status("CONTINUE " + replId_));
    for (std::size_t i = from; i < backlog_.size(); ++i) fabric().push(c, backlog_[i].entry);
    *deferred = true;
    refreshGoodReplicas();
    return {};
  }
  if (wantId != "?") ++statPartialErr_;
  ++statFullSyncs_;
  if (!backlogActive_) createBacklog();
  info.state = ReplicaInfo::State::WaitBgsave;
  info.psyncReq = r;
  record(fmt::format("full resync requested by replica {} ({} {})", info.ip, wantId, off));
  replicas_[c] = std::move(info);
  viewChanged();
  *deferred = true;  // +FULLRESYNC is sent when the transfer starts
  if (!fullSyncScheduled_) {
    fullSyncScheduled_ = true;
    const bool diskless = config_.flag("repl-diskless-sync");
    const Duration delay = diskless ? seconds(config_.integer("repl-diskless-sync-delay")) : Duration{0};
    after(delay, [this] { startFullSync(); });
  }
  return {};
}

void RedisNode::startFullSync() {
  fullSyncScheduled_ = false;
  auto snapshot = std::make_shared<const Dataset>(data_);
  const std::int64_t offset = replOffset_;
  const bool diskless = config_.flag("repl-diskless-sync");
  if (!diskless) saveRdb();  // a disk-based sync leaves an RDB behind
  const std::int64_t ms = 1 + rdbSizeBytes() / kTransferBytesPerMs;
  for (auto& [c, r] : replicas_) {
    if (r.state != ReplicaInfo::State::WaitBgsave) continue;
    r.state = ReplicaInfo::State::SendBulk;
    viewChanged();
    fabric().reply(c, r.psyncReq, RedisReply::status(fmt::format("FULLRESYNC {} {}", replId_, offset)));
    const ConnId conn = c;
    const std::string id = replId_;
    after(milliseconds(ms), [this, conn, snapshot, id, offset] { finishTransfer(conn, snapshot, id, offset); });
  }
  record(fmt::format("full sync: streaming {} keys at offset {}", snapshot->size(), offset));
}

void RedisNode::finishTransfer(ConnId c, std::shared_ptr<const Dataset> snapshot, std::string replid,
                               std::int64_t offset) {
  auto it = replicas_.find(c);
  if (it == replicas_.end() || it->second.state != ReplicaInfo::State::SendBulk) return;
  RedisReply rdb;
  rdb.type = RedisReply::Type::Array;
  rdb.str = "rdb";
  rdb.integer = offset;
  rdb.elements.reserve(1 + 2 * snapshot->size());
  rdb.elements.push_back(RedisReply::bulk(std::move(replid)));
  for (const auto& [k, v] : *snapshot) {
    rdb.elements.push_back(RedisReply::bulk(k));
    rdb.elements.push_back(RedisReply::bulk(v));
  }
  fabric().push(c, std::move(rdb));
  ReplicaInfo& r = it->second;
  for (const StreamEntry& entry : r.pendingStream) fabric().push(c, entry);
  r.pendingStream.clear();
  r.state = ReplicaInfo::State::Online;
  viewChanged();
  r.ackOffset = offset;
  r.lastAckMs = nowMs();
  record(fmt::format("replica {}:{} online after full sync", r.ip, r.port));
  refreshGoodReplicas();
}

void RedisNode::dropReplica(ConnId c) {
  auto it = replicas_.find(c);
  if (it == replicas_.end()) return;
  record(fmt::format("connection with replica {}:{} lost", it->second.ip, it->second.port));
  replicas_.erase(it);
  viewChanged();
  if (replicas_.empty()) noReplicasSinceMs_ = nowMs();
  refreshGoodReplicas();
}

void RedisNode::disconnectReplicas() {
  std::vector<ConnId> ids;
  for (auto& [c, r] : replicas_) ids.push_back(c);
  for (ConnId c : ids) {
    onPeerClosed(c);
    fabric().serverClose(c);
  }
}

void RedisNode::refreshGoodReplicas() {
  const std::int64_t maxLag = hot_.minLag;
  int good = 0;
  for (const auto& [c, r] : replicas_) {
    if (r.state != ReplicaInfo::State::Online) continue;
    const std::int64_t lag = (nowMs() - r.lastAckMs) / 1000;
    if (lag <= maxLag) ++good;
  }
  if (good == goodReplicas_) return;
  goodReplicas_ = good;
  viewChanged();
}

void RedisNode::masterCron() {
  const std::int64_t now = nowMs();
  // PING the replicas every repl-ping-replica-period, so their link sees traffic.
  if (isMaster() && !replicas_.empty() &&
      now - lastReplPingMs_ >= hot_.replPingPeriod * 1000) {
    lastReplPingMs_ = now;
    propagate({"PING"});
  }
  const std::int64_t timeout = hot_.replTimeout * 1000;
  std::vector<ConnId> timedOut;
  for (const auto& [c, r] : replicas_)
    if (r.state == ReplicaInfo::State::Online && now - r.lastAckMs > timeout) timedOut.push_back(c);
  for (ConnId c : timedOut) {
    record("disconnecting timedout replica");
    onPeerClosed(c);
    fabric().serverClose(c);
  }
  // A master without replicas frees its backlog after repl-backlog-ttl, with a new replid.
  const std::int64_t ttl = hot_.replBacklogTtl * 1000;
  if (isMaster() && replicas_.empty() && backlogActive_ && ttl > 0 && now - noReplicasSinceMs_ > ttl) {
    replId_ = hexId(rng_);
    viewChanged();
    replId2_ = std::string(40, '0');
    secondReplOffset_ = -1;
    backlogActive_ = false;
    backlog_.clear();
    backlogHistlen_ = 0;
    backlogFirstByte_ = 0;
  }
  refreshGoodReplicas();
}

// --- FAILOVER ------------------------------------------------------------------------------

RedisReply RedisNode::cmdFailover(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  std::string host;
  int port = 0;
  bool force = false, abort = false;
  std::int64_t timeoutMs = 0;
  for (std::size_t i = 1; i < argv.size(); ++i) {
    const std::string o = lower(argv[i]);
    if (o == "to" && i + 2 < argv.size()) {
      host = argv[i + 1];
      auto p = parseInt(argv[i + 2]);
      if (!p) return RedisReply::error("ERR value is not an integer or out of range");
      port = static_cast<int>(*p);
      i += 2;
    } else if (o == "timeout" && i + 1 < argv.size()) {
      auto t = parseInt(argv[++i]);
      if (!t || *t <= 0) return RedisReply::error("ERR FAILOVER timeout must be greater than 0");
      timeoutMs = *t;
    } else if (o == "force") {
      force = true;
    } else if (o == "abort") {
      abort = true;
    } else {
      return errSyntax();
    }
  }
  if (abort) {
    if (argv.size() != 2) return errSyntax();
    if (failoverState_ == FailoverState::None) return RedisReply::error("ERR No failover in progress.");
    abortFailover("failover aborted by command");
    return ok();
  }
  if (!isMaster()) return RedisReply::error("ERR FAILOVER is not valid when server is a replica.");
  if (failoverState_ != FailoverState::None) return RedisReply::error("ERR FAILOVER already in progress.");
  if (force && (host.empty() || timeoutMs == 0))
    return RedisReply::error("ERR FAILOVER with force option requires both a timeout and target HOST and IP.");
  if (connectedReplicas() == 0) return RedisReply::error("ERR FAILOVER requires connected replicas.");
  if (!host.empty()) {
    bool found = false;
    for (const auto& [c, r] : replicas_)
      if (r.state == ReplicaInfo::State::Online && r.ip == host && r.port == port) found = true;
    if (!found) return RedisReply::error("ERR FAILOVER target HOST and PORT is not a replica.");
  } else {
    // The online replica with the largest acknowledged offset.
    std::int64_t best = -1;
    for (const auto& [c, r] : replicas_) {
      if (r.state == ReplicaInfo::State::Online && r.ackOffset > best) {
        best = r.ackOffset;
        host = r.ip;
        port = r.port;
      }
    }
  }
  failoverState_ = FailoverState::WaitForSync;
  viewChanged();
  failoverHost_ = host;
  failoverPort_ = port;
  failoverForce_ = force;
  failoverDeadlineMs_ = timeoutMs > 0 ? nowMs() + timeoutMs : 0;
  record(fmt::format("FAILOVER to {}:{} requested", host, port));
  return ok();
}

void RedisNode::failoverCron() {
  if (failoverState_ != FailoverState::WaitForSync) return;
  bool caughtUp = false;
  for (const auto& [c, r] : replicas_) {
    if (r.state == ReplicaInfo::State::Online && r.ip == failoverHost_ && r.port == failoverPort_ &&
        r.ackOffset >= replOffset_)
      caughtUp = true;
  }
  const bool expired = failoverDeadlineMs_ != 0 && nowMs() >= failoverDeadlineMs_;
  if (!caughtUp && expired && !failoverForce_) {
    abortFailover("FAILOVER to the target timed out");
    return;
  }
  if (!caughtUp && !expired) return;
  failoverState_ = FailoverState::InProgress;
  viewChanged();
  record(fmt::format("FAILOVER: handing over to {}:{}", failoverHost_, failoverPort_));
  setMaster(failoverHost_, failoverPort_);
  link_.failoverPsync = true;
}

void RedisNode::abortFailover(const std::string& why) {
  record(why);
  if (failoverState_ == FailoverState::InProgress && !isMaster()) unsetMaster();
  failoverState_ = FailoverState::None;
  viewChanged();
  releasePausedWrites();
}

void RedisNode::releasePausedWrites() {
  std::vector<PausedWrite> paused = std::move(pausedWrites_);
  pausedWrites_.clear();
  for (auto& p : paused) {
    auto it = clients_.find(p.conn);
    if (it == clients_.end()) continue;
    bool deferred = false;
    RedisReply rep = dispatch(it->second, p.conn, p.req, p.argv, &deferred);
    if (!deferred) replyTo(p.conn, p.req, std::move(rep));
  }
}

}  // namespace kun::redissim
