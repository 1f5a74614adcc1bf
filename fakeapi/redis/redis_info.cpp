// INFO and ROLE, laid out field for field as redis-server 7.0 prints them (the operator
// and Sentinel parse this text). Fields that describe the host (os, memory allocator,
// CPU) carry fixed plausible values.
#include <cstring>
#include <limits>

#include "core/redis/info_parser.h"
#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/text_out.h"
#include "fakeapi/redis/view_digest.h"

namespace kun::redissim {

namespace {
const char* linkStateName(int s) {
  switch (s) {
    case 1: return "connect";
    case 2: return "connecting";
    case 3: return "handshake";
    case 4: return "sync";
    case 5: return "connected";
    default: return "none";
  }
}

// ReplicaInfo::State, FailoverState (private to RedisNode) by their values.
const char* replicaStateName(int s) {
  switch (s) {
    case 1: return "send_bulk";
    case 2: return "online";
    default: return "wait_bgsave";
  }
}

const char* failoverStateName(int s) {
  switch (s) {
    case 1: return "waiting-for-sync";
    case 2: return "failover-in-progress";
    default: return "no-failover";
  }
}
}  // namespace

std::string RedisNode::infoText(const std::string& section) {
  struct Sec {
    std::string_view name;
    void (RedisNode::*fn)(std::string&);
    bool byDefault;
  };
  static const Sec kSections[] = {
      {"server", &RedisNode::infoServer, true},           {"clients", &RedisNode::infoClients, true},
      {"memory", &RedisNode::infoMemory, true},           {"persistence", &RedisNode::infoPersistence, true},
      {"stats", &RedisNode::infoStats, true},             {"replication", &RedisNode::infoReplication, true},
      {"keyspace", &RedisNode::infoKeyspace, true},
  };
  const bool all = iequals(section, "all") || iequals(section, "everything") || iequals(section, "default");
  std::string out;
  // A whole INFO is about 2.4 kB, one section well under 1 kB.
  out.reserve(all ? 3072 : 1024);
  for (const auto& s : kSections) {
    if (!(all && s.byDefault) && !iequals(section, s.name)) continue;
    if (!out.empty()) out += "\r\n";
    (this->*s.fn)(out);
  }
  return out;
}

void RedisNode::appendViewDigest(ViewHash& out) const {
  digest(out, state(), loading(), isMaster(), masterHost_, masterPort_, link_.state, hot_.requirepass,
         hot_.replicaPriority, hot_.readOnly, hot_.replicaAnnounced,
         failoverState_, replId_, goodReplicas_, replicas_.size());
  for (const auto& [c, r] : replicas_) digest(out, r.ip, r.port, r.state);
}

void RedisNode::infoServer(std::string& out) {
  const std::int64_t up = (nowMs() - bootMs_) / 1000;
  const std::int64_t hz = hot_.hz;
  const std::int64_t wall = loop().wallMicros();
  TextOut(out) << kInfoServerHead << "redis_mode:standalone\r\n" << kInfoServerHost
               << "process_id:" << processId_ << "\r\n"
                  "process_supervised:no\r\n"
                  "run_id:" << runId_ << "\r\n"
                  "tcp_port:" << port_ << "\r\n"
                  "server_time_usec:" << wall << "\r\n"
                  "uptime_in_seconds:" << up << "\r\n"
                  "uptime_in_days:" << up / 86400 << "\r\n"
                  "hz:" << hz << "\r\n"
                  "configured_hz:" << hz << "\r\n"
                  "lru_clock:" << ((wall / 1000000) & 0xFFFFFF) << "\r\n"
                  "executable:/usr/bin/redis-server\r\n"
                  "config_file:/etc/redis/redis.conf\r\n"
                  "io_threads_active:0\r\n";
}

void RedisNode::infoClients(std::string& out) {
  std::size_t pubsub = 0;
  for (const auto& [c, cl] : clients_) pubsub += cl.channels.empty() ? 0 : 1;
  TextOut(out) << "# Clients\r\n"
                  "connected_clients:" << clients_.size() - replicas_.size() << "\r\n"
                  "cluster_connections:0\r\n"
                  "maxclients:" << hot_.maxclients << "\r\n"
                  "client_recent_max_input_buffer:20480\r\n"
                  "client_recent_max_output_buffer:0\r\n"
                  "blocked_clients:" << pausedWrites_.size() << "\r\n"
                  "tracking_clients:0\r\n"
                  "clients_in_timeout_table:0\r\n"
                  "pubsub_clients:" << pubsub << "\r\n";
}

void RedisNode::infoMemory(std::string& out) {
  const std::int64_t used = 870000 + rdbSizeBytes() * 2;
  const std::int64_t max = hot_.maxmemory;
  TextOut t(out);
  t << "# Memory\r\n"
       "used_memory:" << used << "\r\n"
       "used_memory_human:";
  t.megabytes(used) << "M\r\n"
                       "maxmemory:" << max << "\r\n"
                       "maxmemory_human:";
  t.megabytes(max) << "M\r\n"
                      "maxmemory_policy:" << hot_.maxmemoryPolicy << "\r\n"
                      "mem_allocator:jemalloc-5.3.0\r\n";
}

void RedisNode::infoPersistence(std::string& out) {
  TextOut(out) << "# Persistence\r\n"
                  "loading:" << (loading() ? 1 : 0) << "\r\n"
                  "async_loading:0\r\n"
                  "current_cow_peak:0\r\n"
                  "current_cow_size:0\r\n"
                  "current_cow_size_age:0\r\n"
                  "current_fork_perc:0.00\r\n"
                  "current_save_keys_processed:0\r\n"
                  "current_save_keys_total:0\r\n"
                  "rdb_changes_since_last_save:" << dirty_ << "\r\n"
                  "rdb_bgsave_in_progress:0\r\n"
                  "rdb_last_save_time:" << (loop().wallMicros() - (nowMs() - lastSaveMs_) * 1000) / 1000000 << "\r\n"
                  "rdb_last_bgsave_status:ok\r\n"
                  "rdb_last_bgsave_time_sec:0\r\n"
                  "rdb_current_bgsave_time_sec:-1\r\n"
                  "aof_enabled:" << (hot_.appendonly ? 1 : 0) << "\r\n"
                  "aof_rewrite_in_progress:0\r\n"
                  "aof_rewrite_scheduled:0\r\n"
                  "aof_last_rewrite_time_sec:-1\r\n"
                  "aof_current_rewrite_time_sec:-1\r\n"
                  "aof_last_bgrewrite_status:ok\r\n"
                  "aof_last_write_status:ok\r\n";
}

void RedisNode::infoStats(std::string& out) {
  TextOut(out) << "# Stats\r\n"
                  "total_connections_received:" << statConnections_ << "\r\n"
                  "total_commands_processed:" << statCommands_ << "\r\n"
                  "instantaneous_ops_per_sec:0\r\n"
                  "rejected_connections:0\r\n"
                  "sync_full:" << statFullSyncs_ << "\r\n"
                  "sync_partial_ok:" << statPartialOk_ << "\r\n"
                  "sync_partial_err:" << statPartialErr_ << "\r\n"
                  "expired_keys:0\r\n"
                  "evicted_keys:0\r\n"
                  "pubsub_channels:" << channels_.size() << "\r\n";
}

void RedisNode::infoKeyspace(std::string& out) {
  TextOut t(out);
  t << "# Keyspace\r\n";
  if (!data_.empty()) t << "db0:keys=" << data_.size() << ",expires=0,avg_ttl=0\r\n";
}

void RedisNode::infoReplication(std::string& out) {
  const std::int64_t now = nowMs();
  TextOut t(out);
  t << "# Replication\r\n";
  if (isMaster()) {
    t << "role:master\r\n";
  } else {
    const bool up = link_.state == LinkState::Connected;
    const bool sync = link_.state == LinkState::Sync;
    t << "role:slave\r\n"
         "master_host:" << masterHost_ << "\r\n"
         "master_port:" << masterPort_ << "\r\n"
         "master_link_status:" << (up ? "up" : "down") << "\r\n"
         "master_last_io_seconds_ago:" << (up ? (now - link_.lastIoMs) / 1000 : -1) << "\r\n"
         "master_sync_in_progress:" << (sync ? 1 : 0) << "\r\n"
         "slave_read_repl_offset:" << replOffset_ << "\r\n"
         "slave_repl_offset:" << replOffset_ << "\r\n";
    if (sync) {
      t << "master_sync_total_bytes:-1\r\n"
           "master_sync_read_bytes:0\r\n"
           "master_sync_left_bytes:-1\r\n"
           "master_sync_perc:-0.00\r\n"
           "master_sync_last_io_seconds_ago:" << (now - link_.lastIoMs) / 1000 << "\r\n";
    }
    if (!up) {
      t << "master_link_down_since_seconds:" << link_.downSinceSeconds(now) << "\r\n";
    }
    t << "slave_priority:" << hot_.replicaPriority << "\r\n"
         "slave_read_only:" << (hot_.readOnly ? 1 : 0) << "\r\n"
         "replica_announced:" << (hot_.replicaAnnounced ? 1 : 0) << "\r\n";
  }
  t << "connected_slaves:" << replicas_.size() << "\r\n";
  if (hot_.minReplicas > 0 && hot_.minLag > 0) t << "min_slaves_good_slaves:" << goodReplicas_ << "\r\n";
  int i = 0;
  for (const auto& [c, r] : replicas_) {
    const char* st = replicaStateName(static_cast<int>(r.state));
    const std::int64_t lag = r.state == ReplicaInfo::State::Online ? (now - r.lastAckMs) / 1000 : 0;
    t << "slave" << i++ << ":ip=" << r.ip << ",port=" << r.port << ",state=" << st
      << ",offset=" << (r.state == ReplicaInfo::State::WaitBgsave ? 0 : r.ackOffset) << ",lag=" << lag << "\r\n";
  }
  t << "master_failover_state:" << failoverStateName(static_cast<int>(failoverState_)) << "\r\n"
       "master_replid:" << replId_ << "\r\n"
       "master_replid2:" << replId2_ << "\r\n"
       "master_repl_offset:" << replOffset_ << "\r\n"
       "second_repl_offset:" << secondReplOffset_ << "\r\n"
       "repl_backlog_active:" << (backlogActive_ ? 1 : 0) << "\r\n"
       "repl_backlog_size:" << hot_.backlogSize << "\r\n"
       "repl_backlog_first_byte_offset:" << backlogFirstByte_ << "\r\n"
       "repl_backlog_histlen:" << backlogHistlen_ << "\r\n";
}

namespace {

// A value INFO would give back unchanged from the end of its line: no line break inside, no
// trailing space for the line's trim to take.
bool readsBackAtLineEnd(std::string_view v) {
  return v.find('\n') == std::string_view::npos && (v.empty() || static_cast<unsigned char>(v.back()) > ' ');
}

}  // namespace

std::optional<RedisReply> RedisNode::adminReplicationInfo(const Argv& argv, const std::string& password,
                                                          ReplicationInfo& out) {
  // The command runs as executeAdmin runs it (AUTH, the checks, the count); only cmdInfo's
  // text is skipped when it can fill `out` instead.
  replicationOut_ = &out;
  RedisReply reply = executeAdmin(argv, password);
  const bool filled = replicationOut_ == nullptr;
  replicationOut_ = nullptr;
  if (filled) return std::nullopt;
  return reply;
}

// Field for field what parseReplicationInfo makes of infoReplication's text, including the
// defaults of the fields a master's text leaves out. The unit test compares the two.
bool RedisNode::replicationFields(ReplicationInfo& r) const {
  static_assert(static_cast<int>(ReplicaInfo::State::SendBulk) == 1 && static_cast<int>(ReplicaInfo::State::Online) == 2);
  static_assert(static_cast<int>(FailoverState::WaitForSync) == 1 && static_cast<int>(FailoverState::InProgress) == 2);
  // Text that would not read back as it is (checked before anything is written).
  if (!readsBackAtLineEnd(replId_) || !readsBackAtLineEnd(replId2_)) return false;
  for (const auto& [c, rep] : replicas_)  // an entry is split at commas, its line at line breaks
    if (rep.ip.find_first_of(",\n") != std::string::npos) return false;
  const std::int64_t priority = isMaster() ? 100 : hot_.replicaPriority;
  if (!isMaster() && (!readsBackAtLineEnd(masterHost_) || priority < std::numeric_limits<int>::min() ||
                        priority > std::numeric_limits<int>::max())) return false;

  const std::int64_t now = nowMs();
  const bool up = link_.state == LinkState::Connected;
  if (isMaster()) {
    r.role = "master";
    r.masterHost.clear();
    r.masterPort = 0;
    r.masterLinkStatus.clear();
    r.slaveReplOffset = 0;
  } else {
    r.role = "slave";
    r.masterHost = masterHost_;
    r.masterPort = masterPort_;
    r.masterLinkStatus = up ? "up" : "down";
    r.slaveReplOffset = replOffset_;
  }
  // A master's text has none of these: the parse's defaults.
  r.masterLastIoSecondsAgo = !isMaster() && up ? (now - link_.lastIoMs) / 1000 : -1;
  r.masterSyncInProgress = !isMaster() && link_.state == LinkState::Sync;
  r.masterLinkDownSinceSeconds = !isMaster() && !up ? link_.downSinceSeconds(now) : -1;
  r.slavePriority = static_cast<int>(priority);
  r.slaveReadOnly = isMaster() || hot_.readOnly;

  r.connectedSlaves = static_cast<int>(replicas_.size());
  r.replicas.clear();
  r.replicas.reserve(replicas_.size());
  int i = 0;
  for (const auto& [c, rep] : replicas_) {
    InfoReplicaEntry& e = r.replicas.emplace_back();
    e.index = i++;
    e.ip = rep.ip;
    e.port = rep.port;
    e.state = replicaStateName(static_cast<int>(rep.state));
    e.offset = rep.state == ReplicaInfo::State::WaitBgsave ? 0 : rep.ackOffset;
    e.lag = rep.state == ReplicaInfo::State::Online ? (now - rep.lastAckMs) / 1000 : 0;
  }
  r.masterFailoverState = failoverStateName(static_cast<int>(failoverState_));
  r.masterReplid = replId_;
  r.masterReplid2 = replId2_;
  r.masterReplOffset = replOffset_;
  r.secondReplOffset = secondReplOffset_;
  r.replBacklogActive = backlogActive_;
  return true;
}

bool RedisNode::sentinelInfoText(std::string& out) const {
  // Only a value with a line break could differ: it would make lines of its own in the
  // whole text (a master host or a replica's address given by a client; the run id is a
  // hex id). Two memchr (find_first_of calls one per character).
  auto oneLine = [](std::string_view v) {
    return std::memchr(v.data(), '\n', v.size()) == nullptr && std::memchr(v.data(), '\r', v.size()) == nullptr;
  };
  if (!oneLine(masterHost_)) return false;
  for (const auto& [c, rep] : replicas_)
    if (!oneLine(rep.ip)) return false;
  const std::int64_t now = nowMs();
  TextOut t(out);
  t << "run_id:" << runId_ << "\r\n";
  if (isMaster()) {
    t << "role:master\r\n";
  } else {
    const bool up = link_.state == LinkState::Connected;
    t << "role:slave\r\n"
         "master_host:" << masterHost_ << "\r\n"
         "master_port:" << masterPort_ << "\r\n"
         "master_link_status:" << (up ? "up" : "down") << "\r\n"
         "slave_repl_offset:" << replOffset_ << "\r\n";
    if (!up) {
      t << "master_link_down_since_seconds:" << link_.downSinceSeconds(now) << "\r\n";
    }
    t << "slave_priority:" << hot_.replicaPriority << "\r\n"
         "replica_announced:" << (hot_.replicaAnnounced ? 1 : 0) << "\r\n";
  }
  // A replica line is read up to its port (its address is taken from "ip=" to the next
  // comma, its port from "port=" to the next comma or the end).
  int i = 0;
  for (const auto& [c, r] : replicas_) t << "slave" << i++ << ":ip=" << r.ip << ",port=" << r.port << "\r\n";
  return true;
}

RedisReply RedisNode::roleReply() const {
  if (isMaster()) {
    std::vector<RedisReply> reps;
    for (const auto& [c, r] : replicas_) {
      if (r.state != ReplicaInfo::State::Online) continue;
      reps.push_back(bulkArray({r.ip, std::to_string(r.port), std::to_string(r.ackOffset)}));
    }
    return RedisReply::array({RedisReply::bulk("master"), intReply(replOffset_), RedisReply::array(std::move(reps))});
  }
  const bool up = link_.state == LinkState::Connected;
  return RedisReply::array({RedisReply::bulk("slave"), RedisReply::bulk(masterHost_), intReply(masterPort_),
                            RedisReply::bulk(linkStateName(static_cast<int>(link_.state))),
                            intReply(up ? replOffset_ : -1)});
}

}  // namespace kun::redissim
