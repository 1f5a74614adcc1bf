// Lists: order, version, selectors, and the indexes that make a selective list cheap.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

TEST_F(StoreTest, ListIsSortedByNamespaceThenNameWithTheCurrentVersion) {
  for (const char* ns : {"b", "a-b", "a"}) mustCreate(res::namespaces, Object{{"metadata", {{"name", ns}}}});
  for (const char* ns : {"b", "a-b", "a"})
    for (const char* n : {"z", "m", "a"}) mustCreate(res::configmaps, configMap(n, ns));
  auto l = store.list(res::configmaps, "");
  ASSERT_TRUE(l.ok());
  std::vector<std::string> keys;
  for (const auto& o : l->items) keys.push_back(meta::key(o));
  EXPECT_EQ(keys, (std::vector<std::string>{"a/a", "a/m", "a/z", "a-b/a", "a-b/m", "a-b/z", "b/a", "b/m", "b/z"}));
  EXPECT_EQ(l->resourceVersion, store.resourceVersion());
  EXPECT_EQ(l->items[0]["kind"], "ConfigMap");
  auto inNs = store.list(res::configmaps, "a-b");
  ASSERT_EQ(inNs->items.size(), 3u);
  EXPECT_EQ(meta::namespaceOf(inNs->items[0]), "a-b");
}

TEST_F(StoreTest, ListByLabelAndFieldSelectors) {
  mustCreate(res::pods, pod("m", "default", {{"app", "redis"}, {"role", "master"}}));
  mustCreate(res::pods, pod("r1", "default", {{"app", "redis"}, {"role", "replica"}}));
  mustCreate(res::pods, pod("r2", "default", {{"app", "redis"}, {"role", "replica"}}));
  mustCreate(res::pods, pod("s", "default", {{"app", "sentinel"}}));
  auto names = [&](const std::string& labels, const std::string& fields = "") {
    auto l = store.list(res::pods, "default", ListOptions{labels, fields});
    EXPECT_TRUE(l.ok());
    std::vector<std::string> out;
    if (l.ok())
      for (const auto& o : l->items) out.push_back(meta::name(o));
    return out;
  };
  EXPECT_EQ(names("app=redis"), (std::vector<std::string>{"m", "r1", "r2"}));
  EXPECT_EQ(names("app=redis,role!=master"), (std::vector<std::string>{"r1", "r2"}));
  EXPECT_EQ(names("role in (master,replica)"), (std::vector<std::string>{"m", "r1", "r2"}));
  EXPECT_EQ(names("!role"), (std::vector<std::string>{"s"}));
  EXPECT_EQ(names("app=nothing"), std::vector<std::string>{});
  EXPECT_EQ(names("app=redis", "metadata.name=r2"), (std::vector<std::string>{"r2"}));
  EXPECT_EQ(names(""), (std::vector<std::string>{"m", "r1", "r2", "s"}));
  EXPECT_TRUE(store.list(res::pods, "", ListOptions{"=x", ""}).is(Reason::Invalid));
}

TEST_F(StoreTest, SelectiveListExaminesOnlyWhatTheIndexNarrowsTo) {
  for (int i = 0; i < 2000; ++i)
    mustCreate(res::configmaps, configMap("c" + std::to_string(i), "default",
                                          {{"cluster", "c" + std::to_string(i % 100)}, {"all", "yes"}}));
  auto l = store.list(res::configmaps, "", ListOptions{"cluster=c7,all=yes", ""});
  ASSERT_TRUE(l.ok());
  EXPECT_EQ(l->items.size(), 20u);
  EXPECT_EQ(store.lastListExaminedForTest(), 20u);  // the smaller posting list, not 2000
  auto inNs = store.list(res::configmaps, "default", ListOptions{"cluster=c7", ""});
  EXPECT_EQ(inNs->items.size(), 20u);
  EXPECT_EQ(store.lastListExaminedForTest(), 20u);
  // A namespace is a range of the table: listing a small one costs what it holds.
  mustCreate(res::namespaces, Object{{"metadata", {{"name", "small"}}}});
  for (int i = 0; i < 10; ++i) mustCreate(res::configmaps, configMap("s" + std::to_string(i), "small"));
  EXPECT_EQ(store.list(res::configmaps, "small")->items.size(), 10u);
  EXPECT_EQ(store.lastListExaminedForTest(), 10u);
  // Without a required pair (only != / notin / !key) there is nothing to narrow on.
  EXPECT_EQ(store.list(res::configmaps, "small", ListOptions{"cluster!=c7", ""})->items.size(), 10u);
  EXPECT_EQ(store.lastListExaminedForTest(), 10u);
}

TEST_F(StoreTest, LabelIndexFollowsUpdatesAndDeletes) {
  Object c = mustCreate(res::configmaps, configMap("c", "default", {{"app", "a"}}));
  c["metadata"]["labels"]["app"] = "b";
  ASSERT_TRUE(store.update(res::configmaps, c).ok());
  EXPECT_TRUE(store.list(res::configmaps, "", ListOptions{"app=a", ""})->items.empty());
  EXPECT_EQ(store.list(res::configmaps, "", ListOptions{"app=b", ""})->items.size(), 1u);
  ASSERT_TRUE(store.remove(res::configmaps, "default", "c").ok());
  EXPECT_TRUE(store.list(res::configmaps, "", ListOptions{"app=b", ""})->items.empty());
}

TEST_F(StoreTest, ListOfMissingNamespaceIsEmpty) {
  auto l = store.list(res::configmaps, "nowhere");
  ASSERT_TRUE(l.ok());
  EXPECT_TRUE(l->items.empty());
}

TEST_F(StoreTest, GetSharedReturnsTheStoredVersionWithoutCopy) {
  mustCreate(res::configmaps, configMap("a"));
  auto one = store.getShared(res::configmaps, "default", "a");
  auto two = store.getShared(res::configmaps, "default", "a");
  ASSERT_TRUE(one.ok());
  EXPECT_EQ(one->get(), two->get());
  EXPECT_EQ(**one, mustGet(res::configmaps, "default", "a"));
  ASSERT_TRUE(store.patch(res::configmaps, "default", "a", Object{{"data", {{"k", "2"}}}}).ok());
  EXPECT_EQ((**one)["data"]["k"], "v");  // an old version never changes
  EXPECT_TRUE(store.getShared(res::configmaps, "default", "b").is(Reason::NotFound));
}

TEST_F(StoreTest, ListSharedIsTheListWithoutCopies) {
  Object a = configMap("a"), b = configMap("b"), c = configMap("c");
  a["metadata"]["labels"] = {{"app", "x"}};
  c["metadata"]["labels"] = {{"app", "x"}};
  for (const auto& o : {a, b, c}) mustCreate(res::configmaps, o);
  const ListOptions sel{"app=x", ""};
  auto shared = store.listShared(res::configmaps, "default", sel);
  auto copied = store.list(res::configmaps, "default", sel);
  ASSERT_TRUE(shared.ok() && copied.ok());
  ASSERT_EQ(shared->size(), 2u);
  ASSERT_EQ(copied->items.size(), 2u);
  for (std::size_t i = 0; i < 2; ++i) {
    EXPECT_EQ(*(*shared)[i], copied->items[i]);
    EXPECT_EQ((*shared)[i].get(), store.getShared(res::configmaps, "default", meta::name(copied->items[i]))->get());
  }
  // Through the seam, and with its errors.
  KubeClient& client = store;
  EXPECT_EQ(client.listShared(res::configmaps, "default", sel)->size(), 2u);
  EXPECT_FALSE(store.listShared(res::configmaps, "default", ListOptions{"app in (", ""}).ok());
}

}  // namespace
}  // namespace kun::test
