// Watches: event types and order, asynchronous delivery, replay from a version, Gone,
// selectors (with ADDED/DELETED on selector transitions), bookmarks, stop().
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

class WatchTest : public StoreTest {
 protected:
  std::unique_ptr<Watch> watchConfigMaps(EventLog& log, WatchOptions opts = {}, const std::string& ns = "") {
    auto w = store.watch(res::configmaps, ns, opts, log.handler(), log.closer());
    EXPECT_TRUE(w.ok()) << (w.ok() ? "" : w.error().toString());
    return w.ok() ? std::move(*w) : nullptr;
  }
};

TEST_F(WatchTest, DeliversAddedModifiedDeletedInOrderThroughTheLoop) {
  EventLog log;
  auto w = watchConfigMaps(log);
  Object a = mustCreate(res::configmaps, configMap("a"));
  a["data"]["k"] = "2";
  Object a2 = *store.update(res::configmaps, a);
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  EXPECT_TRUE(log.events.empty());  // never inside the write calls
  settle();
  ASSERT_EQ(log.summary(), (std::vector<std::string>{"ADDED a", "MODIFIED a", "DELETED a"}));
  EXPECT_EQ(*log.events[1].object, a2);
  EXPECT_EQ(log.events[1].object->at("apiVersion"), "v1");
  EXPECT_EQ(log.events[1].object->at("kind"), "ConfigMap");
  EXPECT_LT(rvOf(*log.events[0].object), rvOf(*log.events[1].object));
  EXPECT_LT(rvOf(*log.events[1].object), rvOf(*log.events[2].object));
  EXPECT_EQ(std::to_string(rvOf(*log.events[2].object)), store.resourceVersion());
}

TEST_F(WatchTest, OnlyItsResourceType) {
  EventLog log;
  auto w = watchConfigMaps(log);
  mustCreate(res::secrets, configMap("s"));
  mustCreate(res::configmaps, configMap("c"));
  settle();
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"ADDED c"}));
}

TEST_F(WatchTest, FromNowDoesNotReplay) {
  mustCreate(res::configmaps, configMap("before"));
  for (const char* rv : {"", "0"}) {
    EventLog log;
    WatchOptions opts;
    opts.resourceVersion = rv;
    auto w = watchConfigMaps(log, opts);
    settle();
    EXPECT_TRUE(log.events.empty());
  }
}

TEST_F(WatchTest, FromAVersionReplaysTheLaterChanges) {
  mustCreate(res::configmaps, configMap("a"));
  auto list = store.list(res::configmaps, "");
  ASSERT_TRUE(list.ok());
  mustCreate(res::configmaps, configMap("b"));
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a").ok());
  EventLog log;
  WatchOptions opts;
  opts.resourceVersion = list->resourceVersion;
  auto w = watchConfigMaps(log, opts);
  mustCreate(res::configmaps, configMap("c"));
  settle();
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"ADDED b", "DELETED a", "ADDED c"}));
}

TEST_F(WatchTest, TooOldIsGoneAndTooNewIsTimeout) {
  SimLoop l;
  FakeStoreOptions o;
  o.historyWindow = 5;
  FakeStore small(l, nullptr, o);
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(small.create(res::configmaps, configMap("c" + std::to_string(i))).ok());
  const std::uint64_t now = std::stoull(small.resourceVersion());
  WatchOptions opts;
  opts.resourceVersion = std::to_string(now - 6);
  auto gone = small.watch(res::configmaps, "", opts, nullptr, nullptr);
  ASSERT_TRUE(gone.is(Reason::Gone));
  EXPECT_NE(gone.error().message.find("too old resource version"), std::string::npos);
  opts.resourceVersion = std::to_string(now - 5);  // the oldest retained change is now-4
  EventLog log;
  auto ok = small.watch(res::configmaps, "", opts, log.handler(), log.closer());
  ASSERT_TRUE(ok.ok());
  l.runUntil([&] { return l.idle(); }, l.now() + seconds(1));
  EXPECT_EQ(log.events.size(), 5u);
  opts.resourceVersion = std::to_string(now + 1);
  EXPECT_TRUE(small.watch(res::configmaps, "", opts, nullptr, nullptr).is(Reason::Timeout));
  opts.resourceVersion = "abc";
  EXPECT_TRUE(small.watch(res::configmaps, "", opts, nullptr, nullptr).is(Reason::BadRequest));
}

TEST_F(WatchTest, RunningWatchThatFallsBehindTheWindowIsClosedWithGone) {
  SimLoop l;
  FakeStoreOptions o;
  o.historyWindow = 5;
  FakeStore small(l, nullptr, o);
  EventLog log;
  auto w = small.watch(res::configmaps, "", {}, log.handler(), log.closer());
  ASSERT_TRUE(w.ok());
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(small.create(res::configmaps, configMap("c" + std::to_string(i))).ok());
  l.runUntil([&] { return l.idle(); }, l.now() + seconds(1));
  EXPECT_TRUE(log.events.empty());
  ASSERT_EQ(log.closed.size(), 1u);
  EXPECT_EQ(log.closed[0].reason, Reason::Gone);
  EXPECT_EQ(small.watchCount(), 0u);
}

TEST_F(WatchTest, NamespaceFilter) {
  mustCreate(res::namespaces, Object{{"metadata", {{"name", "other"}}}});
  EventLog log;
  auto w = watchConfigMaps(log, {}, "other");
  mustCreate(res::configmaps, configMap("a", "default"));
  mustCreate(res::configmaps, configMap("b", "other"));
  settle();
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"ADDED b"}));
}

TEST_F(WatchTest, LabelSelectorTransitionsAreAddedAndDeleted) {
  EventLog log;
  WatchOptions opts;
  opts.labelSelector = "app=redis";
  auto w = watchConfigMaps(log, opts);
  Object c = mustCreate(res::configmaps, configMap("c", "default", {{"app", "other"}}));
  c["metadata"]["labels"]["app"] = "redis";
  c = *store.update(res::configmaps, c);  // starts matching
  c["data"]["k"] = "2";
  c = *store.update(res::configmaps, c);  // still matching
  Object before = c;
  c["metadata"]["labels"]["app"] = "gone";
  c = *store.update(res::configmaps, c);  // stops matching
  ASSERT_TRUE(store.remove(res::configmaps, "default", "c").ok());  // not visible
  settle();
  ASSERT_EQ(log.summary(), (std::vector<std::string>{"ADDED c", "MODIFIED c", "DELETED c"}));
  // The DELETED carries the last state the watch could see, at the version of the change.
  EXPECT_EQ(meta::label(*log.events[2].object, "app"), "redis");
  EXPECT_EQ(meta::resourceVersion(*log.events[2].object), meta::resourceVersion(c));
  EXPECT_EQ(log.events[2].object->at("data"), before["data"]);
}

TEST_F(WatchTest, FieldSelector) {
  EventLog log;
  WatchOptions opts;
  opts.fieldSelector = "metadata.name=b";
  auto w = watchConfigMaps(log, opts);
  mustCreate(res::configmaps, configMap("a"));
  mustCreate(res::configmaps, configMap("b"));
  settle();
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"ADDED b"}));
  opts.fieldSelector = "spec.bogus=1";
  EXPECT_TRUE(store.watch(res::configmaps, "", opts, nullptr, nullptr).is(Reason::Invalid));
}

TEST_F(WatchTest, StopMeansNoLaterCallback) {
  EventLog log;
  auto w = watchConfigMaps(log);
  mustCreate(res::configmaps, configMap("a"));
  w->stop();
  settle();
  EXPECT_TRUE(log.events.empty());
  EXPECT_TRUE(log.closed.empty());
  EXPECT_EQ(store.watchCount(), 0u);
}

TEST_F(WatchTest, StopFromInsideACallbackEndsDeliveryAtOnce) {
  std::vector<std::string> seen;
  std::unique_ptr<Watch> w;
  auto r = store.watch(res::configmaps, "", {}, [&](const WatchEvent& e) {
    seen.push_back(meta::name(*e.object));
    w->stop();
  }, nullptr);
  ASSERT_TRUE(r.ok());
  w = std::move(*r);
  mustCreate(res::configmaps, configMap("a"));
  mustCreate(res::configmaps, configMap("b"));
  settle();
  EXPECT_EQ(seen, (std::vector<std::string>{"a"}));
}

TEST_F(WatchTest, DestroyingTheHandleStops) {
  EventLog log;
  { auto w = watchConfigMaps(log); }
  mustCreate(res::configmaps, configMap("a"));
  settle();
  EXPECT_TRUE(log.events.empty());
}

TEST_F(WatchTest, WritesFromACallbackAreDeliveredOnALaterTurn) {
  int depth = 0, maxDepth = 0;
  std::vector<std::string> seen;
  auto r = store.watch(res::configmaps, "", {}, [&](const WatchEvent& e) {
    ++depth;
    maxDepth = std::max(maxDepth, depth);
    seen.push_back(meta::name(*e.object));
    if (meta::name(*e.object) == "a" && e.type == WatchEventType::Added)
      (void)store.create(res::configmaps, configMap("b"));
    --depth;
  }, nullptr);
  ASSERT_TRUE(r.ok());
  mustCreate(res::configmaps, configMap("a"));
  settle();
  EXPECT_EQ(seen, (std::vector<std::string>{"a", "b"}));
  EXPECT_EQ(maxDepth, 1);
}

TEST_F(WatchTest, BookmarksWhenAskedAndBehind) {
  EventLog log;
  WatchOptions opts;
  opts.allowBookmarks = true;
  opts.labelSelector = "app=redis";
  auto w = watchConfigMaps(log, opts);
  mustCreate(res::configmaps, configMap("unrelated"));
  settle();
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].type, WatchEventType::Bookmark);
  EXPECT_EQ(meta::resourceVersion(*log.events[0].object), store.resourceVersion());
  EXPECT_EQ(log.events[0].object->at("kind"), "ConfigMap");
  EXPECT_TRUE(loop.idle());  // nothing more is owed: the loop can go idle

  EventLog plain;
  auto w2 = watchConfigMaps(plain, WatchOptions{"", "app=redis", "", false});
  mustCreate(res::configmaps, configMap("unrelated2"));
  store.sendBookmarks();
  settle();
  EXPECT_TRUE(plain.events.empty());
  EXPECT_EQ(log.events.back().type, WatchEventType::Bookmark);
}

TEST_F(WatchTest, MultipleWatchersEachGetEverything) {
  std::vector<EventLog> logs(5);
  std::vector<std::unique_ptr<Watch>> ws;
  for (auto& l : logs) ws.push_back(watchConfigMaps(l));
  for (int i = 0; i < 3; ++i) mustCreate(res::configmaps, configMap("c" + std::to_string(i)));
  settle();
  for (const auto& l : logs) EXPECT_EQ(l.summary(), (std::vector<std::string>{"ADDED c0", "ADDED c1", "ADDED c2"}));
}

TEST_F(WatchTest, OtherVersionOfTheResourceSeesItsApiVersion) {
  EventLog log;
  auto w = store.watch(res::poddisruptionbudgetsV1beta1, "", {}, log.handler(), log.closer());
  ASSERT_TRUE(w.ok());
  mustCreate(res::poddisruptionbudgets, Object{{"metadata", objectMeta("pdb")}, {"spec", Object::object()}});
  settle();
  ASSERT_EQ(log.events.size(), 1u);
  EXPECT_EQ(log.events[0].object->at("apiVersion"), "policy/v1beta1");
}

// Superseded versions are rebuilt from the later ones for a replay (the history keeps
// patches, not every tree): whatever the shape of the changes, a replay delivers each
// version exactly as it was committed.
TEST_F(WatchTest, ReplayRebuildsSupersededVersionsExactly) {
  Object c = mustCreate(res::configmaps, configMap("a"));
  const std::string from = meta::resourceVersion(c);
  std::vector<Object> versions;
  auto change = [&](auto edit) {
    edit(c);
    auto r = store.update(res::configmaps, c);
    ASSERT_TRUE(r.ok()) << r.error().toString();
    c = *r;
    versions.push_back(c);
  };
  change([](Object& o) { o["data"]["list"] = Object::array({1, 2, 3}); });
  change([](Object& o) { o["data"]["list"] = Object::array({1}); });                    // array shrinks
  change([](Object& o) { o["data"]["list"] = Object::array({1, "two", nullptr, 4.5}); });  // grows, mixed
  change([](Object& o) { o["data"]["a/b~c"] = "slash and tilde"; });
  change([](Object& o) { o["data"]["list"] = "now a string"; });                         // type change
  change([](Object& o) { o["data"].erase("k"); });
  change([](Object& o) { o["binaryData"] = Object{{"x", "eA=="}}; });
  change([](Object& o) { o.erase("binaryData"); });
  change([](Object& o) { o["metadata"]["labels"] = Object{{"tier", "cache"}}; });
  change([](Object& o) { o["data"] = Object::object(); });
  EventLog log;
  WatchOptions opts;
  opts.resourceVersion = from;
  auto w = watchConfigMaps(log, opts);
  settle();
  ASSERT_EQ(log.events.size(), versions.size());
  for (std::size_t i = 0; i < versions.size(); ++i) {
    EXPECT_EQ(log.events[i].type, WatchEventType::Modified);
    EXPECT_EQ(*log.events[i].object, versions[i]) << "version " << i;
  }
}

// A rebuilt previous state is what a selector transition delivers as DELETED, and a state
// still held elsewhere is used as it is.
TEST_F(WatchTest, ReplayOfASelectorTransitionUsesTheRebuiltPreviousState) {
  Object c = mustCreate(res::configmaps, configMap("a", "default", {{"role", "master"}}));
  const std::string from = meta::resourceVersion(c);
  c["data"]["k"] = "2";
  Object inView = *store.update(res::configmaps, c);
  auto held = store.getShared(res::configmaps, "default", "a");  // keeps this version alive
  ASSERT_TRUE(held.ok());
  inView["data"]["k"] = "3";
  inView = *store.update(res::configmaps, inView);
  Object leaving = inView;
  leaving["metadata"]["labels"]["role"] = "replica";
  leaving = *store.update(res::configmaps, leaving);
  EventLog log;
  WatchOptions opts;
  opts.resourceVersion = from;
  opts.labelSelector = "role=master";
  auto w = watchConfigMaps(log, opts);
  settle();
  ASSERT_EQ(log.summary(), (std::vector<std::string>{"MODIFIED a", "MODIFIED a", "DELETED a"}));
  EXPECT_EQ(*log.events[0].object, **held);
  EXPECT_EQ(*log.events[1].object, inView);
  Object lastInView = inView;
  lastInView["metadata"]["resourceVersion"] = meta::resourceVersion(leaving);
  EXPECT_EQ(*log.events[2].object, lastInView);
}

// A change fanned out to several watches is one object: the stored version itself, not a
// copy per watch (the store renders copies only for another API version, or for a
// selector transition read as a deletion).
TEST_F(WatchTest, EveryWatchReceivesTheStoredVersionItself) {
  EventLog a, b;
  auto wa = watchConfigMaps(a);
  auto wb = watchConfigMaps(b);
  mustCreate(res::configmaps, configMap("a", "default"));
  settle();
  auto stored = store.getShared(res::configmaps, "default", "a");
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(a.events.size(), 1u);
  ASSERT_EQ(b.events.size(), 1u);
  EXPECT_EQ(a.events[0].object.get(), stored->get());
  EXPECT_EQ(b.events[0].object.get(), stored->get());
}

}  // namespace
}  // namespace kun::test
