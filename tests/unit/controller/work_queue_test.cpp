// The work queue under simulated time: dedupe, re-add while processing, add-after with the
// earliest time winning, rate-limited retries, shutdown.
#include <gtest/gtest.h>

#include <vector>

#include "core/controller/work_queue.h"
#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

struct Fixture : ::testing::Test {
  SimLoop loop;
  WorkQueue q{loop};

  std::vector<std::string> drain() {
    std::vector<std::string> out;
    while (auto k = q.tryGet()) {
      out.push_back(*k);
      q.done(*k);
    }
    return out;
  }
};

using WorkQueueTest = Fixture;

TEST_F(WorkQueueTest, AKeyQueuedTwiceIsHandedOutOnce) {
  q.add("ns/a");
  q.add("ns/b");
  q.add("ns/a");
  EXPECT_EQ(q.len(), 2u);
  EXPECT_EQ(q.addsTotal(), 2u);
  EXPECT_EQ(drain(), (std::vector<std::string>{"ns/a", "ns/b"}));
  EXPECT_FALSE(q.tryGet());
}

TEST_F(WorkQueueTest, KeysComeOutInTheOrderTheyBecameReady) {
  for (const char* k : {"c", "a", "b"}) q.add(k);
  EXPECT_EQ(drain(), (std::vector<std::string>{"c", "a", "b"}));
}

TEST_F(WorkQueueTest, AKeyReaddedWhileProcessingIsProcessedOnceMoreAfterDone) {
  q.add("k");
  auto k = q.tryGet();
  ASSERT_TRUE(k);
  EXPECT_EQ(q.processingCount(), 1u);
  q.add("k");
  q.add("k");
  // Not handed to a second worker while the first still has it.
  EXPECT_EQ(q.len(), 0u);
  EXPECT_FALSE(q.tryGet());
  q.done("k");
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(drain(), std::vector<std::string>{"k"});
  EXPECT_EQ(q.processingCount(), 0u);
}

TEST_F(WorkQueueTest, AKeyNotReaddedIsNotRequeuedByDone) {
  q.add("k");
  auto k = q.tryGet();
  q.done(*k);
  EXPECT_EQ(q.len(), 0u);
}

TEST_F(WorkQueueTest, AddAfterBecomesReadyExactlyWhenDue) {
  q.addAfter("k", seconds(2));
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.waitingCount(), 1u);
  loop.runFor(seconds(2) - microseconds(1));
  EXPECT_EQ(q.len(), 0u);
  loop.runFor(microseconds(1));
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(q.waitingCount(), 0u);
  EXPECT_EQ(loop.now().time_since_epoch(), seconds(2));
}

TEST_F(WorkQueueTest, AddAfterZeroOrNegativeAddsNow) {
  q.addAfter("a", Duration::zero());
  q.addAfter("b", -seconds(1));
  EXPECT_EQ(q.len(), 2u);
  EXPECT_TRUE(loop.idle());
}

TEST_F(WorkQueueTest, TheEarlierOfTwoAddAftersWinsAndTheOtherTimerIsCancelled) {
  q.addAfter("k", seconds(10));
  q.addAfter("k", seconds(5));
  q.addAfter("k", seconds(7));
  EXPECT_EQ(loop.pending(), 1u);  // only the 5 s timer is left on the loop
  loop.runFor(seconds(5));
  EXPECT_EQ(drain(), std::vector<std::string>{"k"});
  EXPECT_TRUE(loop.idle());  // nothing fires at 7 s or 10 s
  loop.runFor(seconds(10));
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.addsTotal(), 1u);
}

TEST_F(WorkQueueTest, AWaitingKeyThatIsAlsoAddedNowIsDedupedWhileQueued) {
  q.addAfter("k", seconds(1));
  q.add("k");
  loop.runFor(seconds(1));  // fires while "k" is still queued: no second entry
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(drain(), std::vector<std::string>{"k"});
}

TEST_F(WorkQueueTest, RateLimitedRetriesBackOffPerKeyUntilForgotten) {
  std::vector<std::int64_t> readyAtMs;
  auto retryOnce = [&](const std::string& key) {
    q.addRateLimited(key);
    ASSERT_TRUE(loop.runUntil([&] { return q.len() > 0; }, loop.now() + seconds(2000)));
    readyAtMs.push_back(sinceStartMillis(loop.now()));
    drain();
  };
  for (int i = 0; i < 4; ++i) retryOnce("k");
  EXPECT_EQ(readyAtMs, (std::vector<std::int64_t>{5, 15, 35, 75}));
  EXPECT_EQ(q.numRequeues("k"), 4u);
  EXPECT_EQ(q.numRequeues("other"), 0u);
  q.forget("k");
  EXPECT_EQ(q.numRequeues("k"), 0u);
  retryOnce("k");
  EXPECT_EQ(readyAtMs.back(), 80);
}

TEST_F(WorkQueueTest, RateLimitedHonoursAMinimumDelay) {
  q.addRateLimited("k", seconds(3));
  loop.runFor(seconds(3) - microseconds(1));
  EXPECT_EQ(q.len(), 0u);
  loop.runFor(microseconds(1));
  EXPECT_EQ(q.len(), 1u);
}

TEST_F(WorkQueueTest, BackoffIsConfigurable) {
  WorkQueue fast(loop, {{milliseconds(1), milliseconds(3)}});
  for (int i = 0; i < 3; ++i) {
    const TimePoint start = loop.now();
    fast.addRateLimited("k");
    loop.runUntil([&] { return fast.len() > 0; }, loop.now() + seconds(1));
    EXPECT_EQ(loop.now() - start, milliseconds(i == 0 ? 1 : i == 1 ? 2 : 3)) << i;
    auto k = fast.tryGet();
    fast.done(*k);
  }
}

TEST_F(WorkQueueTest, ShutDownDropsWaitingKeysAndIgnoresAdds) {
  q.add("queued");
  q.addAfter("later", seconds(1));
  q.shutDown();
  EXPECT_TRUE(q.shuttingDown());
  EXPECT_TRUE(loop.idle());  // the timer was cancelled
  q.add("new");
  q.addAfter("new2", seconds(1));
  q.addRateLimited("new3");
  EXPECT_EQ(q.len(), 1u);
  EXPECT_EQ(q.get(), std::optional<std::string>("queued"));  // still drains
  q.done("queued");
  EXPECT_EQ(q.get(), std::nullopt);  // shut down and empty: does not block
  EXPECT_TRUE(loop.idle());
}

TEST_F(WorkQueueTest, ReadyCallbackFiresWhenAKeyBecomesReady) {
  int calls = 0;
  q.setReadyCallback([&] { ++calls; });
  q.add("a");
  q.add("a");  // deduplicated: no call
  EXPECT_EQ(calls, 1);
  q.addAfter("b", seconds(1));
  EXPECT_EQ(calls, 1);
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, 2);
  auto a = q.tryGet();
  q.add("a");  // while processing: not ready yet
  EXPECT_EQ(calls, 2);
  q.done(*a);
  EXPECT_EQ(calls, 3);
  q.setReadyCallback({});
  q.add("c");
  EXPECT_EQ(calls, 3);
}

TEST(WorkQueueLifetime, DestroyingTheQueueCancelsItsTimers) {
  SimLoop loop;
  {
    WorkQueue q(loop);
    q.addAfter("k", seconds(1));
    q.addRateLimited("j");
    EXPECT_EQ(loop.pending(), 2u);
  }
  EXPECT_TRUE(loop.idle());
  loop.runFor(seconds(5));  // nothing left that could touch the dead queue
}

}  // namespace
}  // namespace kun
