// The informer against the fake store: it must mirror the store through watch closes,
// Gone, and list failures, and tell its handlers exactly what changed.
#include <gtest/gtest.h>

#include <atomic>
#include <optional>
#include <thread>

#include "core/kube/informer.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

Object configMap(const std::string& name, const std::string& value,
                 std::map<std::string, std::string> labels = {}) {
  Object o = {{"apiVersion", "v1"}, {"kind", "ConfigMap"},
              {"metadata", {{"name", name}, {"namespace", "default"}}},
              {"data", {{"v", value}}}};
  for (const auto& [k, v] : labels) o["metadata"]["labels"][k] = v;
  return o;
}

struct Seen {
  std::vector<std::string> log;  // "ADDED a", "MODIFIED a", "DELETED a"
};

class InformerTest : public ::testing::Test {
 protected:
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  Seen seen;

  std::unique_ptr<Informer> make(Informer::Options opts = {}) {
    auto inf = std::make_unique<Informer>(store, loop, res::configmaps, opts, log);
    inf->addHandler([this](WatchEventType t, const ObjectPtr& obj, const ObjectPtr&) {
      seen.log.push_back(std::string(watchEventTypeName(t)) + " " + meta::name(*obj));
    });
    return inf;
  }
  void settle() { loop.runFor(seconds(1)); }
  // Lists refused for `d` (with `error`, else the rule's default), one object stored, and
  // an informer started into that.
  std::unique_ptr<Informer> startUnderRefusedLists(Duration d, std::optional<Error> error = std::nullopt) {
    FaultRule rule;
    rule.verbs = {StoreVerb::List};
    rule.until = loop.now() + d;
    if (error) rule.error = *error;
    store.faults().add(rule);
    put("a", "1");
    auto inf = make();
    inf->start();
    return inf;
  }
  Object put(const std::string& name, const std::string& value) {
    auto cur = store.get(res::configmaps, "default", name);
    if (!cur) return store.create(res::configmaps, configMap(name, value)).value();
    Object o = *cur;
    o["data"]["v"] = value;
    return store.update(res::configmaps, o).value();
  }
  std::string cached(const Informer& inf, const std::string& name) {
    auto o = inf.get("default", name);
    return o ? (*o)["data"]["v"].get<std::string>() : "<none>";
  }
};

TEST_F(InformerTest, ListsThenFollowsChanges) {
  put("a", "1");
  auto inf = make();
  inf->start();
  EXPECT_TRUE(inf->synced());
  EXPECT_EQ(cached(*inf, "a"), "1");
  put("b", "2");
  put("a", "3");
  ASSERT_TRUE(store.remove(res::configmaps, "default", "b"));
  settle();
  EXPECT_EQ(cached(*inf, "a"), "3");
  EXPECT_EQ(cached(*inf, "b"), "<none>");
  EXPECT_EQ(seen.log, (std::vector<std::string>{"ADDED a", "ADDED b", "MODIFIED a", "DELETED b"}));
}

// Every change the cache takes moves changes(), so that a reader keeping what it derived
// from a list while it stays (the reconciler's pods) never misses one; reads do not move it.
TEST_F(InformerTest, ChangesCountsEveryChangeToTheCache) {
  put("a", "1");
  auto inf = make();
  const std::uint64_t before = inf->changes();
  inf->start();
  const std::uint64_t listed = inf->changes();
  EXPECT_GT(listed, before);
  (void)inf->list("default");
  (void)inf->get("default", "a");
  settle();
  EXPECT_EQ(inf->changes(), listed);
  std::uint64_t last = listed;
  auto moved = [&] {
    settle();
    const bool m = inf->changes() > last;
    last = inf->changes();
    return m;
  };
  put("b", "2");
  EXPECT_TRUE(moved());
  put("a", "3");
  EXPECT_TRUE(moved());
  ASSERT_TRUE(store.remove(res::configmaps, "default", "b"));
  EXPECT_TRUE(moved());
  store.faults().failNextWatchesWithGone(1);
  store.faults().closeAllWatches();
  put("a", "4");
  loop.runFor(seconds(5));
  EXPECT_GT(inf->changes(), last);
  EXPECT_EQ(cached(*inf, "a"), "4");
}

TEST_F(InformerTest, ResumesAfterAClosedWatchWithoutRelisting) {
  auto inf = make();
  inf->start();
  put("a", "1");
  settle();
  store.faults().closeAllWatches();
  settle();
  put("a", "2");
  settle();
  EXPECT_EQ(cached(*inf, "a"), "2");
  EXPECT_EQ(inf->lists(), 1u);
  EXPECT_EQ(inf->watchesStarted(), 2u);
}

TEST_F(InformerTest, RelistsOnGoneAndDeliversTheDifference) {
  put("keep", "1");
  put("drop", "1");
  auto inf = make();
  inf->start();
  settle();
  seen.log.clear();
  // Changes the informer does not see live: the watch is closed and the next one is Gone.
  store.faults().failNextWatchesWithGone(1);
  store.faults().closeAllWatches();
  put("keep", "2");
  ASSERT_TRUE(store.remove(res::configmaps, "default", "drop"));
  put("new", "1");
  loop.runFor(seconds(5));
  EXPECT_EQ(cached(*inf, "keep"), "2");
  EXPECT_EQ(cached(*inf, "drop"), "<none>");
  EXPECT_EQ(cached(*inf, "new"), "1");
  EXPECT_GE(inf->lists(), 2u);
  // Each change is delivered once, whichever path (watch replay or relist) carried it.
  std::multiset<std::string> got(seen.log.begin(), seen.log.end());
  EXPECT_EQ(got, (std::multiset<std::string>{"MODIFIED keep", "DELETED drop", "ADDED new"}));
}

TEST_F(InformerTest, RetriesAFailedListWithBackoff) {
  auto inf = startUnderRefusedLists(seconds(2));
  EXPECT_FALSE(inf->synced());
  loop.runFor(seconds(5));
  EXPECT_TRUE(inf->synced());
  EXPECT_EQ(cached(*inf, "a"), "1");
  EXPECT_GT(inf->lists(), 2u);
}

// After a long outage the cache is back within the backoff's cap (5 s) of its end: the
// operator heals nothing until then (client-go's 30 s left two masters for 25 s after a
// storm of 500s, kun-sim prop --seed 4010).
TEST_F(InformerTest, SyncsWithinFiveSecondsOfALongOutagesEnd) {
  auto inf = startUnderRefusedLists(seconds(60));
  loop.runFor(seconds(60));
  EXPECT_FALSE(inf->synced());
  const auto listsInOutage = inf->lists();
  EXPECT_LE(listsInOutage, 20u) << "backed off: about one list per 5 s once grown";
  loop.runFor(seconds(5) + milliseconds(100));
  EXPECT_TRUE(inf->synced());
  EXPECT_EQ(cached(*inf, "a"), "1");
}

// A 429 with Retry-After is retried when the server said, however long it lasts: the list
// comes a second after the last refusal, not after a backoff grown to its cap.
TEST_F(InformerTest, RetriesA429ListAfterItsRetryAfterWithoutBackoff) {
  auto inf = startUnderRefusedLists(milliseconds(40500), tooManyRequests(1));
  loop.runFor(milliseconds(40900));
  EXPECT_FALSE(inf->synced());
  EXPECT_GE(inf->lists(), 41u);  // one a second
  loop.runFor(milliseconds(200));
  EXPECT_TRUE(inf->synced());
  EXPECT_EQ(cached(*inf, "a"), "1");
}

TEST_F(InformerTest, FiltersByLabelSelectorAndListsByNamespace) {
  store.create(res::configmaps, configMap("x", "1", {{"app", "redis"}})).value();
  store.create(res::configmaps, configMap("y", "1", {{"app", "other"}})).value();
  Informer::Options opts;
  opts.labelSelector = "app=redis";
  auto inf = make(opts);
  inf->start();
  EXPECT_EQ(inf->size(), 1u);
  EXPECT_EQ(cached(*inf, "x"), "1");
  EXPECT_EQ(inf->list("default").size(), 1u);
  EXPECT_TRUE(inf->list("other-ns").empty());
}

// An indexed list must answer exactly what a scan does, through label changes, deletions
// and a relist after Gone.
TEST_F(InformerTest, IndexedListAgreesWithAScan) {
  auto names = [](const std::vector<ObjectPtr>& objs) {
    std::vector<std::string> out;
    for (const auto& o : objs) out.push_back(meta::name(*o));
    return out;
  };
  Informer::Options indexed;
  indexed.indexLabels = {"cluster"};
  auto inf = make(indexed);
  auto scan = make();
  store.create(res::configmaps, configMap("a1", "1", {{"cluster", "a"}, {"part", "redis"}})).value();
  store.create(res::configmaps, configMap("a2", "1", {{"cluster", "a"}, {"part", "sentinel"}})).value();
  store.create(res::configmaps, configMap("b1", "1", {{"cluster", "b"}, {"part", "redis"}})).value();
  inf->start();
  scan->start();
  const auto redisOfA = LabelSelector::fromMap({{"cluster", "a"}, {"part", "redis"}});
  const auto allOfA = LabelSelector::fromMap({{"cluster", "a"}});
  const auto noneSuch = LabelSelector::fromMap({{"cluster", "zzz"}});
  auto agree = [&](const std::vector<std::string>& want) {
    EXPECT_EQ(names(inf->list("default", allOfA)), want);
    EXPECT_EQ(names(inf->list("default", allOfA)), names(scan->list("default", allOfA)));
    EXPECT_EQ(names(inf->list("default", redisOfA)), names(scan->list("default", redisOfA)));
    EXPECT_TRUE(inf->list("default", noneSuch).empty());
    EXPECT_TRUE(inf->list("other-ns", allOfA).empty());
    EXPECT_TRUE(inf->list("defaul", allOfA).empty());  // a prefix of the namespace is not it
    EXPECT_TRUE(scan->list("defaul", allOfA).empty());
  };
  agree({"a1", "a2"});
  EXPECT_EQ(names(inf->list("default", redisOfA)), std::vector<std::string>{"a1"});

  // b1 moves to cluster a (a label change re-files it), a2 goes.
  Object b1 = *store.get(res::configmaps, "default", "b1");
  b1["metadata"]["labels"]["cluster"] = "a";
  store.update(res::configmaps, b1).value();
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a2"));
  settle();
  agree({"a1", "b1"});
  EXPECT_TRUE(inf->list("default", LabelSelector::fromMap({{"cluster", "b"}})).empty());

  // Missed while the watch is down; the relist must rebuild the index.
  store.faults().failNextWatchesWithGone(2);
  store.faults().closeAllWatches();
  store.create(res::configmaps, configMap("a3", "1", {{"cluster", "a"}, {"part", "redis"}})).value();
  ASSERT_TRUE(store.remove(res::configmaps, "default", "a1"));
  loop.runFor(seconds(5));
  agree({"a3", "b1"});
}

TEST_F(InformerTest, StopEndsDelivery) {
  auto inf = make();
  inf->start();
  put("a", "1");
  settle();
  inf->stop();
  put("b", "1");
  settle();
  EXPECT_EQ(seen.log, (std::vector<std::string>{"ADDED a"}));
}

TEST_F(InformerTest, ResyncRedeliversEveryObject) {
  put("a", "1");
  Informer::Options opts;
  opts.resync = seconds(10);
  auto inf = make(opts);
  inf->start();
  loop.runFor(seconds(25));
  EXPECT_EQ(seen.log, (std::vector<std::string>{"ADDED a", "MODIFIED a", "MODIFIED a"}));
}

// Real mode's worker threads read the cache while the loop thread changes it: each read
// sees whole objects, and the versions one reader sees only move forward.
TEST_F(InformerTest, ReadersOnOtherThreadsSeeWholeObjectsInOrder) {
  auto inf = make();
  inf->start();
  for (int i = 0; i < 8; ++i) put("c" + std::to_string(i), "0");
  settle();
  std::atomic<bool> done{false};
  std::atomic<int> reads{0}, bad{0}, ready{0};
  auto reader = [&] {
    std::map<std::string, int> last;
    for (bool first = true; first || !done.load(); first = false) {
      for (const auto& o : inf->list("default")) {
        const int v = std::stoi((*o)["data"]["v"].get<std::string>());
        int& seenV = last[meta::name(*o)];
        if (v < seenV) ++bad;
        seenV = v;
        ++reads;
      }
      if (auto one = inf->get("default", "c3"); !one || !(*one)["data"].contains("v")) ++bad;
      if (first) ++ready;
    }
  };
  std::thread a(reader), b(reader);
  // The writes start once both readers read: on a loaded machine the threads could
  // otherwise start only after the last write, and nothing would overlap.
  while (ready.load() < 2) std::this_thread::yield();
  for (int round = 1; round <= 50; ++round) {
    for (int i = 0; i < 8; ++i) put("c" + std::to_string(i), std::to_string(round));
    loop.runFor(milliseconds(10));
  }
  done = true;
  a.join();
  b.join();
  EXPECT_EQ(bad.load(), 0);
  EXPECT_GT(reads.load(), 0);
  EXPECT_EQ(cached(*inf, "c7"), "50");
}

// What a watch delivers is cached as delivered: the store's own version, no copy.
TEST_F(InformerTest, CachesTheWatchedVersionWithoutCopyingIt) {
  auto inf = make();
  inf->start();
  put("a", "1");
  settle();
  put("a", "2");
  settle();
  auto stored = store.getShared(res::configmaps, "default", "a");
  ASSERT_TRUE(stored.ok());
  ASSERT_EQ(cached(*inf, "a"), "2");
  EXPECT_EQ(inf->get("default", "a").get(), stored->get());
}

// get() builds its key on the stack when it fits: names on both sides of that, and a
// cluster-scoped resource (whose namespace is ignored).
TEST_F(InformerTest, GetFindsNamesOfEveryLengthAndIgnoresTheNamespaceOfClusterScoped) {
  auto inf = make();
  inf->start();
  std::vector<std::string> names;
  for (std::size_t len : {1, 100, 119, 120, 121, 200}) names.push_back(std::string(len, 'n'));
  for (const auto& n : names) put(n, "v" + std::to_string(n.size()));
  settle();
  for (const auto& n : names) {
    EXPECT_EQ(cached(*inf, n), "v" + std::to_string(n.size())) << n.size();
    EXPECT_EQ(inf->get("default", n + "x"), nullptr) << n.size();
    EXPECT_EQ(inf->get("other", n), nullptr) << n.size();
    EXPECT_EQ(inf->get("", n), nullptr) << n.size();
  }
  Informer nodes(store, loop, res::nodes, {}, log);
  nodes.start();
  ASSERT_TRUE(store.create(res::nodes, {{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "node-a"}}}}).ok());
  settle();
  EXPECT_NE(nodes.get("", "node-a"), nullptr);
  EXPECT_NE(nodes.get("default", "node-a"), nullptr);
  EXPECT_EQ(nodes.get("", "node-b"), nullptr);
}

}  // namespace
}  // namespace kun
