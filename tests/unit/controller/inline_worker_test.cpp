// The simulator's inline worker: the loop drives reconciles, one key per event, and the
// reconcile's result decides when the key comes back.
#include <gtest/gtest.h>

#include <stdexcept>
#include <vector>

#include "core/controller/inline_worker.h"
#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

struct Call {
  std::int64_t atMs;
  std::string key;
  bool operator==(const Call& o) const { return atMs == o.atMs && key == o.key; }
};

std::ostream& operator<<(std::ostream& os, const Call& c) { return os << c.key << "@" << c.atMs; }

struct InlineWorkerTest : ::testing::Test {
  SimLoop loop;
  WorkQueue q{loop};
  std::vector<Call> calls;
  std::function<ReconcileResult(const std::string&)> behaviour = [](const std::string&) {
    return ReconcileResult::done();
  };
  InlineWorker worker{loop, q, [this](const std::string& key) {
                        calls.push_back({sinceStartMillis(loop.now()), key});
                        return behaviour(key);
                      }};
};

TEST_F(InlineWorkerTest, ProcessesKeysInOrderOnePerLoopEvent) {
  worker.start();
  q.add("a");
  q.add("b");
  std::vector<std::string> order;
  // Posted after both keys: runs between the two reconciles, not after both.
  loop.post([&] { order.push_back("other:" + std::to_string(calls.size())); });
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "a"}, {0, "b"}}));
  EXPECT_EQ(order, std::vector<std::string>{"other:1"});
  EXPECT_EQ(worker.processed(), 2u);
  EXPECT_TRUE(loop.idle());  // nothing polls
}

TEST_F(InlineWorkerTest, KeysQueuedBeforeStartAreProcessedOnStart) {
  q.add("early");
  loop.runFor(seconds(1));
  EXPECT_TRUE(calls.empty());
  worker.start();
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{1000, "early"}}));
}

TEST_F(InlineWorkerTest, DuplicateAddsReconcileOnce) {
  worker.start();
  for (int i = 0; i < 5; ++i) q.add("k");
  loop.runFor(seconds(1));
  EXPECT_EQ(calls.size(), 1u);
}

TEST_F(InlineWorkerTest, AKeyAddedDuringItsReconcileIsReconciledOnceMoreAfterIt) {
  int adds = 0;
  behaviour = [&](const std::string& key) {
    if (adds++ == 0) {  // an event for the same object arrives mid-reconcile, three times
      q.add(key);
      q.add(key);
      q.add(key);
    }
    return ReconcileResult::done();
  };
  worker.start();
  q.add("k");
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "k"}, {0, "k"}}));
}

TEST_F(InlineWorkerTest, RequeueAfterComesBackAfterThatLong) {
  int n = 0;
  behaviour = [&](const std::string&) {
    return ++n < 3 ? ReconcileResult::requeueAfter(seconds(10)) : ReconcileResult::done();
  };
  worker.start();
  q.add("k");
  loop.runFor(minutes(5));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "k"}, {10000, "k"}, {20000, "k"}}));
}

TEST_F(InlineWorkerTest, FailuresBackOffExponentiallyAndSuccessResetsTheBackoff) {
  int n = 0;
  behaviour = [&](const std::string&) {
    ++n;
    if (n == 5) return ReconcileResult::requeueAfter(seconds(1));  // success: forgets
    if (n >= 7) return ReconcileResult::done();
    return ReconcileResult::failed(makeError(Reason::Unavailable, "api server down"));
  };
  worker.start();
  q.add("k");
  loop.runFor(minutes(1));
  // Fails at 0, 5, 15, 35 ms (waiting 5, 10, 20, 40 ms); succeeds at 75 ms and asks to come
  // back 1 s later; fails at 1075 ms and, the backoff forgotten, is retried 5 ms later.
  EXPECT_EQ(calls, (std::vector<Call>{{0, "k"}, {5, "k"}, {15, "k"}, {35, "k"}, {75, "k"},
                                      {1075, "k"}, {1080, "k"}}));
  EXPECT_EQ(q.numRequeues("k"), 0u);
}

// The first `refusals` reconciles fail with 429 and that Retry-After; the rest succeed.
std::function<ReconcileResult(const std::string&)> refusedFirst(int refusals, int retryAfterSeconds) {
  return [n = 0, refusals, retryAfterSeconds](const std::string&) mutable {
    if (n++ >= refusals) return ReconcileResult::done();
    Error e = makeError(Reason::TooManyRequests, "slow down");
    e.retryAfterSeconds = retryAfterSeconds;
    return ReconcileResult::failed(e);
  };
}

TEST_F(InlineWorkerTest, RetryAfterFromTheServerIsHonoured) {
  behaviour = refusedFirst(1, 2);
  worker.start();
  q.add("k");
  loop.runFor(minutes(1));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "k"}, {2000, "k"}}));
}

// A long 429 storm does not grow the backoff: each retry comes when the server said, so
// the first pass after the storm is a second after its end, not up to a minute.
TEST_F(InlineWorkerTest, A429StormIsRetriedAtTheServersPaceWithoutBackoff) {
  behaviour = refusedFirst(40, 1);
  worker.start();
  q.add("k");
  loop.runFor(minutes(2));
  ASSERT_EQ(calls.size(), 41u);
  for (std::size_t i = 0; i < calls.size(); ++i) EXPECT_EQ(calls[i], (Call{static_cast<std::int64_t>(i) * 1000, "k"})) << i;
  EXPECT_EQ(q.numRequeues("k"), 0u);
}

TEST_F(InlineWorkerTest, AThrowingReconcileCountsAsAFailureAndTheKeyIsNotStuck) {
  int n = 0;
  behaviour = [&](const std::string&) -> ReconcileResult {
    if (n++ == 0) throw std::runtime_error("bug");
    return ReconcileResult::done();
  };
  worker.start();
  q.add("k");
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "k"}, {5, "k"}}));
  EXPECT_EQ(q.processingCount(), 0u);
}

TEST_F(InlineWorkerTest, KeysAreIndependent) {
  int bad = 0;
  behaviour = [&](const std::string& key) {
    if (key == "bad" && ++bad <= 3) return ReconcileResult::failed(makeError(Reason::Internal, "x"));
    return ReconcileResult::done();
  };
  worker.start();
  q.add("bad");
  q.add("good");
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{0, "bad"}, {0, "good"}, {5, "bad"}, {15, "bad"}, {35, "bad"}}));
}

TEST_F(InlineWorkerTest, StopPausesAndStartResumes) {
  worker.start();
  q.add("a");
  worker.stop();  // its scheduled run is cancelled
  loop.runFor(seconds(1));
  EXPECT_TRUE(calls.empty());
  EXPECT_FALSE(worker.running());
  q.add("b");
  worker.start();
  loop.runFor(seconds(1));
  EXPECT_EQ(calls, (std::vector<Call>{{1000, "a"}, {1000, "b"}}));
}

// The same inputs give the same reconcile sequence: nothing depends on anything but the loop.
std::vector<Call> scriptedRun() {
  SimLoop loop;
  WorkQueue q(loop);
  std::vector<Call> calls;
  int n = 0;
  InlineWorker w(loop, q, [&](const std::string& key) {
    calls.push_back({sinceStartMillis(loop.now()), key});
    switch (n++ % 3) {
      case 0: return ReconcileResult::failed(makeError(Reason::Conflict, "c"));
      case 1: return ReconcileResult::requeueAfter(milliseconds(7));
      default: return ReconcileResult::done();
    }
  });
  w.start();
  for (int i = 0; i < 20; ++i)
    loop.runAt(TimePoint(milliseconds(i * 3)), [&, i] { q.add("ns/c" + std::to_string(i % 4)); });
  loop.runFor(seconds(10));
  return calls;
}

TEST(InlineWorkerDeterminism, SameScheduleSameSequence) {
  const auto a = scriptedRun();
  EXPECT_GT(a.size(), 20u);
  EXPECT_EQ(a, scriptedRun());
}

}  // namespace
}  // namespace kun
