#pragma once
// A SimWorld with one RedisCluster's generated objects written straight into the store (no
// operator runs), and helpers to drive and inspect it.
#include <gtest/gtest.h>

#include <algorithm>
#include <memory>
#include <string>
#include <vector>

#include "core/api/redis_cluster_crd.h"
#include "core/kube/resource.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "fakeapi/world/pod_files.h"
#include "fakeapi/world/sim_world.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::sim::test {

inline SimWorldOptions worldOptions(std::uint64_t seed = 1) {
  SimWorldOptions o;
  o.seed = seed;
  o.cluster.traceEntries = 0;
  return o;
}

class WorldTest : public ::testing::Test {
 public:
  std::unique_ptr<SimWorld> world = std::make_unique<SimWorld>(worldOptions());
  std::string name = "test";
  std::string ns = "default";
  std::string password;

  // An object left out of apply(): names alone are not unique (the redis ConfigMap and the
  // headless Service are both redis-cluster-<name>).
  struct Skip {
    std::string plural;
    std::string name;
  };
  // Creates the CRD, the RedisCluster with `spec` and every generated object except those
  // in `skip`.
  void apply(Object spec, const std::vector<Skip>& skip = {}) {
    ASSERT_TRUE(world->store().create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    world->runFor(milliseconds(10));
    if (spec.contains("password")) password = spec["password"].get<std::string>();
    Object m = kun::test::clusterManifest(std::move(spec), name, ns);
    m["metadata"].erase("uid");
    auto made = world->store().create(res::redisclusters, m);
    ASSERT_TRUE(made.ok()) << made.error().toString();
    const auto rc = kun::test::parseCluster(*made);
    for (const auto& d : rediscluster::desiredObjects(rc)) {
      if (std::any_of(skip.begin(), skip.end(),
                      [&](const Skip& k) { return k.plural == d.resource.plural && k.name == d.name(); }))
        continue;
      auto st = world->store().create(d.resource, d.object);
      ASSERT_TRUE(st.ok()) << d.name() << ": " << st.error().toString();
    }
  }

  std::string redisPod(int i) const { return rediscluster::names::redis(name) + "-" + std::to_string(i); }
  std::string sentinelPod(int i) const { return rediscluster::names::sentinel(name) + "-" + std::to_string(i); }

  Object pod(const std::string& p) {
    auto o = world->store().get(res::pods, ns, p);
    return o ? *o : Object();
  }
  std::string podIp(const std::string& p) {
    const Object o = pod(p);
    const Object& ip = objectAt(o, {"status", "podIP"});
    return ip.is_string() ? ip.get<std::string>() : std::string();
  }
  bool podReady(const std::string& p) {
    const Object o = pod(p);
    const Object& conds = objectAt(o, {"status", "conditions"});
    if (!conds.is_array()) return false;
    for (const auto& c : conds)
      if (c.value("type", "") == "Ready") return c.value("status", "") == "True";
    return false;
  }
  redissim::RedisNode* redisOf(const std::string& p) { return world->bridge().redisOf(ns, p); }
  redissim::SentinelNode* sentinelOf(const std::string& p) { return world->bridge().sentinelOf(ns, p); }

  // Every redis and sentinel pod runs a booted process.
  bool allRunning(int redis, int sentinels) {
    for (int i = 0; i < redis; ++i) {
      auto* n = redisOf(redisPod(i));
      if (!n || !n->ready()) return false;
    }
    for (int i = 0; i < sentinels; ++i) {
      auto* s = sentinelOf(sentinelPod(i));
      if (!s || !s->ready()) return false;
    }
    return true;
  }

  RedisReply cmd(const std::string& ip, int port, std::vector<std::string> argv, std::string_view pw) {
    auto r = world->operatorAdmin().command(RedisEndpoint{ip, port}, argv, pw);
    EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
    return r.ok() ? r.value() : RedisReply::error("transport");
  }
  RedisReply redisCmd(const std::string& p, std::vector<std::string> argv) {
    return cmd(podIp(p), 6379, std::move(argv), password);
  }

  // What the operator would do once it chose redis pod `master`: promote it, point the
  // other redis pods at it, and point every sentinel at it.
  void configureMaster(int master, int redis, int sentinels) {
    const std::string mip = podIp(redisPod(master));
    for (int i = 0; i < redis; ++i) {
      auto r = i == master ? redisCmd(redisPod(i), {"REPLICAOF", "NO", "ONE"})
                           : redisCmd(redisPod(i), {"REPLICAOF", mip, "6379"});
      EXPECT_TRUE(r.isOk()) << r.str;
      // Pods boot with replica-priority 0 (renderRedisConf); the operator sets the spec's
      // once a node is in sync, these tests at once.
      r = redisCmd(redisPod(i), {"CONFIG", "SET", "replica-priority", "100"});
      EXPECT_TRUE(r.isOk()) << r.str;
    }
    for (int i = 0; i < sentinels; ++i) {
      const std::string sip = podIp(sentinelPod(i));
      cmd(sip, 26379, {"SENTINEL", "REMOVE", "mymaster"}, "");
      auto r = cmd(sip, 26379, {"SENTINEL", "MONITOR", "mymaster", mip, "6379", "2"}, "");
      EXPECT_TRUE(r.isOk()) << r.str;
      if (!password.empty()) cmd(sip, 26379, {"SENTINEL", "SET", "mymaster", "auth-pass", password}, "");
      cmd(sip, 26379, {"SENTINEL", "SET", "mymaster", "down-after-milliseconds", "5000"}, "");
    }
  }

  // Applies `spec`, makes redis pod 0 the master (configureMaster) and waits until every
  // pod is ready.
  void bootReady(Object spec) {
    apply(std::move(spec));
    ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
    configureMaster(0, 3, 3);
    ASSERT_TRUE(world->runUntil([&] { return allReady(3, 3); }, seconds(40)));
  }

  // Replaces the password the cluster's Secret holds (base64); the servers keep theirs.
  void setSecretPassword(const std::string& base64) {
    auto secret = world->store().get(res::secrets, ns, rediscluster::names::auth(name));
    ASSERT_TRUE(secret.ok());
    Object changed = *secret;
    changed["data"][std::string(rediscluster::layout::kPasswordKey)] = base64;
    ASSERT_TRUE(world->store().update(res::secrets, changed).ok());
  }

  bool allReady(int redis, int sentinels) {
    for (int i = 0; i < redis; ++i)
      if (!podReady(redisPod(i))) return false;
    for (int i = 0; i < sentinels; ++i)
      if (!podReady(sentinelPod(i))) return false;
    return true;
  }
};

}  // namespace kun::sim::test
