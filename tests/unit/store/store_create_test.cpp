// Create: server-assigned metadata, generateName, validation per kind, namespaces.
#include <set>

#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

TEST_F(StoreTest, StartsWithDefaultAndKubeSystemNamespaces) {
  auto list = store.list(res::namespaces, "");
  ASSERT_TRUE(list.ok());
  ASSERT_EQ(list->items.size(), 2u);
  EXPECT_EQ(meta::name(list->items[0]), "default");
  EXPECT_EQ(meta::name(list->items[1]), "kube-system");
  EXPECT_EQ(list->items[0]["status"]["phase"], "Active");
}

TEST_F(StoreTest, CreateAssignsServerMetadata) {
  Object in = configMap("a");
  in["metadata"]["uid"] = "client-chosen";
  in["metadata"]["generation"] = 7;
  in["metadata"]["deletionTimestamp"] = "2020-01-01T00:00:00Z";
  loop.runFor(seconds(90));
  Object out = mustCreate(res::configmaps, in);
  EXPECT_EQ(out["apiVersion"], "v1");
  EXPECT_EQ(out["kind"], "ConfigMap");
  EXPECT_NE(meta::uid(out), "client-chosen");
  EXPECT_EQ(meta::uid(out).size(), 36u);
  EXPECT_EQ(meta::generation(out), 1);
  EXPECT_FALSE(meta::isDeleting(out));
  EXPECT_EQ(meta::creationTimestamp(out), "2026-01-01T00:01:30Z");
  EXPECT_EQ(out["data"]["k"], "v");
  // The stored object is what create returned.
  EXPECT_EQ(mustGet(res::configmaps, "default", "a"), out);
}

TEST_F(StoreTest, ResourceVersionIsOneClusterWideIncreasingCounter) {
  std::uint64_t last = std::stoull(store.resourceVersion());
  for (int i = 0; i < 5; ++i) {
    Object a = mustCreate(res::configmaps, configMap("cm" + std::to_string(i)));
    EXPECT_EQ(rvOf(a), last + 1);
    Object p = mustCreate(res::pods, pod("p" + std::to_string(i)));
    EXPECT_EQ(rvOf(p), last + 2);
    last = rvOf(p);
  }
  EXPECT_EQ(store.resourceVersion(), std::to_string(last));
}

TEST_F(StoreTest, UidsAreUniqueAndDeterministic) {
  std::set<std::string> uids;
  for (int i = 0; i < 50; ++i) uids.insert(meta::uid(mustCreate(res::configmaps, configMap("c" + std::to_string(i)))));
  EXPECT_EQ(uids.size(), 50u);

  SimLoop otherLoop;
  FakeStore other(otherLoop);
  auto a = other.create(res::configmaps, configMap("c0"));
  ASSERT_TRUE(a.ok());
  EXPECT_EQ(meta::uid(*a), meta::uid(mustGet(res::configmaps, "default", "c0")));
}

TEST_F(StoreTest, GenerateNameAppendsFiveRandomCharacters) {
  Object in{{"metadata", {{"generateName", "web-"}, {"namespace", "default"}}}};
  std::set<std::string> names;
  for (int i = 0; i < 20; ++i) {
    Object out = mustCreate(res::pods, in);
    const std::string name = meta::name(out);
    ASSERT_EQ(name.size(), 9u);
    EXPECT_EQ(name.substr(0, 4), "web-");
    EXPECT_EQ(name.substr(4).find_first_not_of("bcdfghjklmnpqrstvwxz2456789"), std::string::npos);
    names.insert(name);
  }
  EXPECT_EQ(names.size(), 20u);
}

TEST_F(StoreTest, GenerateNameIsTruncatedToFitAndValidated) {
  Object in{{"metadata", {{"generateName", std::string(70, 'a')}, {"namespace", "default"}}}};
  Object out = mustCreate(res::configmaps, in);
  EXPECT_EQ(meta::name(out).size(), 63u);

  auto bad = store.create(res::configmaps, Object{{"metadata", {{"generateName", "Bad_"}, {"namespace", "default"}}}});
  ASSERT_TRUE(bad.is(Reason::Invalid));
  EXPECT_EQ(bad.error().field, "metadata.generateName");
}

TEST_F(StoreTest, NameIsRequired) {
  auto r = store.create(res::configmaps, Object{{"metadata", {{"namespace", "default"}}}});
  ASSERT_TRUE(r.is(Reason::Invalid));
  EXPECT_EQ(r.error().field, "metadata.name");
}

struct NameCase {
  const Resource* resource;
  std::string name;
  bool valid;
};

class NameRules : public StoreTest, public ::testing::WithParamInterface<NameCase> {};

TEST_P(NameRules, FollowTheKind) {
  const NameCase& c = GetParam();
  Object in{{"metadata", objectMeta(c.name, c.resource->namespaced ? "default" : "")}};
  auto r = store.create(*c.resource, in);
  if (c.valid) {
    EXPECT_TRUE(r.ok()) << r.error().toString();
  } else {
    ASSERT_TRUE(r.is(Reason::Invalid)) << c.name;
    EXPECT_EQ(r.error().field, "metadata.name");
  }
}

INSTANTIATE_TEST_SUITE_P(
    Kinds, NameRules,
    ::testing::Values(
        NameCase{&res::configmaps, "a.b-c", true}, NameCase{&res::configmaps, "A", false},
        NameCase{&res::configmaps, std::string(253, 'a'), true}, NameCase{&res::configmaps, std::string(254, 'a'), false},
        NameCase{&res::pods, "redis-0", true}, NameCase{&res::pods, "redis_0", false},
        NameCase{&res::pods, "-x", false}, NameCase{&res::namespaces, "team-a", true},
        NameCase{&res::namespaces, "team.a", false}, NameCase{&res::services, "redis", true},
        NameCase{&res::services, "1redis", false}, NameCase{&res::services, "a.b", false},
        NameCase{&res::statefulsets, "rfr-redis", true}, NameCase{&res::nodes, "node-1.zone-a", true},
        NameCase{&res::clusterroles, "system:controller:redis", true}, NameCase{&res::roles, "a/b", false},
        NameCase{&res::roles, "..", false}, NameCase{&res::leases, "redis-operator-lock", true}));

TEST_F(StoreTest, LabelsAreValidated) {
  auto badKey = store.create(res::configmaps, configMap("a", "default", {{"-bad", "x"}}));
  ASSERT_TRUE(badKey.is(Reason::Invalid));
  EXPECT_EQ(badKey.error().field, "metadata.labels");
  auto badValue = store.create(res::configmaps, configMap("a", "default", {{"app", std::string(64, 'x')}}));
  ASSERT_TRUE(badValue.is(Reason::Invalid));
  EXPECT_EQ(badValue.error().field, "metadata.labels");
  auto good = store.create(res::configmaps, configMap("a", "default", {{"app.kubernetes.io/name", "redis"}, {"x", ""}}));
  EXPECT_TRUE(good.ok());
  Object nonString = configMap("b");
  nonString["metadata"]["labels"] = {{"app", 1}};
  EXPECT_EQ(store.create(res::configmaps, nonString).error().field, "metadata.labels");
}

TEST_F(StoreTest, AnnotationsFinalizersAndOwnerReferencesAreValidated) {
  Object a = configMap("a");
  a["metadata"]["annotations"] = {{"not a key", "x"}};
  EXPECT_EQ(store.create(res::configmaps, a).error().field, "metadata.annotations");
  Object f = configMap("f");
  f["metadata"]["finalizers"] = {"bad finalizer"};
  EXPECT_EQ(store.create(res::configmaps, f).error().field, "metadata.finalizers");
  Object o = configMap("o");
  o["metadata"]["ownerReferences"] = Object::array({Object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "p"}}});
  EXPECT_EQ(store.create(res::configmaps, o).error().field, "metadata.ownerReferences");
  Object two = configMap("two");
  two["metadata"]["ownerReferences"] = Object::array(
      {Object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "p"}, {"uid", "1"}, {"controller", true}},
       Object{{"apiVersion", "v1"}, {"kind", "Pod"}, {"name", "q"}, {"uid", "2"}, {"controller", true}}});
  EXPECT_EQ(store.create(res::configmaps, two).error().field, "metadata.ownerReferences");
}

TEST_F(StoreTest, AlreadyExistsIsAValueAndChangesNothing) {
  mustCreate(res::configmaps, configMap("a"));
  const std::string rv = store.resourceVersion();
  auto again = store.create(res::configmaps, configMap("a"));
  ASSERT_TRUE(again.is(Reason::AlreadyExists));
  EXPECT_EQ(again.error().message, "configmaps \"a\" already exists");
  EXPECT_EQ(store.resourceVersion(), rv);
  // The same name in another namespace, or of another kind, is a different object.
  mustCreate(res::namespaces, Object{{"metadata", {{"name", "other"}}}});
  EXPECT_TRUE(store.create(res::configmaps, configMap("a", "other")).ok());
  EXPECT_TRUE(store.create(res::secrets, configMap("a")).ok());
}

TEST_F(StoreTest, NamespacedObjectsNeedTheirNamespace) {
  auto r = store.create(res::configmaps, configMap("a", "missing"));
  ASSERT_TRUE(r.is(Reason::NotFound));
  EXPECT_NE(r.error().message.find("namespaces \"missing\" not found"), std::string::npos);
  auto none = store.create(res::configmaps, configMap("a", ""));
  ASSERT_TRUE(none.is(Reason::Invalid));
  EXPECT_EQ(none.error().field, "metadata.namespace");
}

TEST_F(StoreTest, ClusterScopedObjectsDropTheNamespace) {
  Object n = mustCreate(res::nodes, Object{{"metadata", {{"name", "n1"}, {"namespace", "default"}}}});
  EXPECT_EQ(meta::namespaceOf(n), "");
  EXPECT_TRUE(store.get(res::nodes, "whatever", "n1").ok());
}

TEST_F(StoreTest, ResourceVersionOnCreateIsRejected) {
  Object in = configMap("a");
  in["metadata"]["resourceVersion"] = "5";
  EXPECT_TRUE(store.create(res::configmaps, in).is(Reason::BadRequest));
}

TEST_F(StoreTest, WrongKindOrApiVersionIsRejected) {
  Object in = configMap("a");
  in["kind"] = "Secret";
  EXPECT_TRUE(store.create(res::configmaps, in).is(Reason::BadRequest));
  Object v = configMap("a");
  v["apiVersion"] = "apps/v1";
  EXPECT_TRUE(store.create(res::configmaps, v).is(Reason::BadRequest));
}

TEST_F(StoreTest, UnknownResourceIsNotFound) {
  EXPECT_TRUE(store.get(res::redisclusters, "default", "x").is(Reason::NotFound));
  EXPECT_TRUE(store.create(res::redisclusters, Object{{"metadata", objectMeta("x")}}).is(Reason::NotFound));
  Resource v2 = res::pods;
  v2.version = "v2";
  EXPECT_TRUE(store.list(v2, "").is(Reason::NotFound));
}

TEST_F(StoreTest, StatusSentOnCreateIsReplacedForSubresourceKinds) {
  Object p = pod("p");
  p["status"] = {{"phase", "Running"}, {"podIP", "10.0.0.1"}};
  Object out = mustCreate(res::pods, p);
  EXPECT_EQ(out["status"], (Object{{"phase", "Pending"}}));
  Object node{{"metadata", {{"name", "n1"}}}, {"status", {{"capacity", {{"cpu", "4"}}}}}};
  EXPECT_EQ(mustCreate(res::nodes, node)["status"]["capacity"]["cpu"], "4");  // nodes keep theirs
  Object cm = configMap("c");
  cm["status"] = {{"x", 1}};
  EXPECT_EQ(mustCreate(res::configmaps, cm)["status"]["x"], 1);  // no subresource: plain data
}

TEST_F(StoreTest, ServicesGetAClusterIpUnlessHeadless) {
  Object s{{"metadata", objectMeta("redis")}, {"spec", {{"ports", Object::array({Object{{"port", 6379}}})}}}};
  Object out = mustCreate(res::services, s);
  EXPECT_EQ(out["spec"]["clusterIP"], "10.96.0.1");
  EXPECT_EQ(out["spec"]["type"], "ClusterIP");
  Object h{{"metadata", objectMeta("headless")}, {"spec", {{"clusterIP", "None"}}}};
  EXPECT_EQ(mustCreate(res::services, h)["spec"]["clusterIP"], "None");
}

TEST_F(StoreTest, EmptyMetadataMapsAreDropped) {
  Object in = configMap("a");
  in["metadata"]["labels"] = Object::object();
  in["metadata"]["finalizers"] = Object::array();
  Object out = mustCreate(res::configmaps, in);
  EXPECT_FALSE(out["metadata"].contains("labels"));
  EXPECT_FALSE(out["metadata"].contains("finalizers"));
}

TEST_F(StoreTest, EveryBuiltinResourceIsServed) {
  for (const Resource& r : res::builtins()) {
    auto l = store.list(r, "");
    EXPECT_TRUE(l.ok()) << r.groupResource();
  }
  Object pdb{{"metadata", objectMeta("pdb")}, {"spec", {{"minAvailable", 1}}}};
  ASSERT_TRUE(store.create(res::poddisruptionbudgets, pdb).ok());
  // Both policy versions share one storage; each reads the object in its own version.
  auto old = store.get(res::poddisruptionbudgetsV1beta1, "default", "pdb");
  ASSERT_TRUE(old.ok());
  EXPECT_EQ((*old)["apiVersion"], "policy/v1beta1");
  EXPECT_EQ(mustGet(res::poddisruptionbudgets, "default", "pdb")["apiVersion"], "policy/v1");
}

}  // namespace
}  // namespace kun::test
