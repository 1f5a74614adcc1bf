#include "fakeapi/local/local_sentinel_cluster_real.h"

#include <stdlib.h>

#include <filesystem>
#include <fstream>
#include <thread>

#include "core/redis/hiredis_admin_real.h"
#include "core/redis/info_parser.h"
#include "core/redis/sentinel_parser.h"
#include "fakeapi/local/local_config.h"

namespace kun::local {

namespace fs = std::filesystem;

namespace {

constexpr int kRedisPort = 6379;
constexpr int kSentinelPort = 26379;

using Steady = std::chrono::steady_clock;  // wall-clock ok: real processes, real time

Status writeFile(const std::string& path, const std::string& text) {
  std::ofstream out(path, std::ios::trunc);
  out << text;
  out.close();
  if (!out) return makeError(Reason::Internal, "cannot write " + path);
  return {};
}

HiredisAdmin probeClient() {
  HiredisOptions o;
  o.connectTimeout = std::chrono::milliseconds(500);
  o.commandTimeout = std::chrono::milliseconds(1000);
  return HiredisAdmin(o);
}

// Polls `check` every 50 ms until it returns true or `timeout` passes.
template <class Check>
Status pollUntil(std::chrono::milliseconds timeout, const std::string& what, Check check) {
  const auto deadline = Steady::now() + timeout;  // wall-clock ok
  std::string last;
  for (;;) {
    if (check(last)) return {};
    if (Steady::now() >= deadline) {  // wall-clock ok
      return makeError(Reason::Timeout, what + " not reached in " +
                                            std::to_string(timeout.count()) + " ms" +
                                            (last.empty() ? "" : ": " + last));
    }
    std::this_thread::sleep_for(std::chrono::milliseconds(50));  // wall-clock ok
  }
}

}  // namespace

Result<std::unique_ptr<LocalSentinelCluster>> LocalSentinelCluster::start(
    const LocalClusterOptions& opts) {
  if (opts.replicas < 0 || opts.sentinels < 1 || opts.quorum < 1) {
    return makeError(Reason::BadRequest, "local cluster: need replicas >= 0, sentinels >= 1, quorum >= 1");
  }
  const int total = 1 + opts.replicas + opts.sentinels;
  auto block = AddressBlock::reserve(total, {kRedisPort, kSentinelPort});
  if (!block) return block.error();

  std::string tmpl = (fs::temp_directory_path() / "kun-local-XXXXXX").string();
  if (::mkdtemp(tmpl.data()) == nullptr) {
    return makeError(Reason::Internal, "local cluster: mkdtemp failed");
  }
  // From here the cluster object owns the directory and every process: any early return
  // destroys it, which cleans up.
  std::unique_ptr<LocalSentinelCluster> c(
      new LocalSentinelCluster(opts, std::move(*block), tmpl));

  const RedisEndpoint master{c->block_.address(0), kRedisPort};
  for (int i = 0; i <= opts.replicas; ++i) {
    Node n;
    n.ep = {c->block_.address(i), kRedisPort};
    n.dir = c->dir_ + "/redis-" + std::to_string(i);
    n.config = n.dir + "/redis.conf";
    fs::create_directories(n.dir);
    RedisNodeConfig cfg;
    cfg.self = n.ep;
    cfg.dir = n.dir;
    cfg.persistence = opts.persistence;
    cfg.password = opts.password;
    if (i > 0) cfg.replicaOf = master;
    if (Status s = writeFile(n.config, redisConfigText(cfg)); !s) return s.error();
    c->redis_.push_back(std::move(n));
  }
  for (int i = 0; i < opts.sentinels; ++i) {
    Node n;
    n.ep = {c->block_.address(1 + opts.replicas + i), kSentinelPort};
    n.dir = c->dir_ + "/sentinel-" + std::to_string(i);
    n.config = n.dir + "/sentinel.conf";
    fs::create_directories(n.dir);
    SentinelNodeConfig cfg;
    cfg.self = n.ep;
    cfg.dir = n.dir;
    cfg.masterName = opts.masterName;
    cfg.master = master;
    cfg.quorum = opts.quorum;
    cfg.downAfterMs = opts.downAfterMs;
    cfg.failoverTimeoutMs = opts.failoverTimeoutMs;
    cfg.parallelSyncs = opts.parallelSyncs;
    cfg.authPass = opts.password;
    if (Status s = writeFile(n.config, sentinelConfigText(cfg)); !s) return s.error();
    c->sentinels_.push_back(std::move(n));
  }

  for (int i = 0; i < c->redisCount(); ++i) {
    if (Status s = c->launch(NodeRef::redis(i)); !s) return s.error();
  }
  for (int i = 0; i < c->redisCount(); ++i) {
    if (Status s = c->waitPing(c->redis(i)); !s) return s.error();
  }
  if (Status s = c->waitReplicasLinked(); !s) return s.error();
  for (int i = 0; i < c->sentinelCount(); ++i) {
    if (Status s = c->launch(NodeRef::sentinel(i)); !s) return s.error();
  }
  for (int i = 0; i < c->sentinelCount(); ++i) {
    if (Status s = c->waitPing(c->sentinel(i)); !s) return s.error();
  }
  if (Status s = c->waitSentinelsDiscovered(); !s) return s.error();
  return c;
}

LocalSentinelCluster::~LocalSentinelCluster() {
  for (auto& n : sentinels_) (void)n.proc.kill();
  for (auto& n : redis_) (void)n.proc.kill();
  if (!opts_.keepDirForTest && !dir_.empty()) {
    std::error_code ec;
    fs::remove_all(dir_, ec);
  }
}

RedisEndpoint LocalSentinelCluster::redis(int i) const { return redis_.at(i).ep; }
RedisEndpoint LocalSentinelCluster::sentinel(int i) const { return sentinels_.at(i).ep; }

std::vector<RedisEndpoint> LocalSentinelCluster::sentinels() const {
  std::vector<RedisEndpoint> out;
  for (const auto& n : sentinels_) out.push_back(n.ep);
  return out;
}

LocalSentinelCluster::Node& LocalSentinelCluster::node(NodeRef n) {
  return n.kind == NodeRef::Kind::Redis ? redis_.at(n.index) : sentinels_.at(n.index);
}

std::string LocalSentinelCluster::logPath(NodeRef n) { return node(n).dir + "/server.log"; }

Status LocalSentinelCluster::launch(NodeRef n) {
  Node& nd = node(n);
  std::vector<std::string> argv;
  if (n.kind == NodeRef::Kind::Redis) {
    argv = {opts_.redisServer, nd.config};
  } else {
    argv = {opts_.redisSentinel, nd.config};
  }
  auto p = LocalProcess::spawn(argv, nd.dir + "/stdout.log");
  if (!p) return p.error();
  nd.proc = std::move(*p);
  return {};
}

Status LocalSentinelCluster::waitPing(const RedisEndpoint& ep) {
  HiredisAdmin admin = probeClient();
  return pollUntil(opts_.startTimeout, "PING " + ep.toString(), [&](std::string& last) {
    auto r = admin.command(ep, {"PING"}, opts_.password);
    if (!r) {
      last = r.error().message;
      return false;
    }
    return r->type == RedisReply::Type::Status && r->str == "PONG";
  });
}

Status LocalSentinelCluster::waitReplicasLinked() {
  HiredisAdmin admin = probeClient();
  for (int i = 1; i < redisCount(); ++i) {
    Status s = pollUntil(opts_.startTimeout, "replica " + redis(i).toString() + " link up",
                         [&](std::string& last) {
                           auto r = admin.command(redis(i), {"INFO", "replication"}, opts_.password);
                           if (!r || r->type != RedisReply::Type::String) return false;
                           auto info = parseReplicationInfo(r->str);
                           if (!info) return false;
                           last = "master_link_status:" + info->masterLinkStatus;
                           return info->isReplica() && info->masterLinkUp();
                         });
    if (!s) return s;
  }
  return {};
}

Status LocalSentinelCluster::waitSentinelsDiscovered() {
  HiredisAdmin admin = probeClient();
  for (int i = 0; i < sentinelCount(); ++i) {
    Status s = pollUntil(
        opts_.startTimeout, "sentinel " + sentinel(i).toString() + " discovery",
        [&](std::string& last) {
          auto r = admin.command(sentinel(i), {"SENTINEL", "MASTER", opts_.masterName});
          if (!r) return false;
          auto m = parseSentinelMaster(*r);
          if (!m) return false;
          last = "num-slaves " + std::to_string(m->numSlaves) + ", num-other-sentinels " +
                 std::to_string(m->numOtherSentinels) + ", flags " + m->fields["flags"];
          return m->numSlaves == opts_.replicas && m->numOtherSentinels == sentinelCount() - 1 &&
                 m->flags.master && !m->flags.down();
        });
    if (!s) return s;
  }
  return {};
}

Status LocalSentinelCluster::kill(NodeRef n) { return node(n).proc.kill(); }
Status LocalSentinelCluster::hang(NodeRef n) { return node(n).proc.stop(); }
Status LocalSentinelCluster::resume(NodeRef n) { return node(n).proc.resume(); }

Status LocalSentinelCluster::restart(NodeRef n) {
  Node& nd = node(n);
  if (nd.proc.running()) {
    return makeError(Reason::Conflict, "restart " + nd.ep.toString() + ": still running");
  }
  if (!opts_.persistence && n.kind == NodeRef::Kind::Redis) {
    std::error_code ec;
    fs::remove(nd.dir + "/dump.rdb", ec);
    fs::remove_all(nd.dir + "/appendonlydir", ec);
  }
  if (Status s = launch(n); !s) return s;
  return waitPing(nd.ep);
}

bool LocalSentinelCluster::running(NodeRef n) { return node(n).proc.running(); }

std::vector<int> LocalSentinelCluster::livePids() {
  std::vector<int> out;
  for (auto* list : {&redis_, &sentinels_}) {
    for (auto& n : *list) {
      if (n.proc.running()) out.push_back(n.proc.pid());
    }
  }
  return out;
}

}  // namespace kun::local
