// Owner-based enqueue over informers of the fake API server: changes to owned objects, and
// to pods of an owned StatefulSet, queue the owning RedisCluster's key.
#include <gtest/gtest.h>

#include <memory>

#include "core/api/redis_cluster_crd.h"
#include "core/controller/owner_enqueue.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

struct OwnerEnqueueTest : ::testing::Test {
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  WorkQueue queue{loop};
  OwnerEnqueuer owners{queue, OwnerKind{"redis.kun", "RedisCluster"}};
  Informer sts{store, loop, res::statefulsets, {}, log};
  Informer pods{store, loop, res::pods, {}, log};
  Informer services{store, loop, res::services, {}, log};
  Object cluster;

  void SetUp() override {
    ASSERT_TRUE(store.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    loop.runFor(seconds(1));
    auto made = store.create(res::redisclusters, Object{{"apiVersion", "redis.kun/v1beta1"},
                                                         {"kind", "RedisCluster"},
                                                         {"metadata", {{"name", "a"}, {"namespace", "default"}}},
                                                         {"spec", {{"size", 3}}}});
    ASSERT_TRUE(made.ok()) << made.error().toString();
    cluster = *made;
    owners.watch(sts);
    owners.watch(services);
    owners.watch(pods, {&sts});
    for (Informer* i : {&sts, &pods, &services}) i->start();
    loop.runFor(seconds(1));
  }

  Object owned(const std::string& kind, const std::string& apiVersion, const std::string& name, const Object& owner) {
    Object o{{"apiVersion", apiVersion}, {"kind", kind}, {"metadata", {{"name", name}, {"namespace", "default"}}}};
    meta::addOwnerReference(o, meta::ownerRefTo(owner));
    return o;
  }

  // The keys queued since the last call, in order; the queue is drained.
  std::vector<std::string> drain() {
    loop.runFor(seconds(1));
    std::vector<std::string> keys;
    while (auto k = queue.tryGet()) {
      keys.push_back(*k);
      queue.done(*k);
    }
    return keys;
  }
};

TEST_F(OwnerEnqueueTest, OwnedStatefulSetAndServiceQueueTheirCluster) {
  Object s = owned("StatefulSet", "apps/v1", "redis-cluster-a", cluster);
  s["spec"] = {{"replicas", 3}};
  ASSERT_TRUE(store.create(res::statefulsets, s).ok());
  EXPECT_EQ(drain(), std::vector<std::string>{"default/a"});
  Object svc = owned("Service", "v1", "redis-cluster-a", cluster);
  svc["spec"] = {{"clusterIP", "None"}, {"ports", {{{"port", 6379}}}}};
  ASSERT_TRUE(store.create(res::services, svc).ok());
  EXPECT_EQ(drain(), std::vector<std::string>{"default/a"});
  ASSERT_TRUE(store.remove(res::services, "default", "redis-cluster-a").ok());
  EXPECT_EQ(drain(), std::vector<std::string>{"default/a"});
}

TEST_F(OwnerEnqueueTest, PodsOfAnOwnedStatefulSetQueueTheClusterIncludingAnIpChange) {
  Object s = owned("StatefulSet", "apps/v1", "redis-cluster-a", cluster);
  s["spec"] = {{"replicas", 3}};
  auto madeSts = store.create(res::statefulsets, s);
  ASSERT_TRUE(madeSts.ok());
  drain();
  Object pod = owned("Pod", "v1", "redis-cluster-a-0", *madeSts);
  pod["spec"] = {{"containers", {{{"name", "redis"}, {"image", "redis"}}}}};
  auto madePod = store.create(res::pods, pod);
  ASSERT_TRUE(madePod.ok()) << madePod.error().toString();
  EXPECT_EQ(drain(), std::vector<std::string>{"default/a"});

  Object withIp = *madePod;
  withIp["status"]["podIP"] = "10.0.0.7";
  ASSERT_TRUE(store.updateStatus(res::pods, withIp).ok());
  EXPECT_EQ(drain(), std::vector<std::string>{"default/a"});
}

TEST_F(OwnerEnqueueTest, AStatefulSetSuccessorOfTheSameNameDoesNotClaimTheOldPods) {
  Object orphanRefPod{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "p"}, {"namespace", "default"}}}};
  OwnerReference ref{"apps/v1", "StatefulSet", "redis-cluster-a", "some-other-uid", true, false};
  meta::addOwnerReference(orphanRefPod, ref);
  Object s = owned("StatefulSet", "apps/v1", "redis-cluster-a", cluster);
  s["spec"] = {{"replicas", 3}};
  ASSERT_TRUE(store.create(res::statefulsets, s).ok());
  drain();
  EXPECT_EQ(owners.ownerOf(orphanRefPod, {&sts}), std::nullopt);
  owners.setFallback([](const Object& o) -> std::optional<std::string> {
    return meta::namespaceOf(o) + "/from-labels";
  });
  EXPECT_EQ(owners.ownerOf(orphanRefPod, {&sts}), std::optional<std::string>("default/from-labels"));
}

TEST_F(OwnerEnqueueTest, ObjectsOfOtherOwnersAndFilteredKeysQueueNothing) {
  Object cm{{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "other"}, {"namespace", "default"}}},
            {"spec", {{"ports", {{{"port", 80}}}}}}};
  ASSERT_TRUE(store.create(res::services, cm).ok());
  EXPECT_TRUE(drain().empty());
  owners.setFilter([](const std::string&) { return false; });
  Object svc = owned("Service", "v1", "redis-sentinel-a", cluster);
  svc["spec"] = {{"ports", {{{"port", 26379}}}}};
  ASSERT_TRUE(store.create(res::services, svc).ok());
  EXPECT_TRUE(drain().empty());
}

TEST(OwnerKindTest, MatchesGroupAndKindNotVersion) {
  OwnerKind k{"redis.kun", "RedisCluster"};
  EXPECT_TRUE(k.matches({"redis.kun/v1beta1", "RedisCluster", "a", "u", true, false}));
  EXPECT_TRUE(k.matches({"redis.kun/v1", "RedisCluster", "a", "u", true, false}));
  EXPECT_FALSE(k.matches({"other.io/v1", "RedisCluster", "a", "u", true, false}));
  EXPECT_FALSE(k.matches({"redis.kun/v1beta1", "Other", "a", "u", true, false}));
  EXPECT_EQ(apiGroupOf("v1"), "");
  EXPECT_EQ(apiGroupOf("apps/v1"), "apps");
}

}  // namespace
}  // namespace kun
