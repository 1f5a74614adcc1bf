// OperatorCore on the fake API server (no Redis: every node is unreachable): it creates the
// objects of the clusters in its scope only, and two scopes run side by side.
#include <gtest/gtest.h>

#include "core/api/redis_cluster_crd.h"
#include "core/kube/forwarding_client.h"
#include "core/operator/operator_core.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

class NoRedis final : public RedisAdmin {
 public:
  Result<RedisReply> command(const RedisEndpoint&, const std::vector<std::string>&, std::string_view) override {
    return makeError(Reason::Unavailable, "no redis in this test");
  }
};

Object cluster(const std::string& name, bool clusterScoped) {
  Object o{{"apiVersion", "redis.kun/v1beta1"},
           {"kind", "RedisCluster"},
           {"metadata", {{"name", name}, {"namespace", "default"}}},
           {"spec", {{"size", 3}}}};
  if (clusterScoped) meta::setAnnotation(o, "redis.kun/scope", "cluster-scoped");
  return o;
}

TEST(OperatorCore, TwoScopesEachEnsureOnlyTheirClusters) {
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  Random random{1};
  NoRedis redis;
  ASSERT_TRUE(store.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
  loop.runFor(seconds(1));
  OperatorOptions nsOpts;
  nsOpts.ns = "default";
  nsOpts.leaderElect = true;
  nsOpts.identity = "ns-op";
  OperatorOptions clusterOpts;
  clusterOpts.leaderElect = true;
  clusterOpts.identity = "cluster-op";
  OperatorCore nsOp({loop, random, store, redis, log}, nsOpts);
  OperatorCore clusterOp({loop, random, store, redis, log}, clusterOpts);
  nsOp.start();
  clusterOp.start();
  ASSERT_TRUE(store.create(res::redisclusters, cluster("plain", false)).ok());
  ASSERT_TRUE(store.create(res::redisclusters, cluster("wide", true)).ok());
  loop.runFor(seconds(5));
  EXPECT_TRUE(nsOp.acting());
  EXPECT_TRUE(clusterOp.acting());  // different Leases: both lead their own scope
  EXPECT_TRUE(store.get(res::statefulsets, "default", "redis-cluster-plain").ok());
  EXPECT_TRUE(store.get(res::statefulsets, "default", "redis-cluster-wide").ok());
  EXPECT_TRUE(store.get(res::leases, "default", "kun-operator-default").ok());
  EXPECT_TRUE(store.get(res::leases, "default", "kun-operator-cluster-scoped").ok());
  // Each reconciler saw only its own cluster.
  EXPECT_GT(nsOp.reconciler().stats().reconciles, 0u);
  EXPECT_GT(clusterOp.reconciler().stats().reconciles, 0u);
  auto plain = store.get(res::statefulsets, "default", "redis-cluster-plain");
  auto wide = store.get(res::statefulsets, "default", "redis-cluster-wide");
  EXPECT_EQ(meta::controllerOf(*plain)->name, "plain");
  EXPECT_EQ(meta::controllerOf(*wide)->name, "wide");
  nsOp.stop();
  clusterOp.stop();
}

// The fake API server as one that serves policy/v1 PodDisruptionBudgets or, like one older
// than Kubernetes 1.21, does not (404 for everything about them; policy/v1beta1 is
// served). Counts the PDB writes by version.
class PdbServer final : public ForwardingClient {
 public:
  PdbServer(KubeClient& inner, bool servesV1) : ForwardingClient(inner), servesV1_(servesV1) {}
  int v1Asked = 0;  // calls about policy/v1 PDBs that were refused
  std::map<std::string, int> writesByVersion;

  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& o) override {
    if (refused(r)) return notServed();
    return ForwardingClient::list(r, ns, o);
  }
  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override {
    if (refused(r)) return notServed();
    return ForwardingClient::get(r, ns, name);
  }
  Result<Object> create(const Resource& r, const Object& obj) override {
    if (refused(r)) return notServed();
    count(r);
    return ForwardingClient::create(r, obj);
  }
  Result<Object> update(const Resource& r, const Object& obj) override {
    if (refused(r)) return notServed();
    count(r);
    return ForwardingClient::update(r, obj);
  }
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& o, WatchHandler ev,
                                       WatchClosedHandler closed) override {
    if (refused(r)) return notServed();
    return ForwardingClient::watch(r, ns, o, std::move(ev), std::move(closed));
  }

 private:
  bool refused(const Resource& r) {
    const bool no = !servesV1_ && r == res::poddisruptionbudgets;
    if (no) ++v1Asked;
    return no;
  }
  void count(const Resource& r) {
    if (r.plural == "poddisruptionbudgets") ++writesByVersion[r.version];
  }
  static Error notServed() { return makeError(Reason::NotFound, "the server could not find the requested resource"); }
  bool servesV1_;
};

struct PdbVersionTest : ::testing::Test {
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  Random random{1};
  NoRedis redis;
  void SetUp() override {
    ASSERT_TRUE(store.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    loop.runFor(seconds(1));
  }
  bool pdbsExist() {
    return store.get(res::poddisruptionbudgetsV1beta1, "default", "redis-cluster-plain").ok() &&
           store.get(res::poddisruptionbudgetsV1beta1, "default", "redis-sentinel-plain").ok();
  }
};

TEST_F(PdbVersionTest, WherePolicyV1IsServedThePdbsAreV1) {
  PdbServer api{store, true};
  OperatorOptions o;
  o.ns = "default";
  o.reconciler.pdbVersion = rediscluster::PdbVersion::V1beta1;  // detection overrides it
  OperatorCore op({loop, random, api, redis, log}, o);
  EXPECT_EQ(op.options().reconciler.pdbVersion, rediscluster::PdbVersion::V1);
  op.start();
  ASSERT_TRUE(store.create(res::redisclusters, cluster("plain", false)).ok());
  loop.runFor(seconds(5));
  EXPECT_TRUE(pdbsExist());
  EXPECT_EQ(api.writesByVersion, (std::map<std::string, int>{{"v1", 2}}));
  op.stop();
}

TEST_F(PdbVersionTest, WhereOnlyV1beta1IsServedThePdbsAreV1beta1) {
  PdbServer api{store, false};
  OperatorOptions o;
  o.ns = "default";
  OperatorCore op({loop, random, api, redis, log}, o);
  EXPECT_EQ(op.options().reconciler.pdbVersion, rediscluster::PdbVersion::V1beta1);
  op.start();
  ASSERT_TRUE(store.create(res::redisclusters, cluster("plain", false)).ok());
  loop.runFor(seconds(5));
  EXPECT_TRUE(pdbsExist());
  EXPECT_EQ(api.writesByVersion, (std::map<std::string, int>{{"v1beta1", 2}}));
  EXPECT_EQ(api.v1Asked, 1);  // the one question; nothing else went to policy/v1
  EXPECT_EQ(meta::label(*store.get(res::poddisruptionbudgetsV1beta1, "default", "redis-cluster-plain"),
                        "app.kubernetes.io/name"),
            "plain");
  op.stop();
}

// Unreachable API server at start: no answer about the version, the configured one stays.
TEST_F(PdbVersionTest, AnUnansweredQuestionKeepsTheConfiguredVersion) {
  FaultRule rule;
  rule.verbs = {StoreVerb::List};
  rule.until = loop.now() + seconds(1);
  store.faults().add(rule);
  OperatorOptions o;
  o.ns = "default";
  o.reconciler.pdbVersion = rediscluster::PdbVersion::V1beta1;
  OperatorCore op({loop, random, store, redis, log}, o);
  EXPECT_EQ(op.options().reconciler.pdbVersion, rediscluster::PdbVersion::V1beta1);
}

}  // namespace
}  // namespace kun
