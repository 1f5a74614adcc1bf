// Garbage collection by ownerReferences: background, foreground, orphan, transitive, and
// dependents of owners that never existed.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

class GcTest : public StoreTest {
 protected:
  Object owned(const std::string& name, const std::vector<Object>& owners, bool block = false) {
    Object c = configMap(name);
    for (const auto& o : owners) meta::addOwnerReference(c, ownerRef(o, block));
    return mustCreate(res::configmaps, c);
  }
  Status removeWith(const Object& o, PropagationPolicy p) {
    DeleteOptions opts;
    opts.propagationPolicy = p;
    return store.remove(res::configmaps, "default", meta::name(o), opts);
  }
  bool has(const std::string& name) { return exists(res::configmaps, "default", name); }
};

TEST_F(GcTest, BackgroundDeletesOwnerAtOnceAndDependentsThroughTheLoop) {
  Object owner = owned("owner", {});
  owned("a", {owner});
  owned("b", {owner});
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Background).ok());
  EXPECT_FALSE(has("owner"));
  EXPECT_TRUE(has("a"));  // not inside the delete call
  settle();
  EXPECT_FALSE(has("a"));
  EXPECT_FALSE(has("b"));
}

TEST_F(GcTest, DefaultPolicyIsBackground) {
  Object owner = owned("owner", {});
  owned("a", {owner});
  ASSERT_TRUE(store.remove(res::configmaps, "default", "owner").ok());
  EXPECT_FALSE(has("owner"));
  settle();
  EXPECT_FALSE(has("a"));
}

TEST_F(GcTest, CollectionIsTransitive) {
  Object root = owned("root", {});
  Object mid = owned("mid", {root});
  owned("leaf", {mid});
  ASSERT_TRUE(removeWith(root, PropagationPolicy::Background).ok());
  settle();
  EXPECT_FALSE(has("mid"));
  EXPECT_FALSE(has("leaf"));
}

TEST_F(GcTest, AcrossKindsAndToPods) {
  Object sts = mustCreate(res::statefulsets, Object{{"metadata", objectMeta("web")}, {"spec", {{"replicas", 1}}}});
  Object p = pod("web-0");
  p["spec"]["nodeName"] = "node-1";
  meta::addOwnerReference(p, meta::ownerRefTo(sts));
  mustCreate(res::pods, p);
  ASSERT_TRUE(store.remove(res::statefulsets, "default", "web").ok());
  settle();  // the pod is deleted gracefully, then removed when the grace period ends
  EXPECT_FALSE(exists(res::pods, "default", "web-0"));
}

TEST_F(GcTest, ForegroundKeepsOwnerUntilBlockingDependentsAreGone) {
  Object owner = owned("owner", {});
  Object d = configMap("dep");
  meta::addOwnerReference(d, ownerRef(owner, true));
  d["metadata"]["finalizers"] = {"example.com/hold"};
  mustCreate(res::configmaps, d);
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Foreground).ok());
  Object marked = mustGet(res::configmaps, "default", "owner");
  EXPECT_TRUE(meta::isDeleting(marked));
  EXPECT_TRUE(meta::hasFinalizer(marked, "foregroundDeletion"));
  settle();
  // The dependent is being deleted but its finalizer holds it, and so the owner stays.
  EXPECT_TRUE(meta::isDeleting(mustGet(res::configmaps, "default", "dep")));
  EXPECT_TRUE(has("owner"));
  ASSERT_TRUE(store.patch(res::configmaps, "default", "dep", Object{{"metadata", {{"finalizers", nullptr}}}}).ok());
  settle();
  EXPECT_FALSE(has("dep"));
  EXPECT_FALSE(has("owner"));
}

TEST_F(GcTest, ForegroundDoesNotWaitForNonBlockingDependents) {
  Object owner = owned("owner", {});
  Object d = configMap("dep");
  meta::addOwnerReference(d, ownerRef(owner, false));
  d["metadata"]["finalizers"] = {"example.com/hold"};
  mustCreate(res::configmaps, d);
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Foreground).ok());
  settle();
  EXPECT_FALSE(has("owner"));
  EXPECT_TRUE(meta::isDeleting(mustGet(res::configmaps, "default", "dep")));
}

TEST_F(GcTest, ForegroundIsTransitive) {
  Object root = owned("root", {});
  Object mid = owned("mid", {root}, true);
  owned("leaf", {mid}, true);
  ASSERT_TRUE(removeWith(root, PropagationPolicy::Foreground).ok());
  settle();
  EXPECT_FALSE(has("root"));
  EXPECT_FALSE(has("mid"));
  EXPECT_FALSE(has("leaf"));
}

TEST_F(GcTest, ForegroundWithoutDependentsCompletes) {
  Object owner = owned("owner", {});
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Foreground).ok());
  settle();
  EXPECT_FALSE(has("owner"));
}

TEST_F(GcTest, OrphanRemovesTheReferencesAndKeepsDependents) {
  Object owner = owned("owner", {});
  Object other = owned("other", {});
  owned("a", {owner});
  owned("b", {owner, other});
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Orphan).ok());
  EXPECT_TRUE(meta::hasFinalizer(mustGet(res::configmaps, "default", "owner"), "orphan"));
  settle();
  EXPECT_FALSE(has("owner"));
  ASSERT_TRUE(has("a"));
  EXPECT_TRUE(meta::ownerReferences(mustGet(res::configmaps, "default", "a")).empty());
  auto refs = meta::ownerReferences(mustGet(res::configmaps, "default", "b"));
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].uid, meta::uid(other));
}

TEST_F(GcTest, DependentWithAnotherLiveOwnerOnlyLosesTheReference) {
  Object one = owned("one", {});
  Object two = owned("two", {});
  owned("shared", {one, two});
  ASSERT_TRUE(removeWith(one, PropagationPolicy::Background).ok());
  settle();
  ASSERT_TRUE(has("shared"));
  auto refs = meta::ownerReferences(mustGet(res::configmaps, "default", "shared"));
  ASSERT_EQ(refs.size(), 1u);
  EXPECT_EQ(refs[0].uid, meta::uid(two));
}

TEST_F(GcTest, DependentOfAnOwnerThatDoesNotExistIsCollected) {
  Object c = configMap("dangling");
  meta::addOwnerReference(c, OwnerReference{"v1", "ConfigMap", "ghost", "no-such-uid", true, false});
  mustCreate(res::configmaps, c);
  EXPECT_TRUE(has("dangling"));
  settle();
  EXPECT_FALSE(has("dangling"));
}

TEST_F(GcTest, ReferenceByUidWithTheWrongNameIsDangling) {
  Object owner = owned("owner", {});
  Object c = configMap("c");
  OwnerReference ref = ownerRef(owner);
  ref.name = "someone-else";
  meta::addOwnerReference(c, ref);
  mustCreate(res::configmaps, c);
  settle();
  EXPECT_FALSE(has("c"));
  EXPECT_TRUE(has("owner"));
}

TEST_F(GcTest, OwnerReferenceAddedByUpdateIsChecked) {
  Object c = owned("c", {});
  meta::addOwnerReference(c, OwnerReference{"v1", "ConfigMap", "ghost", "no-such-uid", true, false});
  ASSERT_TRUE(store.update(res::configmaps, c).ok());
  settle();
  EXPECT_FALSE(has("c"));
}

TEST_F(GcTest, OwnerWithFinalizerCollectsDependentsOnlyWhenGone) {
  Object o = configMap("owner");
  o["metadata"]["finalizers"] = {"example.com/hold"};
  Object owner = mustCreate(res::configmaps, o);
  owned("a", {owner});
  ASSERT_TRUE(removeWith(owner, PropagationPolicy::Background).ok());
  settle();
  EXPECT_TRUE(has("a"));
  ASSERT_TRUE(store.patch(res::configmaps, "default", "owner", Object{{"metadata", {{"finalizers", nullptr}}}}).ok());
  settle();
  EXPECT_FALSE(has("a"));
}

TEST_F(GcTest, ClusterScopedOwnerOfNamespacedDependent) {
  Object node = mustCreate(res::nodes, Object{{"metadata", {{"name", "n1"}}}});
  Object c = configMap("c");
  meta::addOwnerReference(c, meta::ownerRefTo(node));
  mustCreate(res::configmaps, c);
  settle();
  ASSERT_TRUE(has("c"));
  ASSERT_TRUE(store.remove(res::nodes, "", "n1").ok());
  settle();
  EXPECT_FALSE(has("c"));
}

}  // namespace
}  // namespace kun::test
