// The fault hook: failing chosen calls at a rate in a window, lost replies, watch delay,
// closing watches, Gone on the next watch.
#include "tests/unit/store/store_fixture.h"

namespace kun::test {
namespace {

TEST_F(StoreTest, RuleFailsChosenVerbsAndResourcesOnly) {
  FaultRule rule;
  rule.verbs = {StoreVerb::Create};
  rule.resources = {"pods"};
  rule.error = makeError(Reason::Unavailable, "down");
  store.faults().add(rule);
  const std::string rv = store.resourceVersion();
  auto r = store.create(res::pods, pod("p"));
  ASSERT_TRUE(r.is(Reason::Unavailable));
  EXPECT_EQ(store.resourceVersion(), rv);  // nothing written
  EXPECT_FALSE(exists(res::pods, "default", "p"));
  EXPECT_TRUE(store.create(res::configmaps, configMap("c")).ok());
  EXPECT_TRUE(store.list(res::pods, "").ok());
  EXPECT_EQ(store.faults().injected(), 1u);
}

TEST_F(StoreTest, RuleFiresAtItsRate) {
  FaultRule rule;
  rule.verbs = {StoreVerb::Get};
  rule.num = 1;
  rule.den = 4;
  store.faults().add(rule);
  mustCreate(res::configmaps, configMap("c"));
  int failed = 0;
  for (int i = 0; i < 400; ++i) failed += store.get(res::configmaps, "default", "c").ok() ? 0 : 1;
  EXPECT_GT(failed, 60);
  EXPECT_LT(failed, 140);

  // The same seed fails the same calls.
  SimLoop l2;
  FakeStore again(l2);
  again.faults().add(rule);
  ASSERT_TRUE(again.create(res::configmaps, configMap("c")).ok());
  int failedAgain = 0;
  for (int i = 0; i < 400; ++i) failedAgain += again.get(res::configmaps, "default", "c").ok() ? 0 : 1;
  EXPECT_EQ(failed, failedAgain);
}

TEST_F(StoreTest, RuleHoldsOnlyInItsWindowAndCanBeRemoved) {
  FaultRule rule;
  rule.from = loop.now() + seconds(10);
  rule.until = loop.now() + seconds(20);
  rule.error = tooManyRequests(7);
  auto id = store.faults().add(rule);
  EXPECT_TRUE(store.list(res::pods, "").ok());
  loop.runFor(seconds(10));
  auto r = store.list(res::pods, "");
  ASSERT_TRUE(r.is(Reason::TooManyRequests));
  EXPECT_EQ(r.error().retryAfterSeconds, 7);
  loop.runFor(seconds(10));
  EXPECT_TRUE(store.list(res::pods, "").ok());
  EXPECT_TRUE(store.faults().remove(id));
  EXPECT_EQ(store.faults().ruleCount(), 0u);
}

TEST_F(StoreTest, AfterCommitAppliesTheWriteAndReportsTheError) {
  FaultRule rule;
  rule.verbs = {StoreVerb::Create, StoreVerb::Delete};
  rule.error = makeError(Reason::Timeout, "reply lost");
  rule.afterCommit = true;
  store.faults().add(rule);
  EXPECT_TRUE(store.create(res::configmaps, configMap("c")).is(Reason::Timeout));
  EXPECT_TRUE(exists(res::configmaps, "default", "c"));
  EXPECT_TRUE(store.remove(res::configmaps, "default", "c").is(Reason::Timeout));
  EXPECT_FALSE(exists(res::configmaps, "default", "c"));
}

TEST_F(StoreTest, WatchDelayKeepsOrder) {
  EventLog log;
  auto w = store.watch(res::configmaps, "", {}, log.handler(), log.closer());
  ASSERT_TRUE(w.ok());
  store.faults().setWatchDelay(seconds(5));
  mustCreate(res::configmaps, configMap("a"));
  store.faults().setWatchDelay(Duration{0});
  mustCreate(res::configmaps, configMap("b"));  // may not overtake a
  loop.runFor(seconds(4));
  EXPECT_TRUE(log.events.empty());
  loop.runFor(seconds(1));
  EXPECT_EQ(log.summary(), (std::vector<std::string>{"ADDED a", "ADDED b"}));
}

TEST_F(StoreTest, CloseAllWatchesEndsThemWithTheError) {
  EventLog a, b;
  auto wa = store.watch(res::configmaps, "", {}, a.handler(), a.closer());
  auto wb = store.watch(res::pods, "", {}, b.handler(), b.closer());
  mustCreate(res::configmaps, configMap("lost"));  // queued, then dropped by the close
  store.faults().closeAllWatches(makeError(Reason::Unavailable, "apiserver restarted"));
  mustCreate(res::configmaps, configMap("after"));
  settle();
  EXPECT_TRUE(a.events.empty());
  ASSERT_EQ(a.closed.size(), 1u);
  EXPECT_EQ(a.closed[0].message, "apiserver restarted");
  ASSERT_EQ(b.closed.size(), 1u);
  EXPECT_EQ(store.watchCount(), 0u);
}

TEST_F(StoreTest, NextWatchesFailWithGone) {
  store.faults().failNextWatchesWithGone(2);
  EXPECT_TRUE(store.watch(res::pods, "", {}, nullptr, nullptr).is(Reason::Gone));
  EXPECT_TRUE(store.watch(res::pods, "", {}, nullptr, nullptr).is(Reason::Gone));
  EXPECT_TRUE(store.watch(res::pods, "", {}, nullptr, nullptr).ok());
}

TEST_F(StoreTest, FaultsAreTraced) {
  FaultRule rule;
  rule.verbs = {StoreVerb::Update};
  store.faults().add(rule);
  (void)store.update(res::configmaps, configMap("x"));
  auto entries = trace.entries();
  ASSERT_FALSE(entries.empty());
  EXPECT_EQ(entries.back().component, "store");
  EXPECT_EQ(entries.back().text, "fault update configmaps ServiceUnavailable");
}

}  // namespace
}  // namespace kun::test
