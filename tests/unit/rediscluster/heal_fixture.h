#pragma once
// A RedisCluster's processes on the Redis simulator, played as the StatefulSets and the
// kubelet would (pods boot on the 127.0.0.1 placeholder from the generated configs), with
// plain pod structs for observe/heal and a KubeClient that records pod deletions.
#include <gtest/gtest.h>

#include <algorithm>
#include <map>
#include <set>
#include <string>
#include <vector>

#include "chaos/network/network_model.h"
#include "core/api/redis_cluster_defaults.h"
#include "core/kube/kube_client.h"
#include "core/rediscluster/config_files.h"
#include "core/rediscluster/heal.h"
#include "core/rediscluster/health.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/observe.h"
#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"
#include "fakeapi/redis/redis_sim.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::test {

// Records deletions; every other call is refused (heal must not make them).
class DeletionRecorder final : public KubeClient {
 public:
  std::vector<std::string> deleted;
  Result<Object> get(const Resource&, std::string_view, std::string_view) override { return refuse(); }
  Result<ObjectList> list(const Resource&, std::string_view, const ListOptions&) override { return refuse(); }
  Result<Object> create(const Resource&, const Object&) override { return refuse(); }
  Result<Object> update(const Resource&, const Object&) override { return refuse(); }
  Result<Object> updateStatus(const Resource&, const Object&) override { return refuse(); }
  Result<Object> patch(const Resource&, std::string_view, std::string_view, const Object&) override { return refuse(); }
  Status remove(const Resource& r, std::string_view, std::string_view name, const DeleteOptions&) override {
    if (r.plural != "pods") return refuse();
    deleted.emplace_back(name);
    return {};
  }
  Result<std::unique_ptr<Watch>> watch(const Resource&, std::string_view, const WatchOptions&, WatchHandler,
                                       WatchClosedHandler) override {
    return refuse();
  }

 private:
  static Error refuse() { return makeError(Reason::Forbidden, "not for heal"); }
};

struct HealWorld {
  static constexpr const char* kOperatorIp = "10.0.9.1";

  explicit HealWorld(Object spec = Object::object(), std::uint64_t seed = 7)
      : rng(seed), net(loop, rng.fork("net"), &trace), sim(loop, net, rng.fork("redis"), &trace),
        rc(api::withDefaults(cluster(std::move(spec)))), admin(sim.admin(kOperatorIp)) {
    for (std::int32_t i = 0; i < rc.spec.size; ++i) addRedisPod(i);
    for (std::int32_t i = 0; i < rc.spec.sentinel.replicas; ++i) addSentinelPod(i);
    loop.runFor(milliseconds(200));  // processes booted
  }

  // --- pods, as the StatefulSets make them ----------------------------------------------
  std::string nextIp(const std::string& prefix) { return prefix + std::to_string(++ipCounter[prefix]); }

  redissim::RedisNode& addRedisPod(std::int32_t ordinal, redissim::RedisDisk disk = {}) {
    rediscluster::PodInfo p;
    p.name = rediscluster::names::redisPod(rc.name(), ordinal);
    p.uid = p.name + "-uid-" + std::to_string(++created);
    p.ip = nextIp("10.0.0.");
    p.ordinal = ordinal;
    p.running = true;
    p.revision = revision;
    p.creationTimestamp = "2026-01-01T00:00:" + twoDigits(created) + "Z";
    redissim::RedisNodeOptions o;
    o.ip = p.ip;
    o.config = {{"replicaof", "127.0.0.1 6379"}, {"replica-priority", "0"}};  // as renderRedisConf boots it
    if (!password.empty()) o.config.insert(o.config.end(), {{"masterauth", password}, {"requirepass", password}});
    o.disk = std::move(disk);
    redisPods.push_back(p);
    return sim.addRedis(o);
  }

  void addSentinelPod(std::int32_t ordinal) {
    rediscluster::PodInfo p;
    p.name = rediscluster::names::sentinelPod(rc.name(), ordinal);
    p.uid = p.name + "-uid-" + std::to_string(++created);
    p.ip = nextIp("10.0.1.");
    p.ordinal = ordinal;
    p.running = true;
    p.creationTimestamp = "2026-01-01T00:00:" + twoDigits(created) + "Z";
    redissim::SentinelOptions o;
    o.ip = p.ip;
    // sentinel.conf as generated: the placeholder with KUN's timings.
    redissim::SentinelMasterConfig m;
    m.name = std::string(rediscluster::layout::kMasterName);
    m.host = "127.0.0.1";
    m.quorum = rediscluster::sentinelQuorum(rc.spec.sentinel.replicas);
    m.downAfterMs = 1000;
    m.failoverTimeoutMs = 3000;
    m.parallelSyncs = 2;
    o.monitors = {m};
    sentinelPods.push_back(p);
    sim.addSentinel(o);
  }

  // The pod is deleted: its process goes.
  void deleteRedisPod(const std::string& name) {
    auto it = std::find_if(redisPods.begin(), redisPods.end(), [&](auto& p) { return p.name == name; });
    ASSERT_NE(it, redisPods.end()) << name;
    sim.remove({it->ip, rediscluster::layout::kRedisPort});
    redisPods.erase(it);
  }
  void deleteSentinelPod(const std::string& name) {
    auto it = std::find_if(sentinelPods.begin(), sentinelPods.end(), [&](auto& p) { return p.name == name; });
    ASSERT_NE(it, sentinelPods.end()) << name;
    sim.remove({it->ip, rediscluster::layout::kSentinelPort});
    sentinelPods.erase(it);
  }
  // Deleted and re-created by the StatefulSet: same name, new IP, empty volume.
  void recreateRedisPod(const std::string& name) {
    auto it = std::find_if(redisPods.begin(), redisPods.end(), [&](auto& p) { return p.name == name; });
    ASSERT_NE(it, redisPods.end()) << name;
    const std::int32_t ordinal = it->ordinal;
    deleteRedisPod(name);
    addRedisPod(ordinal);
  }

  redissim::RedisNode* node(const std::string& podName) const {
    for (const auto& p : redisPods)
      if (p.name == podName) return sim.redis({p.ip, rediscluster::layout::kRedisPort});
    return nullptr;
  }
  const rediscluster::PodInfo* redisPod(std::int32_t ordinal) const {
    for (const auto& p : redisPods)
      if (p.ordinal == ordinal) return &p;
    return nullptr;
  }
  // The redis pods but the one at masterIp, in ordinal order: their names, or their IPs.
  std::vector<std::string> replicaNames(const std::string& masterIp) const { return others(masterIp, false); }
  std::vector<std::string> replicaIps(const std::string& masterIp) const { return others(masterIp, true); }
  std::vector<std::string> others(const std::string& masterIp, bool ips) const {
    std::vector<std::string> out;
    for (const auto& p : redisPods)
      if (p.ip != masterIp) out.push_back(ips ? p.ip : p.name);
    return out;
  }
  RedisEndpoint redisEp(std::int32_t ordinal) const { return {redisPod(ordinal)->ip, rediscluster::layout::kRedisPort}; }

  // Readiness as the probe scripts define it (probe_scripts.h).
  rediscluster::ClusterPods pods() const {
    rediscluster::ClusterPods out;
    for (auto p : redisPods) {
      const auto* n = sim.redis({p.ip, rediscluster::layout::kRedisPort});
      p.running = n != nullptr;
      p.ready = n && n->ready() && (n->isMaster() || (n->masterLinkUp() && n->masterHost() != "127.0.0.1"));
      out.redis.push_back(p);
    }
    for (auto p : sentinelPods) {
      const auto* s = sim.sentinel({p.ip, rediscluster::layout::kSentinelPort});
      p.running = s != nullptr;
      p.ready = s && s->ready();
      out.sentinels.push_back(p);
    }
    return out;
  }

  // --- the operator's side -------------------------------------------------------------
  std::vector<std::string> passwords() const {
    std::vector<std::string> p{rc.spec.password};
    p.insert(p.end(), olderPasswords.begin(), olderPasswords.end());
    return p;
  }
  rediscluster::ClusterView view() { return rediscluster::observe(admin, pods(), passwords()); }
  rediscluster::Health health() { return rediscluster::assessHealth(rc, view()); }

  rediscluster::HealReport pass() {
    auto v = view();
    rediscluster::HealContext ctx{healAdmin ? *healAdmin : admin, kube, rc, v, passwords(), updateRevision, options};
    ctx.configChecks = configChecks;
    ctx.now = loop.now();
    ctx.failoverSeen = &failoverSeen;
    ctx.authPassOwed = &authPassOwed;
    ctx.authPassResent = &authPassResent;
    ctx.objectsEnsured = objectsEnsured;
    auto r = rediscluster::heal(ctx);
    reports.push_back(r);
    return r;
  }

  // heal, let the world move for the requeue (or a second), until healthy.
  bool converge(int maxPasses = 80) {
    for (int i = 0; i < maxPasses; ++i) {
      if (health().healthy) return true;
      auto r = pass();
      if (onPass) onPass(r);
      loop.runFor(r.requeueAfter.value_or(seconds(1)));
    }
    return health().healthy;
  }

  std::string why() {
    std::string out;
    for (const auto& r : health().reasons) out += "  " + r + "\n";
    return out;
  }
  std::string allActions() const {
    std::string out;
    for (const auto& r : reports) {
      for (const auto& a : r.actions) out += a + "\n";
      for (const auto& w : r.waits) out += w + "\n";
    }
    return out;
  }
  int countActions(const std::string& needle) const {
    int n = 0;
    for (const auto& r : reports) {
      for (const auto& a : r.actions)
        if (a.find(needle) != std::string::npos) ++n;
      for (const auto& w : r.waits)
        if (w.find(needle) != std::string::npos) ++n;
    }
    return n;
  }

  static std::string twoDigits(int n) { return (n < 10 ? "0" : "") + std::to_string(n % 100); }

  SimLoop loop;
  Trace trace{100000};
  Random rng;
  NetworkModel net;
  redissim::RedisSim sim;
  api::RedisCluster rc;
  redissim::SimRedisAdmin& admin;
  DeletionRecorder kube;
  rediscluster::HealOptions options;
  rediscluster::ConfigChecks* configChecks = nullptr;  // as the reconciler keeps it; null: none
  std::map<std::string, TimePoint> failoverSeen;        // as the reconciler keeps it
  std::set<std::string> authPassOwed;                   // likewise
  std::map<std::string, TimePoint> authPassResent;      // likewise
  std::string password;  // what newly created processes boot with (auth.conf)
  std::vector<std::string> olderPasswords;
  std::string revision = "redis-cluster-test-r1";
  std::string updateRevision = "redis-cluster-test-r1";
  std::vector<rediscluster::PodInfo> redisPods, sentinelPods;
  std::map<std::string, int> ipCounter;
  int created = 0;
  std::vector<rediscluster::HealReport> reports;
  std::function<void(const rediscluster::HealReport&)> onPass;
  RedisAdmin* healAdmin = nullptr;  // what heal sends through, when not `admin` (the view is always admin's)
  bool objectsEnsured = true;  // HealContext::objectsEnsured of every pass
};

}  // namespace kun::test
