// Custom resources: served once their CRD is created, with the CRD's scope, versions and
// status subresource; deleting the CRD deletes its objects and stops serving them.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

Object redisCluster(const std::string& name) {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", objectMeta(name)},
                {"spec", {{"size", 3}, {"sentinel", {{"replicas", 3}}}}}};
}

TEST_F(StoreTest, CrdMakesTheCustomResourceServed) {
  EXPECT_TRUE(store.list(res::redisclusters, "").is(Reason::NotFound));
  Object crd = mustCreate(res::customresourcedefinitions, redisClusterCrd());
  EXPECT_TRUE(meta::hasFinalizer(crd, "customresourcecleanup.apiextensions.k8s.io"));
  EXPECT_EQ(crd["status"]["acceptedNames"]["kind"], "RedisCluster");
  EXPECT_EQ(crd["status"]["conditions"][1]["type"], "Established");

  Object rc = mustCreate(res::redisclusters, redisCluster("redis"));
  EXPECT_EQ(rc["apiVersion"], "redis.kun/v1beta1");
  EXPECT_EQ(rc["kind"], "RedisCluster");
  EXPECT_EQ(rc["spec"]["size"], 3);
  EXPECT_EQ(store.list(res::redisclusters, "default")->items.size(), 1u);

  bool listed = false;
  for (const auto& r : store.resources()) listed = listed || r == res::redisclusters;
  EXPECT_TRUE(listed);
}

TEST_F(StoreTest, CustomResourceStatusSubresource) {
  mustCreate(res::customresourcedefinitions, redisClusterCrd(true));
  Object rc = redisCluster("redis");
  rc["status"] = {{"phase", "Healthy"}};
  rc = mustCreate(res::redisclusters, rc);
  EXPECT_FALSE(rc.contains("status"));  // dropped on create with the subresource
  rc["status"] = {{"phase", "Creating"}};
  rc = *store.updateStatus(res::redisclusters, rc);
  EXPECT_EQ(rc["status"]["phase"], "Creating");
  EXPECT_EQ(meta::generation(rc), 1);
  rc["spec"]["size"] = 5;
  rc["status"]["phase"] = "ignored";
  rc = *store.update(res::redisclusters, rc);
  EXPECT_EQ(rc["status"]["phase"], "Creating");
  EXPECT_EQ(meta::generation(rc), 2);
}

TEST_F(StoreTest, CustomResourceWithoutStatusSubresourceStoresStatusAsData) {
  mustCreate(res::customresourcedefinitions, redisClusterCrd(false));
  Object rc = redisCluster("redis");
  rc["status"] = {{"phase", "Healthy"}};
  EXPECT_EQ(mustCreate(res::redisclusters, rc)["status"]["phase"], "Healthy");
  Resource noStatus = res::redisclusters;
  noStatus.statusSubresource = false;
  EXPECT_TRUE(store.updateStatus(noStatus, rc).is(Reason::NotFound));
}

TEST_F(StoreTest, ClusterScopedCustomResource) {
  Object crd = redisClusterCrd();
  crd["spec"]["scope"] = "Cluster";
  mustCreate(res::customresourcedefinitions, crd);
  Object rc = mustCreate(res::redisclusters, redisCluster("global"));
  EXPECT_EQ(meta::namespaceOf(rc), "");
  EXPECT_TRUE(store.get(res::redisclusters, "", "global").ok());
}

TEST_F(StoreTest, InvalidCrdsNameTheField) {
  auto check = [&](Object crd, const std::string& field) {
    auto r = store.create(res::customresourcedefinitions, crd);
    ASSERT_TRUE(r.is(Reason::Invalid)) << field;
    EXPECT_EQ(r.error().field, field);
  };
  Object c = redisClusterCrd();
  c["metadata"]["name"] = "wrong.redis.kun";
  check(c, "metadata.name");
  c = redisClusterCrd();
  c["spec"].erase("group");
  check(c, "spec.group");
  c = redisClusterCrd();
  c["spec"]["names"].erase("kind");
  check(c, "spec.names.kind");
  c = redisClusterCrd();
  c["spec"]["scope"] = "Galaxy";
  check(c, "spec.scope");
  c = redisClusterCrd();
  c["spec"]["versions"][0]["storage"] = false;
  check(c, "spec.versions");
  c = redisClusterCrd();
  c["spec"]["group"] = "redis";
  check(c, "spec.group");
  // A CRD may not shadow a built-in resource.
  Object shadow = redisClusterCrd();
  shadow["metadata"]["name"] = "leases.coordination.k8s.io";
  shadow["spec"]["group"] = "coordination.k8s.io";
  shadow["spec"]["names"]["plural"] = "leases";
  check(shadow, "metadata.name");
}

TEST_F(StoreTest, CrdScopeIsImmutable) {
  Object crd = mustCreate(res::customresourcedefinitions, redisClusterCrd());
  crd["spec"]["scope"] = "Cluster";
  EXPECT_EQ(store.update(res::customresourcedefinitions, crd).error().field, "spec.scope");
}

TEST_F(StoreTest, CrdUpdateCanAddAVersion) {
  Object crd = mustCreate(res::customresourcedefinitions, redisClusterCrd());
  Object v1 = crd["spec"]["versions"][0];
  v1["name"] = "v1";
  v1["storage"] = false;
  crd["spec"]["versions"].push_back(v1);
  ASSERT_TRUE(store.update(res::customresourcedefinitions, crd).ok());
  Resource rv1 = res::redisclusters;
  rv1.version = "v1";
  mustCreate(res::redisclusters, redisCluster("redis"));
  auto got = store.get(rv1, "default", "redis");
  ASSERT_TRUE(got.ok());
  EXPECT_EQ((*got)["apiVersion"], "redis.kun/v1");
}

TEST_F(StoreTest, DeletingTheCrdDeletesItsObjectsThenStopsServing) {
  mustCreate(res::customresourcedefinitions, redisClusterCrd());
  mustCreate(res::redisclusters, redisCluster("a"));
  mustCreate(res::redisclusters, redisCluster("b"));
  Object owned = configMap("owned-by-a");
  meta::addOwnerReference(owned, meta::ownerRefTo(mustGet(res::redisclusters, "default", "a")));
  mustCreate(res::configmaps, owned);
  EventLog log;
  auto w = store.watch(res::redisclusters, "", {}, log.handler(), log.closer());
  ASSERT_TRUE(w.ok());

  ASSERT_TRUE(store.remove(res::customresourcedefinitions, "", "redisclusters.redis.kun").ok());
  EXPECT_TRUE(store.create(res::redisclusters, redisCluster("c")).is(Reason::Forbidden));
  settle();
  EXPECT_FALSE(exists(res::customresourcedefinitions, "", "redisclusters.redis.kun"));
  EXPECT_TRUE(store.list(res::redisclusters, "").is(Reason::NotFound));
  EXPECT_FALSE(exists(res::configmaps, "default", "owned-by-a"));  // collected with its owner
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"DELETED a", "DELETED b"}));
  ASSERT_EQ(log.closed.size(), 1u);
  EXPECT_EQ(log.closed[0].reason, Reason::NotFound);

  // Defined again: served again, empty.
  mustCreate(res::customresourcedefinitions, redisClusterCrd());
  EXPECT_TRUE(store.list(res::redisclusters, "")->items.empty());
}

}  // namespace
}  // namespace kun::test
