// Replication, the replica's half: REPLICAOF, the handshake with the master (PING, AUTH
// masterauth, REPLCONF, PSYNC), loading a full sync, applying the stream, ACKs and the
// repl-timeout checks, reconnecting every second while the master is unreachable.
#include <fmt/format.h>

#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"

namespace kun::redissim {

namespace {
const char* kZeroId = "0000000000000000000000000000000000000000";
}

RedisReply RedisNode::cmdReplicaof(Client&, ConnId, RequestId, const Argv& argv, bool*) {
  if (failoverState_ != FailoverState::None)
    return RedisReply::error("ERR REPLICAOF not allowed while failing over.");
  if (iequals(argv[1], "no") && iequals(argv[2], "one")) {
    if (!isMaster()) {
      unsetMaster();
      record("MASTER MODE enabled (user request)");
    }
    return ok();
  }
  auto p = parseInt(argv[2]);
  if (!p || *p < 0 || *p > 65535) return RedisReply::error("ERR Invalid master port");
  const int port = static_cast<int>(*p);
  if (!isMaster() && masterHost_ == argv[1] && masterPort_ == port)
    return RedisReply::status("OK Already connected to specified master");
  setMaster(argv[1], port);
  record(fmt::format("REPLICAOF {}:{} enabled (user request)", argv[1], port));
  return ok();
}

void RedisNode::setMaster(const std::string& host, int port) {
  const bool wasMaster = isMaster();
  if (link_.conn != 0) fabric().close(link_.conn);
  masterHost_ = host;
  masterPort_ = port;
  viewChanged();
  config_.load("replicaof", host + " " + std::to_string(port));
  // A former master resumes from its own history: PSYNC with its replid and offset.
  if (wasMaster) psyncCached_ = true;
  const std::int64_t downSince = link_.downSinceMs;
  link_ = MasterLink{};
  link_.downSinceMs = downSince;
  link_.state = LinkState::Connect;
  link_.stateSinceMs = nowMs();
  connectToMaster();
}

void RedisNode::unsetMaster() {
  if (link_.conn != 0) fabric().close(link_.conn);
  masterHost_.clear();
  masterPort_ = 0;
  viewChanged();
  config_.load("replicaof", "");
  link_ = MasterLink{};
  // New history from here: the old replid stays valid for replicas up to this offset.
  shiftReplicationId();
  if (!backlogActive_) createBacklog();
  streamDb_ = -1;
  noReplicasSinceMs_ = nowMs();
}

void RedisNode::connectToMaster() {
  const std::uint64_t attempt = ++link_.attempt;
  link_.state = LinkState::Connecting;
  viewChanged();
  link_.stateSinceMs = nowMs();
  ClientHandlers h;
  h.onConnect = [this, attempt](bool okc) {
    if (attempt != link_.attempt) return;
    if (!okc) {
      record(fmt::format("error connecting to MASTER {}:{}: connection refused", masterHost_, masterPort_));
      link_.conn = 0;
      link_.state = LinkState::Connect;
      viewChanged();
      link_.stateSinceMs = nowMs();
      return;
    }
    link_.state = LinkState::Handshake;
    viewChanged();
    link_.stateSinceMs = nowMs();
    link_.lastIoMs = nowMs();
    sendHandshake(attempt, 0, {"PING"});
  };
  h.onSharedPush = [this, attempt](const StreamEntry& msg) { onMasterPush(attempt, msg); };
  h.onClose = [this, attempt] {
    if (attempt != link_.attempt) return;
    link_.conn = 0;
    linkLost("connection with master lost");
  };
  link_.conn = fabric().connect(procId(), netId(), {masterHost_, masterPort_}, std::move(h));
}

void RedisNode::sendHandshake(std::uint64_t attempt, int step, Argv argv) {
  if (link_.conn == 0) return;
  fabric().request(link_.conn, std::move(argv), [this, attempt, step](RedisReply r) {
    if (attempt != link_.attempt) return;
    link_.lastIoMs = nowMs();
    handshakeStep(attempt, step, std::move(r));
  });
}

void RedisNode::handshakeStep(std::uint64_t attempt, int step, RedisReply reply) {
  auto giveUp = [this](const std::string& why) {
    record(why);
    linkLost(why);
  };
  switch (step) {
    case 0:  // PING: +PONG, or an auth error, lets the handshake go on
      if (reply.isError() && reply.errorCode() != "NOAUTH" && reply.str.find("operation not permitted") == std::string::npos)
        return giveUp("error reply to PING from master: " + reply.str);
      if (!config_.str("masterauth").empty()) {
        sendHandshake(attempt, 1, {"AUTH", config_.str("masterauth")});
        return;
      }
      [[fallthrough]];
    case 1:  // AUTH
      if (step == 1 && reply.isError()) return giveUp("Unable to AUTH to MASTER: " + reply.str);
      {
        Argv conf{"REPLCONF", "listening-port", std::to_string(port_)};
        const std::string& announce = config_.str("replica-announce-ip");
        if (!announce.empty()) {
          conf.push_back("ip-address");
          conf.push_back(announce);
        }
        sendHandshake(attempt, 2, std::move(conf));
      }
      return;
    case 2:  // REPLCONF listening-port
      if (reply.isError()) return giveUp("Master replied to REPLCONF with an error: " + reply.str);
      sendHandshake(attempt, 3, {"REPLCONF", "capa", "eof", "capa", "psync2"});
      return;
    case 3: {  // REPLCONF capa
      Argv psync{"PSYNC", "?", "-1"};
      if (psyncCached_) psync = {"PSYNC", replId_, std::to_string(replOffset_ + 1)};
      if (link_.failoverPsync) psync.push_back("FAILOVER");
      record(psyncCached_ ? fmt::format("trying a partial resynchronization (request {}:{})", replId_, replOffset_ + 1)
                          : "partial resynchronization not possible (no cached master)");
      sendHandshake(attempt, 4, std::move(psync));
      return;
    }
    case 4: {  // PSYNC
      if (reply.isError()) return giveUp("unexpected reply to PSYNC from master: " + reply.str);
      if (reply.str.rfind("FULLRESYNC ", 0) == 0) {
        link_.state = LinkState::Sync;
        viewChanged();
        link_.stateSinceMs = nowMs();
        link_.syncReplId = reply.str.substr(11, 40);
        record("full resync from master: " + reply.str.substr(11));
        return;
      }
      if (reply.str.rfind("CONTINUE", 0) == 0) {
        const std::string newId = reply.str.size() > 9 ? reply.str.substr(9) : replId_;
        if (newId != replId_) {
          // The master's history forked from ours at our offset: remember the old id.
          replId2_ = replId_;
          secondReplOffset_ = replOffset_ + 1;
          replId_ = newId;
          disconnectReplicas();
        }
        if (!backlogActive_) createBacklog();
        link_.state = LinkState::Connected;
        viewChanged();  // and the replid and failover state below
        link_.stateSinceMs = nowMs();
        link_.downSinceMs = 0;
        record("successful partial resynchronization with master");
        if (link_.failoverPsync && failoverState_ == FailoverState::InProgress) {
          failoverState_ = FailoverState::None;
          record("FAILOVER completed");
          releasePausedWrites();
        }
        return;
      }
      return giveUp("unexpected reply to PSYNC from master: " + reply.str);
    }
    default:
      return;
  }
}

void RedisNode::linkLost(const std::string& why) {
  if (link_.state == LinkState::None) return;
  if (link_.conn != 0) {
    fabric().close(link_.conn);
    link_.conn = 0;
  }
  if (link_.state == LinkState::Connected) {
    psyncCached_ = true;
    link_.downSinceMs = nowMs();
    record("master link down: " + why);
  }
  const bool failingOver = link_.failoverPsync && failoverState_ == FailoverState::InProgress;
  ++link_.attempt;
  link_.state = LinkState::Connect;
  viewChanged();
  link_.stateSinceMs = nowMs();
  if (failingOver) abortFailover("FAILOVER target unreachable: resuming as master");
}

void RedisNode::onMasterPush(std::uint64_t attempt, const StreamEntry& entry) {
  if (attempt != link_.attempt) return;
  const RedisReply& msg = *entry;
  link_.lastIoMs = nowMs();
  if (msg.str == "rdb") {
    if (link_.state != LinkState::Sync || msg.elements.empty()) return;
    // A full sync replaces everything: whatever this node wrote on its own is gone.
    const std::size_t before = data_.size();
    data_.clear();
    for (std::size_t i = 1; i + 1 < msg.elements.size(); i += 2)
      data_.emplace(msg.elements[i].str, msg.elements[i + 1].str);
    recountData();
    replId_ = msg.elements[0].str;
    viewChanged();  // and the link and failover state below
    replId2_ = kZeroId;
    secondReplOffset_ = -1;
    replOffset_ = msg.integer;
    createBacklog();
    psyncCached_ = true;
    link_.state = LinkState::Connected;
    link_.stateSinceMs = nowMs();
    link_.downSinceMs = 0;
    loadingUntilMs_ = nowMs() + static_cast<std::int64_t>(data_.size()) / 1000;
    dirty_ += 1;
    if (config_.flag("appendonly")) {
      disk_.aof = data_;
      aofPending_.clear();
    }
    disconnectReplicas();
    record(fmt::format("MASTER <-> REPLICA sync finished: {} keys loaded ({} before flush)", data_.size(), before));
    if (link_.failoverPsync && failoverState_ == FailoverState::InProgress) {
      failoverState_ = FailoverState::None;
      record("FAILOVER completed");
      releasePausedWrites();
    }
    return;
  }
  if (msg.str != "stream" || link_.state != LinkState::Connected) return;
  if (msg.integer != replOffset_ + 1) {
    // A hole in the stream (packets lost under a partition): resync from our offset.
    record(fmt::format("replication stream gap at {} (expected {})", msg.integer, replOffset_ + 1));
    linkLost("stream gap");
    return;
  }
  const std::vector<RedisReply>& command = msg.elements;
  const std::int64_t len = respLength(command);
  replOffset_ += len;
  if (command.size() == 3 && iequals(command[0].str, "publish")) {
    deliverPublish(command[1].str, command[2].str);
  } else {
    Argv argv;
    argv.reserve(command.size());
    for (const auto& e : command) argv.push_back(e.str);
    applyWrite(argv);
  }
  // Chained replicas get the same stream, at the same offsets: the same entry.
  for (auto& [c, r] : replicas_) {
    if (r.state == ReplicaInfo::State::Online) fabric().push(c, entry);
    else if (r.state == ReplicaInfo::State::SendBulk) r.pendingStream.push_back(entry);
  }
  feedBacklog(entry, len);
}

void RedisNode::replicaCron() {
  const std::int64_t now = nowMs();
  const std::int64_t timeout = hot_.replTimeout * 1000;
  switch (link_.state) {
    case LinkState::None:
      return;
    case LinkState::Connect:
      connectToMaster();
      return;
    case LinkState::Connecting:
    case LinkState::Handshake:
      if (now - link_.stateSinceMs > timeout) linkLost("timeout connecting to the MASTER");
      return;
    case LinkState::Sync:
      if (now - link_.lastIoMs > timeout) linkLost("timeout receiving bulk data from MASTER");
      return;
    case LinkState::Connected:
      if (now - link_.lastIoMs > timeout) {
        linkLost("MASTER timeout: no data nor PING received");
        return;
      }
      fabric().request(link_.conn, {"REPLCONF", "ACK", std::to_string(replOffset_)}, nullptr);
      return;
  }
}

}  // namespace kun::redissim
