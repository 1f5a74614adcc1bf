// Update, updateStatus and patch: optimistic concurrency, generation, the status
// subresource, server-owned fields and per-kind immutability.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

Object statefulSet(const std::string& name, int replicas) {
  return Object{{"metadata", objectMeta(name)},
                {"spec",
                 {{"replicas", replicas},
                  {"serviceName", name},
                  {"selector", {{"matchLabels", {{"app", name}}}}},
                  {"template", {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", {{"containers", Object::array()}}}}}}}};
}

TEST_F(StoreTest, StaleResourceVersionIsAConflictAndChangesNothing) {
  Object v1 = mustCreate(res::configmaps, configMap("a"));
  Object v2 = v1;
  v2["data"]["k"] = "v2";
  ASSERT_TRUE(store.update(res::configmaps, v2).ok());
  const Object stored = mustGet(res::configmaps, "default", "a");
  const std::string rv = store.resourceVersion();

  Object stale = v1;
  stale["data"]["k"] = "stale";
  auto r = store.update(res::configmaps, stale);
  ASSERT_TRUE(r.is(Reason::Conflict));
  EXPECT_NE(r.error().message.find("the object has been modified"), std::string::npos);
  EXPECT_EQ(mustGet(res::configmaps, "default", "a"), stored);
  EXPECT_EQ(store.resourceVersion(), rv);
}

TEST_F(StoreTest, UidMismatchIsAConflict) {
  Object v1 = mustCreate(res::configmaps, configMap("a"));
  Object other = v1;
  other["metadata"]["uid"] = "someone-else";
  other["metadata"].erase("resourceVersion");
  EXPECT_TRUE(store.update(res::configmaps, other).is(Reason::Conflict));
}

TEST_F(StoreTest, UpdateWithoutResourceVersionIsUnconditional) {
  mustCreate(res::configmaps, configMap("a"));
  Object blind = configMap("a");
  blind["data"]["k"] = "blind";
  auto r = store.update(res::configmaps, blind);
  ASSERT_TRUE(r.ok()) << r.error().toString();
  EXPECT_EQ((*r)["data"]["k"], "blind");
}

TEST_F(StoreTest, UpdateOfMissingObjectIsNotFound) {
  EXPECT_TRUE(store.update(res::configmaps, configMap("nope")).is(Reason::NotFound));
  EXPECT_TRUE(store.patch(res::configmaps, "default", "nope", Object::object()).is(Reason::NotFound));
}

TEST_F(StoreTest, ServerOwnedMetadataSurvivesUpdate) {
  Object v1 = mustCreate(res::configmaps, configMap("a"));
  Object v2 = v1;
  v2["metadata"]["creationTimestamp"] = "1999-01-01T00:00:00Z";
  v2["metadata"]["generation"] = 99;
  v2["metadata"]["deletionTimestamp"] = "1999-01-01T00:00:00Z";
  v2["metadata"]["labels"] = {{"new", "label"}};
  auto r = store.update(res::configmaps, v2);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(meta::creationTimestamp(*r), meta::creationTimestamp(v1));
  EXPECT_EQ(meta::generation(*r), 1);
  EXPECT_FALSE(meta::isDeleting(*r));
  EXPECT_EQ(meta::label(*r, "new"), "label");
  EXPECT_EQ(meta::uid(*r), meta::uid(v1));
}

TEST_F(StoreTest, SpecChangesBumpGenerationMetadataAndStatusDoNot) {
  Object s = mustCreate(res::statefulsets, statefulSet("web", 1));
  EXPECT_EQ(meta::generation(s), 1);
  s["metadata"]["labels"] = {{"a", "b"}};
  s = *store.update(res::statefulsets, s);
  EXPECT_EQ(meta::generation(s), 1);
  s["status"] = {{"replicas", 1}};
  s = *store.updateStatus(res::statefulsets, s);
  EXPECT_EQ(meta::generation(s), 1);
  EXPECT_EQ(s["status"]["replicas"], 1);
  s["spec"]["replicas"] = 3;
  s = *store.update(res::statefulsets, s);
  EXPECT_EQ(meta::generation(s), 2);
  s = *store.patch(res::statefulsets, "default", "web", Object{{"spec", {{"replicas", 5}}}});
  EXPECT_EQ(meta::generation(s), 3);
}

TEST_F(StoreTest, WithoutSpecAnyNonMetadataChangeBumpsGeneration) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  c["data"]["k"] = "changed";
  c = *store.update(res::configmaps, c);
  EXPECT_EQ(meta::generation(c), 2);
  c["metadata"]["annotations"] = {{"x", "y"}};
  c = *store.update(res::configmaps, c);
  EXPECT_EQ(meta::generation(c), 2);
}

TEST_F(StoreTest, UpdateThatChangesNothingCommitsNothing) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  const std::string rv = store.resourceVersion();
  Object same = c;
  same["metadata"]["labels"] = Object::object();  // empty maps are no content
  auto r = store.update(res::configmaps, same);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(meta::resourceVersion(*r), meta::resourceVersion(c));
  EXPECT_EQ(store.resourceVersion(), rv);
  EXPECT_TRUE(store.patch(res::configmaps, "default", "a", Object{{"data", {{"k", "v"}}}}).ok());
  EXPECT_EQ(store.resourceVersion(), rv);
}

TEST_F(StoreTest, PlainUpdateIgnoresStatusOfSubresourceKinds) {
  Object p = mustCreate(res::pods, pod("p"));
  Object withStatus = p;
  withStatus["status"] = {{"phase", "Running"}};
  auto st = store.updateStatus(res::pods, withStatus);
  ASSERT_TRUE(st.ok());
  EXPECT_EQ((*st)["status"]["phase"], "Running");

  Object plain = *st;
  plain["status"] = {{"phase", "Failed"}};
  plain["metadata"]["labels"] = {{"x", "y"}};
  auto up = store.update(res::pods, plain);
  ASSERT_TRUE(up.ok());
  EXPECT_EQ((*up)["status"]["phase"], "Running");
  EXPECT_EQ(meta::label(*up, "x"), "y");

  auto patched = store.patch(res::pods, "default", "p", Object{{"status", {{"phase", "Failed"}}}});
  ASSERT_TRUE(patched.ok());
  EXPECT_EQ((*patched)["status"]["phase"], "Running");
}

TEST_F(StoreTest, UpdateStatusChangesOnlyStatus) {
  Object p = mustCreate(res::pods, pod("p"));
  Object in = p;
  in["status"] = {{"phase", "Running"}};
  in["metadata"]["labels"] = {{"ignored", "yes"}};
  in["spec"]["containers"][0]["image"] = "redis:8";
  auto r = store.updateStatus(res::pods, in);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["status"]["phase"], "Running");
  EXPECT_EQ(meta::label(*r, "ignored"), "");
  EXPECT_EQ((*r)["spec"]["containers"][0]["image"], "redis:7");
  // A stale status update is a conflict too.
  in["status"]["phase"] = "Failed";
  EXPECT_TRUE(store.updateStatus(res::pods, in).is(Reason::Conflict));
}

TEST_F(StoreTest, UpdateStatusNeedsTheSubresource) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  EXPECT_TRUE(store.updateStatus(res::configmaps, c).is(Reason::NotFound));
}

TEST_F(StoreTest, PatchIsAJsonMergePatch) {
  Object c = configMap("a", "default", {{"keep", "1"}, {"drop", "2"}});
  c["data"] = {{"a", "1"}, {"b", "2"}};
  mustCreate(res::configmaps, c);
  auto r = store.patch(res::configmaps, "default", "a",
                       Object{{"metadata", {{"labels", {{"drop", nullptr}, {"add", "3"}}}}}, {"data", {{"b", nullptr}}}});
  ASSERT_TRUE(r.ok()) << r.error().toString();
  EXPECT_EQ(meta::labels(*r), (std::map<std::string, std::string>{{"add", "3"}, {"keep", "1"}}));
  EXPECT_EQ((*r)["data"], (Object{{"a", "1"}}));
}

TEST_F(StoreTest, PatchWithResourceVersionIsAPrecondition) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  ASSERT_TRUE(store.patch(res::configmaps, "default", "a", Object{{"data", {{"k", "2"}}}}).ok());
  auto stale = store.patch(res::configmaps, "default", "a",
                           Object{{"metadata", {{"resourceVersion", meta::resourceVersion(c)}}}, {"data", {{"k", "3"}}}});
  EXPECT_TRUE(stale.is(Reason::Conflict));
  EXPECT_EQ(mustGet(res::configmaps, "default", "a")["data"]["k"], "2");
}

TEST_F(StoreTest, PatchCannotRenameOrBreakValidation) {
  mustCreate(res::configmaps, configMap("a"));
  EXPECT_TRUE(store.patch(res::configmaps, "default", "a", Object{{"metadata", {{"name", "b"}}}}).is(Reason::BadRequest));
  auto bad = store.patch(res::configmaps, "default", "a", Object{{"metadata", {{"labels", {{"x", "not valid!"}}}}}});
  ASSERT_TRUE(bad.is(Reason::Invalid));
  EXPECT_EQ(bad.error().field, "metadata.labels");
}

TEST_F(StoreTest, StatefulSetSpecIsMostlyImmutable) {
  Object s = mustCreate(res::statefulsets, statefulSet("web", 1));
  Object bad = s;
  bad["spec"]["serviceName"] = "other";
  auto r = store.update(res::statefulsets, bad);
  ASSERT_TRUE(r.is(Reason::Invalid));
  EXPECT_EQ(r.error().field, "spec");
  Object ok = s;
  ok["spec"]["replicas"] = 4;
  ok["spec"]["updateStrategy"] = {{"type", "OnDelete"}};
  EXPECT_TRUE(store.update(res::statefulsets, ok).ok());
}

TEST_F(StoreTest, PodSpecIsMostlyImmutable) {
  Object p = mustCreate(res::pods, pod("p"));
  Object image = p;
  image["spec"]["containers"][0]["image"] = "redis:7.2";
  image["spec"]["nodeName"] = "node-1";  // binding: once, from empty
  auto r = store.update(res::pods, image);
  ASSERT_TRUE(r.ok()) << r.error().toString();
  Object rebind = *r;
  rebind["spec"]["nodeName"] = "node-2";
  EXPECT_EQ(store.update(res::pods, rebind).error().field, "spec.nodeName");
  Object other = *r;
  other["spec"]["containers"][0]["command"] = {"redis-server"};
  EXPECT_EQ(store.update(res::pods, other).error().field, "spec");
}

TEST_F(StoreTest, ServiceKeepsItsClusterIp) {
  Object s = mustCreate(res::services, Object{{"metadata", objectMeta("svc")}, {"spec", Object::object()}});
  Object rebuilt{{"metadata", objectMeta("svc")}, {"spec", {{"ports", Object::array({Object{{"port", 26379}}})}}}};
  auto r = store.update(res::services, rebuilt);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["spec"]["clusterIP"], s["spec"]["clusterIP"]);
  rebuilt["spec"]["clusterIP"] = "10.1.2.3";
  EXPECT_EQ(store.update(res::services, rebuilt).error().field, "spec.clusterIP");
}

TEST_F(StoreTest, ReturnedObjectsCarryApiVersionAndKind) {
  mustCreate(res::statefulsets, statefulSet("web", 1));
  Object bare = mustGet(res::statefulsets, "default", "web");
  bare.erase("apiVersion");
  bare.erase("kind");
  auto r = store.update(res::statefulsets, bare);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["apiVersion"], "apps/v1");
  EXPECT_EQ((*r)["kind"], "StatefulSet");
}

}  // namespace
}  // namespace kun::test

namespace kun::test {
namespace {

TEST_F(StoreTest, UpdateSharedFollowsTheRulesOfUpdate) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  Object next = c;
  next["data"]["k"] = "2";
  auto r = store.updateShared(res::configmaps, next);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((**r)["data"]["k"], "2");
  EXPECT_EQ(meta::generation(**r), 2);
  EXPECT_EQ(r->get(), store.getShared(res::configmaps, "default", "a")->get());
  EXPECT_TRUE(store.updateShared(res::configmaps, c).is(Reason::Conflict));  // c is stale now
}

}  // namespace
}  // namespace kun::test
