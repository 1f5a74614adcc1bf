// OperatorCore on the fake API server (no Redis: every node is unreachable): it creates the
// objects of the clusters in its scope only, and two scopes run side by side.
#include <gtest/gtest.h>

#include "core/api/redis_cluster_crd.h"
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

}  // namespace
}  // namespace kun
