#pragma once
// The whole operator (OperatorCore) on a SimWorld: the fake API server with its simulated
// kubelet and StatefulSet controller, the Redis/Sentinel simulator behind the pods, and a
// test client outside the cluster that finds the master through Sentinel like an
// application would. Scenario tests drive it with kube writes and faults and wait on the
// RedisCluster's status, as a user of the product would.
#include <gtest/gtest.h>

#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/api/redis_cluster_crd.h"
#include "core/api/redis_cluster_types.h"
#include "core/kube/resource.h"
#include "core/operator/operator_core.h"
#include "core/rediscluster/conditions.h"
#include "core/rediscluster/names.h"
#include "fakeapi/world/pod_files.h"
#include "fakeapi/world/sim_world.h"

namespace kun::scenario {

inline sim::SimWorldOptions scenarioWorld(std::uint64_t seed) {
  sim::SimWorldOptions o;
  o.seed = seed;
  o.nodes = 3;
  o.zones = 3;
  o.cluster.traceEntries = 0;
  return o;
}

class OperatorScenario : public ::testing::Test {
 public:
  static constexpr const char* kNs = "default";
  static constexpr const char* kClientIp = "10.250.0.2";

  explicit OperatorScenario(sim::SimWorldOptions o = scenarioWorld(1))
      : world(std::make_unique<sim::SimWorld>(o)), random(o.seed), log(&world->loop(), LogLevel::Off) {}
  ~OperatorScenario() override { stopOperator(); }

  std::unique_ptr<sim::SimWorld> world;
  Random random;
  Logger log;
  std::unique_ptr<OperatorCore> op;
  // The RedisAdmin the operator uses; a test may wrap it before startOperator().
  RedisAdmin* operatorRedis = nullptr;
  KubeClient* operatorKube = nullptr;
  // Where the operator's metrics go; a test may set it before startOperator().
  OperatorMetrics* operatorMetrics = nullptr;

  void SetUp() override {
    ASSERT_TRUE(world->store().create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    world->runFor(milliseconds(10));
  }

  void startOperator() {
    OperatorOptions o;
    o.ns = kNs;
    RedisAdmin& redis = operatorRedis ? *operatorRedis : world->operatorAdmin();
    KubeClient& kube = operatorKube ? *operatorKube : world->client();
    op = std::make_unique<OperatorCore>(
        OperatorSeams{world->loop(), random, kube, redis, log, &world->trace(), operatorMetrics}, o);
    op->start();
  }
  // The operator process goes away: nothing it held in memory survives.
  void stopOperator() {
    if (op) op->stop();
    op.reset();
  }

  // --- the RedisCluster ------------------------------------------------------------------
  Object manifest(const std::string& name, Object spec) const {
    return Object{{"apiVersion", "redis.kun/v1beta1"},
                  {"kind", "RedisCluster"},
                  {"metadata", {{"name", name}, {"namespace", kNs}}},
                  {"spec", std::move(spec)}};
  }
  void create(const std::string& name, Object spec) {
    auto r = world->store().create(res::redisclusters, manifest(name, std::move(spec)));
    ASSERT_TRUE(r.ok()) << r.error().toString();
  }
  Object cluster(const std::string& name) {
    auto o = world->store().get(res::redisclusters, kNs, name);
    return o.ok() ? *o : Object();
  }
  // Changes the spec as `kubectl edit` would (read, modify, update; retried on conflict).
  void editSpec(const std::string& name, const std::function<void(Object&)>& change) {
    for (int attempt = 0; attempt < 5; ++attempt) {
      Object o = cluster(name);
      ASSERT_FALSE(o.is_null()) << name;
      change(o["spec"]);
      auto r = world->store().update(res::redisclusters, o);
      if (r.ok()) return;
      ASSERT_EQ(r.error().reason, Reason::Conflict) << r.error().toString();
    }
    FAIL() << "update of " << name << " kept conflicting";
  }
  api::RedisClusterStatus status(const std::string& name) {
    const Object o = cluster(name);
    if (!o.contains("status")) return {};
    auto s = api::parseRedisClusterStatus(o["status"]);
    return s.ok() ? *s : api::RedisClusterStatus{};
  }
  std::optional<api::Condition> condition(const std::string& name, std::string_view type) {
    for (const auto& c : status(name).conditions)
      if (c.type == type) return c;
    return std::nullopt;
  }
  bool conditionTrue(const std::string& name, std::string_view type) {
    auto c = condition(name, type);
    return c && c->status == "True";
  }
  // Healthy for the current generation of the spec.
  bool healthy(const std::string& name) {
    const Object o = cluster(name);
    if (o.is_null()) return false;
    const auto s = status(name);
    return s.observedGeneration == meta::generation(o) && rediscluster::conditionTrue(s, rediscluster::conditions::kHealthy);
  }
  bool waitHealthy(const std::string& name, Duration timeout = seconds(120)) {
    return world->runUntil([&] { return healthy(name); }, timeout);
  }
  std::string describe(const std::string& name) { return cluster(name).value("status", Object()).dump(); }

  // --- pods and processes ---------------------------------------------------------------
  std::string redisPod(const std::string& name, int i) const {
    return rediscluster::names::redis(name) + "-" + std::to_string(i);
  }
  std::string sentinelPod(const std::string& name, int i) const {
    return rediscluster::names::sentinel(name) + "-" + std::to_string(i);
  }
  std::string podIp(const std::string& pod) {
    auto o = world->store().get(res::pods, kNs, pod);
    if (!o.ok()) return {};
    const Object& ip = sim::objectAt(*o, {"status", "podIP"});
    return ip.is_string() ? ip.get<std::string>() : std::string();
  }
  std::string podUid(const std::string& pod) {
    auto o = world->store().get(res::pods, kNs, pod);
    return o.ok() ? meta::uid(*o) : std::string();
  }
  redissim::RedisNode* redisOf(const std::string& pod) { return world->bridge().redisOf(kNs, pod); }
  redissim::SentinelNode* sentinelOf(const std::string& pod) { return world->bridge().sentinelOf(kNs, pod); }
  Status deletePod(const std::string& pod) { return world->client().remove(res::pods, kNs, pod); }
  // The redis pod (of 0..size-1) whose process is the master, or -1.
  int masterOrdinal(const std::string& name, int size) {
    for (int i = 0; i < size; ++i)
      if (auto* r = redisOf(redisPod(name, i)); r && r->isMaster()) return i;
    return -1;
  }
  std::string nodeOf(const std::string& pod) {
    auto o = world->store().get(res::pods, kNs, pod);
    if (!o.ok()) return {};
    const Object& n = sim::objectAt(*o, {"spec", "nodeName"});
    return n.is_string() ? n.get<std::string>() : std::string();
  }

  // --- a client outside the cluster -----------------------------------------------------
  Result<RedisReply> send(const std::string& ip, int port, std::vector<std::string> argv, std::string_view pw) {
    return world->clientAdmin(kClientIp).command(RedisEndpoint{ip, port}, argv, pw);
  }
  // The master as the first sentinel that answers names it.
  std::optional<RedisEndpoint> masterBySentinel(const std::string& name, int sentinels) {
    for (int i = 0; i < sentinels; ++i) {
      const std::string ip = podIp(sentinelPod(name, i));
      if (ip.empty()) continue;
      auto r = send(ip, 26379, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"}, "");
      if (!r.ok() || r->type != RedisReply::Type::Array || r->elements.size() != 2) continue;
      return RedisEndpoint{r->elements[0].str, std::stoi(r->elements[1].str)};
    }
    return std::nullopt;
  }
  // SET through the Sentinel-discovered master; true when acknowledged.
  bool write(const std::string& name, const std::string& key, const std::string& value, std::string_view pw = {},
             int sentinels = 3) {
    auto m = masterBySentinel(name, sentinels);
    if (!m) return false;
    auto r = send(m->host, m->port, {"SET", key, value}, pw);
    return r.ok() && r->isOk();
  }
  std::optional<std::string> read(const std::string& ip, const std::string& key, std::string_view pw = {}) {
    auto r = send(ip, 6379, {"GET", key}, pw);
    if (!r.ok() || r->type != RedisReply::Type::String) return std::nullopt;
    return r->str;
  }
  // Every redis pod 0..size-1 holds key=value (replication is asynchronous: waits a little).
  bool readableEverywhere(const std::string& name, int size, const std::string& key, const std::string& value,
                          std::string_view pw = {}) {
    return world->runUntil([&] {
      for (int i = 0; i < size; ++i)
        if (read(podIp(redisPod(name, i)), key, pw) != value) return false;
      return true;
    }, seconds(10));
  }
  // How many of the redis pods 0..size-1 are masters.
  int masters(const std::string& name, int size) {
    int n = 0;
    for (int i = 0; i < size; ++i)
      if (auto* r = redisOf(redisPod(name, i)); r && r->isMaster()) ++n;
    return n;
  }
};

}  // namespace kun::scenario
