#pragma once
// A cluster for the fault-injector tests, built without the operator: two StatefulSets
// labelled as the operator labels a RedisCluster's pods (3 redis, 3 sentinels) in a
// SimCluster, and, once their pods run, simulated processes at the pod IPs — redis-0 the
// master, the others its replicas, three Sentinels monitoring it.
#include <string>

#include "chaos/faults/fault_injector.h"
#include "chaos/faults/fault_targets.h"
#include "chaos/network/network_model.h"
#include "core/kube/resource.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/names.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "fakeapi/redis/redis_sim.h"

namespace kun::chaostest {

inline constexpr const char* kCluster = "demo";
inline constexpr const char* kOperatorIp = "10.250.0.1";

inline Object labelled(const std::string& name, rediscluster::Component c, int replicas) {
  Object labels = Object::object();
  for (const auto& [k, v] : rediscluster::selectorLabels(kCluster, c)) labels[k] = v;
  const std::string container(rediscluster::componentName(c));
  return Object{
      {"apiVersion", "apps/v1"},
      {"kind", "StatefulSet"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"replicas", replicas},
        {"serviceName", name},
        {"podManagementPolicy", "Parallel"},
        {"selector", {{"matchLabels", labels}}},
        {"template",
         {{"metadata", {{"labels", labels}}},
          {"spec", {{"containers", Object::array({{{"name", container}, {"image", "redis:7.2"}}})}}}}}}}};
}

struct ChaosWorld {
  explicit ChaosWorld(std::uint64_t seed = 1)
      : cluster(options(seed)),
        net(cluster.loop(), cluster.random("net"), &cluster.trace()),
        redis(cluster.loop(), net, cluster.random("redis"), &cluster.trace()),
        targets(cluster.client(), &redis, "default", kCluster, kOperatorIp) {
    using rediscluster::Component;
    (void)cluster.client().create(res::statefulsets, labelled(rediscluster::names::redis(kCluster), Component::Redis, 3));
    (void)cluster.client().create(res::statefulsets,
                                  labelled(rediscluster::names::sentinel(kCluster), Component::Sentinel, 3));
    (void)cluster.client().create(res::services, Object{{"apiVersion", "v1"},
                                                        {"kind", "Service"},
                                                        {"metadata", {{"name", rediscluster::names::sentinel(kCluster)},
                                                                      {"namespace", "default"}}},
                                                        {"spec", {{"ports", Object::array({{{"port", 26379}}})}}}});
    (void)cluster.client().create(res::configmaps, Object{{"apiVersion", "v1"},
                                                          {"kind", "ConfigMap"},
                                                          {"metadata", {{"name", rediscluster::names::redis(kCluster)},
                                                                        {"namespace", "default"}}},
                                                          {"data", {{"redis.conf", "port 6379"}}}});
    ready = cluster.runUntil([&] { return podsRunning(); }, seconds(30));
    if (!ready) return;
    const auto rp = targets.redisPods();
    masterIp = rp[0].ip;
    for (std::size_t i = 0; i < rp.size(); ++i) {
      redissim::RedisNodeOptions o;
      o.ip = rp[i].ip;
      if (i > 0) o.config = {{"replicaof", masterIp + " 6379"}};
      redis.addRedis(o);
    }
    for (const auto& s : targets.sentinelPods()) {
      redissim::SentinelOptions o;
      o.ip = s.ip;
      redissim::SentinelMasterConfig m;
      m.name = "mymaster";
      m.host = masterIp;
      m.downAfterMs = 5000;
      m.failoverTimeoutMs = 60000;
      o.monitors = {m};
      redis.addSentinel(o);
    }
    cluster.runFor(seconds(15));  // replicas synced, sentinels know each other
  }

  static sim::SimClusterOptions options(std::uint64_t seed) {
    sim::SimClusterOptions o;
    o.seed = seed;
    return o;
  }

  bool podsRunning() {
    auto r = targets.redisPods();
    auto s = targets.sentinelPods();
    if (r.size() != 3 || s.size() != 3) return false;
    for (const auto& p : r)
      if (p.ip.empty()) return false;
    for (const auto& p : s)
      if (p.ip.empty()) return false;
    return true;
  }

  chaos::FaultSeams seams(chaos::OperatorControl* op = nullptr) {
    chaos::FaultSeams s;
    s.loop = &cluster.loop();
    s.trace = &cluster.trace();
    s.targets = &targets;
    s.client = &cluster.client();
    s.apiFaults = &cluster.store().faults();
    s.kubelet = &cluster.kubelet();
    s.nodes = &cluster.nodeLifecycle();
    s.net = &net;
    s.redis = &redis;
    s.op = op;
    return s;
  }

  redissim::RedisNode* redisAt(const std::string& ip) { return redis.redis({ip, 6379}); }
  std::string podIp(const std::string& name) {
    auto p = cluster.client().get(res::pods, "default", name);
    return p ? p->value("/status/podIP"_json_pointer, std::string{}) : std::string{};
  }

  sim::SimCluster cluster;
  NetworkModel net;
  redissim::RedisSim redis;
  chaos::ClusterTargets targets;
  bool ready = false;
  std::string masterIp;
};

}  // namespace kun::chaostest
