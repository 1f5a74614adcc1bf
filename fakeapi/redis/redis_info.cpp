// INFO and ROLE, laid out field for field as redis-server 7.0 prints them (the operator
// and Sentinel parse this text). Fields that describe the host (os, memory allocator,
// CPU) carry fixed plausible values.
#include <iterator>

#include <fmt/format.h>

#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"
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

std::string RedisNode::infoText(const std::string& sectionIn) {
  const std::string section = lower(sectionIn);
  struct Sec {
    const char* name;
    std::string (RedisNode::*fn)();
    bool byDefault;
  };
  static const Sec kSections[] = {
      {"server", &RedisNode::infoServer, true},           {"clients", &RedisNode::infoClients, true},
      {"memory", &RedisNode::infoMemory, true},           {"persistence", &RedisNode::infoPersistence, true},
      {"stats", &RedisNode::infoStats, true},             {"replication", &RedisNode::infoReplication, true},
      {"keyspace", &RedisNode::infoKeyspace, true},
  };
  const bool all = section == "all" || section == "everything" || section == "default";
  std::string out;
  for (const auto& s : kSections) {
    if (!(all && s.byDefault) && section != s.name) continue;
    if (!out.empty()) out += "\r\n";
    out += (this->*s.fn)();
  }
  return out;
}

void RedisNode::appendViewDigest(ViewHash& out) const {
  digest(out, state(), loading(), isMaster(), masterHost_, masterPort_, link_.state, config_.str("requirepass"),
         config_.integer("replica-priority"), config_.flag("replica-read-only"), config_.flag("replica-announced"),
         failoverState_, replId_, goodReplicas_, replicas_.size());
  for (const auto& [c, r] : replicas_) digest(out, r.ip, r.port, r.state);
}

std::string RedisNode::infoServer() {
  const std::int64_t up = (nowMs() - bootMs_) / 1000;
  return fmt::format(
      "# Server\r\n"
      "redis_version:7.0.15\r\n"
      "redis_git_sha1:00000000\r\n"
      "redis_git_dirty:0\r\n"
      "redis_build_id:ae4d7c971a948f0\r\n"
      "redis_mode:standalone\r\n"
      "os:Linux 5.15.0 x86_64\r\n"
      "arch_bits:64\r\n"
      "monotonic_clock:POSIX clock_gettime\r\n"
      "multiplexing_api:epoll\r\n"
      "atomicvar_api:c11-builtin\r\n"
      "gcc_version:12.2.0\r\n"
      "process_id:{}\r\n"
      "process_supervised:no\r\n"
      "run_id:{}\r\n"
      "tcp_port:{}\r\n"
      "server_time_usec:{}\r\n"
      "uptime_in_seconds:{}\r\n"
      "uptime_in_days:{}\r\n"
      "hz:{}\r\n"
      "configured_hz:{}\r\n"
      "lru_clock:{}\r\n"
      "executable:/usr/bin/redis-server\r\n"
      "config_file:/etc/redis/redis.conf\r\n"
      "io_threads_active:0\r\n",
      processId_, runId_, port_, loop().wallMicros(), up, up / 86400, config_.integer("hz"),
      config_.integer("hz"), (loop().wallMicros() / 1000000) & 0xFFFFFF);
}

std::string RedisNode::infoClients() {
  std::size_t pubsub = 0;
  for (const auto& [c, cl] : clients_) pubsub += cl.channels.empty() ? 0 : 1;
  return fmt::format(
      "# Clients\r\n"
      "connected_clients:{}\r\n"
      "cluster_connections:0\r\n"
      "maxclients:{}\r\n"
      "client_recent_max_input_buffer:20480\r\n"
      "client_recent_max_output_buffer:0\r\n"
      "blocked_clients:{}\r\n"
      "tracking_clients:0\r\n"
      "clients_in_timeout_table:0\r\n"
      "pubsub_clients:{}\r\n",
      clients_.size() - replicas_.size(), config_.integer("maxclients"), pausedWrites_.size(), pubsub);
}

std::string RedisNode::infoMemory() {
  const std::int64_t used = 870000 + rdbSizeBytes() * 2;
  return fmt::format(
      "# Memory\r\n"
      "used_memory:{}\r\n"
      "used_memory_human:{:.2f}M\r\n"
      "maxmemory:{}\r\n"
      "maxmemory_human:{:.2f}M\r\n"
      "maxmemory_policy:{}\r\n"
      "mem_allocator:jemalloc-5.3.0\r\n",
      used, static_cast<double>(used) / (1024.0 * 1024.0), config_.integer("maxmemory"),
      static_cast<double>(config_.integer("maxmemory")) / (1024.0 * 1024.0), config_.str("maxmemory-policy"));
}

std::string RedisNode::infoPersistence() {
  return fmt::format(
      "# Persistence\r\n"
      "loading:{}\r\n"
      "async_loading:0\r\n"
      "current_cow_peak:0\r\n"
      "current_cow_size:0\r\n"
      "current_cow_size_age:0\r\n"
      "current_fork_perc:0.00\r\n"
      "current_save_keys_processed:0\r\n"
      "current_save_keys_total:0\r\n"
      "rdb_changes_since_last_save:{}\r\n"
      "rdb_bgsave_in_progress:0\r\n"
      "rdb_last_save_time:{}\r\n"
      "rdb_last_bgsave_status:ok\r\n"
      "rdb_last_bgsave_time_sec:0\r\n"
      "rdb_current_bgsave_time_sec:-1\r\n"
      "aof_enabled:{}\r\n"
      "aof_rewrite_in_progress:0\r\n"
      "aof_rewrite_scheduled:0\r\n"
      "aof_last_rewrite_time_sec:-1\r\n"
      "aof_current_rewrite_time_sec:-1\r\n"
      "aof_last_bgrewrite_status:ok\r\n"
      "aof_last_write_status:ok\r\n",
      loading() ? 1 : 0, dirty_, (loop().wallMicros() - (nowMs() - lastSaveMs_) * 1000) / 1000000,
      config_.flag("appendonly") ? 1 : 0);
}

std::string RedisNode::infoStats() {
  return fmt::format(
      "# Stats\r\n"
      "total_connections_received:{}\r\n"
      "total_commands_processed:{}\r\n"
      "instantaneous_ops_per_sec:0\r\n"
      "rejected_connections:0\r\n"
      "sync_full:{}\r\n"
      "sync_partial_ok:{}\r\n"
      "sync_partial_err:{}\r\n"
      "expired_keys:0\r\n"
      "evicted_keys:0\r\n"
      "pubsub_channels:{}\r\n",
      statConnections_, statCommands_, statFullSyncs_, statPartialOk_, statPartialErr_, channels_.size());
}

std::string RedisNode::infoKeyspace() {
  std::string out = "# Keyspace\r\n";
  if (!data_.empty()) out += fmt::format("db0:keys={},expires=0,avg_ttl=0\r\n", data_.size());
  return out;
}

std::string RedisNode::infoReplication() {
  const std::int64_t now = nowMs();
  // Written into one buffer (format_to), not assembled from temporaries: every reconcile
  // reads INFO replication from every redis node.
  std::string out;
  out.reserve(768);
  auto to = std::back_inserter(out);
  out += "# Replication\r\n";
  if (isMaster()) {
    out += "role:master\r\n";
  } else {
    const bool up = link_.state == LinkState::Connected;
    fmt::format_to(to,
        "role:slave\r\n"
        "master_host:{}\r\n"
        "master_port:{}\r\n"
        "master_link_status:{}\r\n"
        "master_last_io_seconds_ago:{}\r\n"
        "master_sync_in_progress:{}\r\n"
        "slave_read_repl_offset:{}\r\n"
        "slave_repl_offset:{}\r\n",
        masterHost_, masterPort_, up ? "up" : "down", up ? (now - link_.lastIoMs) / 1000 : -1,
        link_.state == LinkState::Sync ? 1 : 0, replOffset_, replOffset_);
    if (link_.state == LinkState::Sync) {
      fmt::format_to(to,
          "master_sync_total_bytes:-1\r\n"
          "master_sync_read_bytes:0\r\n"
          "master_sync_left_bytes:-1\r\n"
          "master_sync_perc:-0.00\r\n"
          "master_sync_last_io_seconds_ago:{}\r\n",
          (now - link_.lastIoMs) / 1000);
    }
    if (!up) {
      fmt::format_to(to, "master_link_down_since_seconds:{}\r\n",
                         link_.downSinceMs != 0 ? (now - link_.downSinceMs) / 1000 : -1);
    }
    fmt::format_to(to,
        "slave_priority:{}\r\n"
        "slave_read_only:{}\r\n"
        "replica_announced:{}\r\n",
        config_.integer("replica-priority"), config_.flag("replica-read-only") ? 1 : 0,
        config_.flag("replica-announced") ? 1 : 0);
  }
  fmt::format_to(to, "connected_slaves:{}\r\n", replicas_.size());
  if (config_.integer("min-replicas-to-write") > 0 && config_.integer("min-replicas-max-lag") > 0)
    fmt::format_to(to, "min_slaves_good_slaves:{}\r\n", goodReplicas_);
  int i = 0;
  for (const auto& [c, r] : replicas_) {
    const char* st = r.state == ReplicaInfo::State::Online     ? "online"
                     : r.state == ReplicaInfo::State::SendBulk ? "send_bulk"
                                                               : "wait_bgsave";
    const std::int64_t lag = r.state == ReplicaInfo::State::Online ? (now - r.lastAckMs) / 1000 : 0;
    fmt::format_to(to, "slave{}:ip={},port={},state={},offset={},lag={}\r\n", i++, r.ip, r.port, st,
                       r.state == ReplicaInfo::State::WaitBgsave ? 0 : r.ackOffset, lag);
  }
  const char* fo = failoverState_ == FailoverState::None         ? "no-failover"
                   : failoverState_ == FailoverState::WaitForSync ? "waiting-for-sync"
                                                                  : "failover-in-progress";
  fmt::format_to(to,
      "master_failover_state:{}\r\n"
      "master_replid:{}\r\n"
      "master_replid2:{}\r\n"
      "master_repl_offset:{}\r\n"
      "second_repl_offset:{}\r\n"
      "repl_backlog_active:{}\r\n"
      "repl_backlog_size:{}\r\n"
      "repl_backlog_first_byte_offset:{}\r\n"
      "repl_backlog_histlen:{}\r\n",
      fo, replId_, replId2_, replOffset_, secondReplOffset_, backlogActive_ ? 1 : 0,
      config_.integer("repl-backlog-size"), backlogFirstByte_, backlogHistlen_);
  return out;
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
