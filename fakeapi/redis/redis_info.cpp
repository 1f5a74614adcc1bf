// INFO and ROLE, laid out field for field as redis-server 7.0 prints them (the operator
// and Sentinel parse this text). Fields that describe the host (os, memory allocator,
// CPU) carry fixed plausible values.
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
  const std::int64_t hz = config_.integer("hz");
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
                  "maxclients:" << config_.integer("maxclients") << "\r\n"
                  "client_recent_max_input_buffer:20480\r\n"
                  "client_recent_max_output_buffer:0\r\n"
                  "blocked_clients:" << pausedWrites_.size() << "\r\n"
                  "tracking_clients:0\r\n"
                  "clients_in_timeout_table:0\r\n"
                  "pubsub_clients:" << pubsub << "\r\n";
}

void RedisNode::infoMemory(std::string& out) {
  const std::int64_t used = 870000 + rdbSizeBytes() * 2;
  const std::int64_t max = config_.integer("maxmemory");
  TextOut t(out);
  t << "# Memory\r\n"
       "used_memory:" << used << "\r\n"
       "used_memory_human:";
  t.megabytes(used) << "M\r\n"
                       "maxmemory:" << max << "\r\n"
                       "maxmemory_human:";
  t.megabytes(max) << "M\r\n"
                      "maxmemory_policy:" << config_.str("maxmemory-policy") << "\r\n"
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
      t << "master_link_down_since_seconds:"
        << (link_.downSinceMs != 0 ? (now - link_.downSinceMs) / 1000 : -1) << "\r\n";
    }
    t << "slave_priority:" << config_.integer("replica-priority") << "\r\n"
         "slave_read_only:" << (hot_.readOnly ? 1 : 0) << "\r\n"
         "replica_announced:" << (config_.flag("replica-announced") ? 1 : 0) << "\r\n";
  }
  t << "connected_slaves:" << replicas_.size() << "\r\n";
  if (hot_.minReplicas > 0 && hot_.minLag > 0) t << "min_slaves_good_slaves:" << goodReplicas_ << "\r\n";
  int i = 0;
  for (const auto& [c, r] : replicas_) {
    const char* st = r.state == ReplicaInfo::State::Online     ? "online"
                     : r.state == ReplicaInfo::State::SendBulk ? "send_bulk"
                                                               : "wait_bgsave";
    const std::int64_t lag = r.state == ReplicaInfo::State::Online ? (now - r.lastAckMs) / 1000 : 0;
    t << "slave" << i++ << ":ip=" << r.ip << ",port=" << r.port << ",state=" << st
      << ",offset=" << (r.state == ReplicaInfo::State::WaitBgsave ? 0 : r.ackOffset) << ",lag=" << lag << "\r\n";
  }
  const char* fo = failoverState_ == FailoverState::None         ? "no-failover"
                   : failoverState_ == FailoverState::WaitForSync ? "waiting-for-sync"
                                                                  : "failover-in-progress";
  t << "master_failover_state:" << fo << "\r\n"
       "master_replid:" << replId_ << "\r\n"
       "master_replid2:" << replId2_ << "\r\n"
       "master_repl_offset:" << replOffset_ << "\r\n"
       "second_repl_offset:" << secondReplOffset_ << "\r\n"
       "repl_backlog_active:" << (backlogActive_ ? 1 : 0) << "\r\n"
       "repl_backlog_size:" << hot_.backlogSize << "\r\n"
       "repl_backlog_first_byte_offset:" << backlogFirstByte_ << "\r\n"
       "repl_backlog_histlen:" << backlogHistlen_ << "\r\n";
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
