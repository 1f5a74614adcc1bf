// Deletion: preconditions, finalizers, graceful pod deletion, namespace deletion.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

Object boundPod(const std::string& name, std::optional<int> grace = std::nullopt, const std::string& ns = "default") {
  Object p = pod(name, ns);
  p["spec"]["nodeName"] = "node-1";
  if (grace) p["spec"]["terminationGracePeriodSeconds"] = *grace;
  return p;
}

TEST_F(StoreTest, DeleteRemovesAndMissingIsNotFound) {
  mustCreate(res::configmaps, configMap("a"));
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  EXPECT_FALSE(exists(res::configmaps, "default", "a"));
  EXPECT_TRUE(store.remove(res::configmaps, "default", "a").is(Reason::NotFound));
}

TEST_F(StoreTest, DeletePreconditionsFailWithConflict) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  DeleteOptions wrongUid;
  wrongUid.preconditionUid = "nope";
  EXPECT_TRUE(store.remove(res::configmaps, "default", "a", wrongUid).is(Reason::Conflict));
  Object c2 = *store.patch(res::configmaps, "default", "a", Object{{"data", {{"k", "2"}}}});
  DeleteOptions staleRv;
  staleRv.preconditionResourceVersion = meta::resourceVersion(c);
  EXPECT_TRUE(store.remove(res::configmaps, "default", "a", staleRv).is(Reason::Conflict));
  EXPECT_TRUE(exists(res::configmaps, "default", "a"));
  DeleteOptions right;
  right.preconditionUid = meta::uid(c2);
  right.preconditionResourceVersion = meta::resourceVersion(c2);
  EXPECT_TRUE(store.remove(res::configmaps, "default", "a", right).ok());
  EXPECT_FALSE(exists(res::configmaps, "default", "a"));
}

TEST_F(StoreTest, FinalizersKeepTheObjectUntilTheLastIsRemoved) {
  Object c = configMap("a");
  c["metadata"]["finalizers"] = {"example.com/one", "example.com/two"};
  mustCreate(res::configmaps, c);
  loop.runFor(seconds(5));
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  Object marked = mustGet(res::configmaps, "default", "a");
  EXPECT_EQ(meta::deletionTimestamp(marked), "2026-01-01T00:00:05Z");
  EXPECT_EQ(meta::deletionGracePeriodSeconds(marked), 0);

  // Deleting again is accepted and changes nothing.
  const std::string rv = store.resourceVersion();
  EXPECT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  EXPECT_EQ(store.resourceVersion(), rv);

  // Updates still work, but may not add finalizers now.
  Object add = marked;
  meta::addFinalizer(add, "example.com/three");
  auto r = store.update(res::configmaps, add);
  ASSERT_TRUE(r.is(Reason::Invalid));
  EXPECT_EQ(r.error().field, "metadata.finalizers");

  Object one = marked;
  meta::removeFinalizer(one, "example.com/one");
  one = *store.update(res::configmaps, one);
  EXPECT_TRUE(exists(res::configmaps, "default", "a"));
  meta::removeFinalizer(one, "example.com/two");
  auto last = store.update(res::configmaps, one);
  ASSERT_TRUE(last.ok());
  EXPECT_FALSE(exists(res::configmaps, "default", "a"));
}

TEST_F(StoreTest, FinalizerRemovedByPatchAlsoDeletes) {
  Object c = configMap("a");
  c["metadata"]["finalizers"] = {"example.com/one"};
  mustCreate(res::configmaps, c);
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  ASSERT_TRUE(store.patch(res::configmaps, "default", "a", Object{{"metadata", {{"finalizers", nullptr}}}}).ok());
  EXPECT_FALSE(exists(res::configmaps, "default", "a"));
}

TEST_F(StoreTest, UnboundPodIsDeletedAtOnce) {
  mustCreate(res::pods, pod("p"));
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());
  EXPECT_FALSE(exists(res::pods, "default", "p"));
}

TEST_F(StoreTest, BoundPodIsMarkedAndTheKubeletConfirms) {
  store.setPodGraceTimeout(false);  // nothing but the kubelet removes it
  Object p = mustCreate(res::pods, boundPod("p", 20));
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());
  Object marked = mustGet(res::pods, "default", "p");
  EXPECT_EQ(meta::deletionTimestamp(marked), "2026-01-01T00:00:20Z");
  EXPECT_EQ(meta::deletionGracePeriodSeconds(marked), 20);
  settle(minutes(5));
  EXPECT_TRUE(exists(res::pods, "default", "p"));  // no kubelet: Terminating for ever

  // The kubelet's confirmation: grace 0 with the uid as precondition.
  DeleteOptions confirm;
  confirm.gracePeriodSeconds = 0;
  confirm.preconditionUid = "some-older-pod";
  EXPECT_TRUE(store.remove(res::pods, "default", "p", confirm).is(Reason::Conflict));
  confirm.preconditionUid = meta::uid(p);
  ASSERT_TRUE(store.remove(res::pods, "default", "p", confirm).ok());
  EXPECT_FALSE(exists(res::pods, "default", "p"));
}

TEST_F(StoreTest, PodGracePeriodDefaultsTo30AndCanOnlyShrink) {
  mustCreate(res::pods, boundPod("p"));
  DeleteOptions opts;
  ASSERT_TRUE(store.remove(res::pods, "default", "p", opts).ok());
  EXPECT_EQ(meta::deletionGracePeriodSeconds(mustGet(res::pods, "default", "p")), 30);
  opts.gracePeriodSeconds = 60;
  ASSERT_TRUE(store.remove(res::pods, "default", "p", opts).ok());
  EXPECT_EQ(meta::deletionGracePeriodSeconds(mustGet(res::pods, "default", "p")), 30);
  opts.gracePeriodSeconds = 5;
  ASSERT_TRUE(store.remove(res::pods, "default", "p", opts).ok());
  Object p = mustGet(res::pods, "default", "p");
  EXPECT_EQ(meta::deletionGracePeriodSeconds(p), 5);
  EXPECT_EQ(meta::deletionTimestamp(p), "2026-01-01T00:00:05Z");
}

TEST_F(StoreTest, PodGraceTimeoutRemovesThePod) {
  mustCreate(res::pods, boundPod("p", 10));
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());
  loop.runFor(seconds(9));
  EXPECT_TRUE(exists(res::pods, "default", "p"));
  loop.runFor(seconds(1));
  EXPECT_FALSE(exists(res::pods, "default", "p"));
}

TEST_F(StoreTest, GraceTimeoutNeverRemovesASuccessorOfTheSameName) {
  mustCreate(res::pods, boundPod("p", 10));
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());  // grace timer armed
  loop.runFor(seconds(3));
  ASSERT_TRUE(store.remove(res::pods, "default", "p", DeleteOptions{{}, {}, {}, 0}).ok());
  Object successor = mustCreate(res::pods, boundPod("p", 10));
  loop.runFor(seconds(11));
  Object now = mustGet(res::pods, "default", "p");
  EXPECT_EQ(meta::uid(now), meta::uid(successor));
  EXPECT_FALSE(meta::isDeleting(now));
}

TEST_F(StoreTest, PodWithFinalizerWaitsForBothGraceAndFinalizer) {
  Object p = boundPod("p", 10);
  p["metadata"]["finalizers"] = {"example.com/hold"};
  mustCreate(res::pods, p);
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());
  // Removing the finalizer during the grace period does not remove the pod.
  ASSERT_TRUE(store.patch(res::pods, "default", "p", Object{{"metadata", {{"finalizers", nullptr}}}}).ok());
  EXPECT_TRUE(exists(res::pods, "default", "p"));
  loop.runFor(seconds(10));
  EXPECT_FALSE(exists(res::pods, "default", "p"));
}

TEST_F(StoreTest, FinishedPodIsDeletedAtOnce) {
  Object p = mustCreate(res::pods, boundPod("p"));
  p["status"] = {{"phase", "Succeeded"}};
  ASSERT_TRUE(store.updateStatus(res::pods, p).ok());
  ASSERT_TRUE(store.remove(res::pods, "default", "p").ok());
  EXPECT_FALSE(exists(res::pods, "default", "p"));
}

TEST_F(StoreTest, DeletingANamespaceDeletesEverythingInIt) {
  mustCreate(res::namespaces, Object{{"metadata", {{"name", "team"}}}});
  mustCreate(res::configmaps, configMap("c", "team"));
  mustCreate(res::pods, boundPod("p", 5, "team"));
  mustCreate(res::configmaps, configMap("c", "default"));
  ASSERT_TRUE(store.remove(res::namespaces, "", "team").ok());
  Object ns = mustGet(res::namespaces, "", "team");
  EXPECT_TRUE(meta::isDeleting(ns));
  EXPECT_EQ(ns["status"]["phase"], "Terminating");
  auto refused = store.create(res::configmaps, configMap("new", "team"));
  EXPECT_TRUE(refused.is(Reason::Forbidden));

  settle();
  EXPECT_FALSE(exists(res::configmaps, "team", "c"));
  EXPECT_FALSE(exists(res::pods, "team", "p"));
  EXPECT_FALSE(exists(res::namespaces, "", "team"));
  EXPECT_TRUE(exists(res::configmaps, "default", "c"));
}

TEST_F(StoreTest, NamespaceWaitsForFinalizersOfItsContents) {
  mustCreate(res::namespaces, Object{{"metadata", {{"name", "team"}}}});
  Object c = configMap("c", "team");
  c["metadata"]["finalizers"] = {"example.com/hold"};
  mustCreate(res::configmaps, c);
  ASSERT_TRUE(store.remove(res::namespaces, "", "team").ok());
  settle();
  EXPECT_TRUE(exists(res::namespaces, "", "team"));
  EXPECT_TRUE(meta::isDeleting(mustGet(res::configmaps, "team", "c")));
  ASSERT_TRUE(store.patch(res::configmaps, "team", "c", Object{{"metadata", {{"finalizers", nullptr}}}}).ok());
  settle();
  EXPECT_FALSE(exists(res::namespaces, "", "team"));
}

TEST_F(StoreTest, DefaultNamespacesCannotBeDeleted) {
  EXPECT_TRUE(store.remove(res::namespaces, "", "default").is(Reason::Forbidden));
  EXPECT_TRUE(store.remove(res::namespaces, "", "kube-system").is(Reason::Forbidden));
}

TEST_F(StoreTest, NamespaceSpecFinalizersAreServerOwned) {
  Object ns = mustCreate(res::namespaces, Object{{"metadata", {{"name", "team"}}}});
  EXPECT_EQ(ns["spec"]["finalizers"], Object::array({"kubernetes"}));
  ns["spec"] = Object::object();
  auto r = store.update(res::namespaces, ns);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ((*r)["spec"]["finalizers"], Object::array({"kubernetes"}));
}

}  // namespace
}  // namespace kun::test
