#include "fakeapi/redis/topology.h"

#include <set>

#include <fmt/format.h>

namespace kun::redissim {

RedisEndpoint Topology::redisEp(int i) { return {fmt::format("10.0.0.{}", i + 1), 6379}; }
RedisEndpoint Topology::sentinelEp(int i) { return {fmt::format("10.0.1.{}", i + 1), 26379}; }

Topology::Topology(RedisSim& sim, TopologyOptions opts) : sim_(sim), opts_(std::move(opts)) {
  const RedisEndpoint master = redisEp(0);
  for (int i = 0; i <= opts_.replicas; ++i) {
    RedisNodeOptions o;
    o.ip = redisEp(i).host;
    o.port = redisEp(i).port;
    o.config = opts_.redisConfig;
    if (!opts_.password.empty()) {
      o.config.emplace_back("requirepass", opts_.password);
      o.config.emplace_back("masterauth", opts_.password);
    }
    if (i > 0) o.config.emplace_back("replicaof", master.host + " " + std::to_string(master.port));
    o.persistentVolume = opts_.persistentVolume;
    sim_.addRedis(std::move(o));
  }
  SentinelMasterConfig mc;
  mc.name = opts_.masterName;
  mc.host = master.host;
  mc.port = master.port;
  mc.quorum = opts_.quorum;
  mc.downAfterMs = opts_.downAfterMs;
  mc.failoverTimeoutMs = opts_.failoverTimeoutMs;
  mc.parallelSyncs = opts_.parallelSyncs;
  if (opts_.sentinelAuthPass) mc.authPass = opts_.password;
  for (int i = 0; i < opts_.sentinels; ++i) {
    SentinelOptions so;
    so.ip = sentinelEp(i).host;
    so.port = sentinelEp(i).port;
    so.startNow = opts_.startSentinels;
    if (opts_.warmSentinels) {
      SentinelSavedConfig saved;
      saved.myid = fmt::format("{:040x}", i + 1);
      SentinelSavedConfig::Master m;
      m.config = mc;
      for (int r = 1; r <= opts_.replicas; ++r) m.knownReplicas.emplace_back(redisEp(r).host, redisEp(r).port);
      for (int s = 0; s < opts_.sentinels; ++s)
        if (s != i) m.knownSentinels.push_back({sentinelEp(s).host, sentinelEp(s).port, fmt::format("{:040x}", s + 1)});
      saved.masters.push_back(std::move(m));
      so.savedConfig = std::move(saved);
    } else {
      so.monitors.push_back(mc);
    }
    sim_.addSentinel(std::move(so));
  }
}

RedisNode& Topology::redis(int i) const { return *sim_.redis(redisEp(i)); }
SentinelNode& Topology::sentinel(int i) const { return *sim_.sentinel(sentinelEp(i)); }

std::optional<RedisEndpoint> Topology::agreedMaster(SentinelMask ignored) const {
  std::optional<RedisEndpoint> agreed;
  for (int i = 0; i < opts_.sentinels; ++i) {
    if ((ignored >> i) & 1u) continue;
    SentinelNode* s = sim_.sentinel(sentinelEp(i));
    if (!s || s->state() != SimProcess::State::Running) continue;
    auto m = s->masterAddress(opts_.masterName);
    if (!m) return std::nullopt;
    if (agreed && *agreed != *m) return std::nullopt;
    agreed = m;
  }
  return agreed;
}

bool Topology::converged(std::string* why, SentinelMask ignored) const {
  auto fail = [why](std::string w) {
    if (why) *why = std::move(w);
    return false;
  };
  auto master = agreedMaster(ignored);
  if (!master) return fail("sentinels do not agree on a master");
  for (int i = 0; i < opts_.sentinels; ++i) {
    if ((ignored >> i) & 1u) continue;
    SentinelNode* s = sim_.sentinel(sentinelEp(i));
    if (s && s->state() == SimProcess::State::Running && s->failoverInProgress(opts_.masterName))
      return fail(fmt::format("sentinel {} is failing over", i));
  }
  RedisNode* m = sim_.redis(*master);
  if (!m || m->state() != SimProcess::State::Running) return fail("the agreed master " + master->toString() + " is not running");
  if (!m->isMaster()) return fail("the agreed master " + master->toString() + " is a replica");
  for (RedisNode* n : sim_.redisNodes()) {
    if (n == m || n->state() != SimProcess::State::Running) continue;
    if (n->isMaster()) return fail(n->endpoint().toString() + " is a second master");
    if (n->masterHost() != master->host || n->masterPort() != master->port)
      return fail(n->endpoint().toString() + " follows " + n->masterHost());
    if (!n->masterLinkUp()) return fail(n->endpoint().toString() + " has its master link down");
  }
  return true;
}

bool Topology::sentinelListsExact(std::string* why) const {
  auto master = agreedMaster();
  if (!master) {
    if (why) *why = "no agreed master";
    return false;
  }
  std::set<RedisEndpoint> replicas;
  for (RedisNode* n : sim_.redisNodes())
    if (n->state() == SimProcess::State::Running && n->endpoint() != *master) replicas.insert(n->endpoint());
  std::size_t runningSentinels = 0;
  for (SentinelNode* s : sim_.sentinels())
    if (s->state() == SimProcess::State::Running) ++runningSentinels;
  for (SentinelNode* s : sim_.sentinels()) {
    if (s->state() != SimProcess::State::Running) continue;
    auto known = s->knownReplicas(opts_.masterName);
    std::set<RedisEndpoint> k(known.begin(), known.end());
    if (k != replicas) {
      if (why) *why = s->endpoint().toString() + " lists " + std::to_string(k.size()) + " replicas";
      return false;
    }
    if (s->knownSentinels(opts_.masterName) != runningSentinels - 1) {
      if (why) *why = s->endpoint().toString() + " lists " + std::to_string(s->knownSentinels(opts_.masterName)) + " other sentinels";
      return false;
    }
  }
  return true;
}

}  // namespace kun::redissim
