// Real mode: N threads share one queue; every key is processed, none by two threads at once.
// No sleeps: the test waits on a condition variable for the work to be done.
#include <gtest/gtest.h>

#include <condition_variable>
#include <map>
#include <mutex>
#include <set>

#include "core/controller/worker_threads_real.h"
#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

// Workers schedule requeues from their own threads; a SimLoop is not thread-safe, so this
// test serialises access to it (the product uses AsioLoop, which is).
class LockedLoop final : public EventLoop {
 public:
  TimePoint now() const override {
    std::lock_guard l(mu_);
    return loop_.now();
  }
  std::int64_t wallMicros() const override {
    std::lock_guard l(mu_);
    return loop_.wallMicros();
  }
  TimerId runAt(TimePoint t, Task task) override {
    std::lock_guard l(mu_);
    ++scheduled_;
    scheduledCv_.notify_all();
    return loop_.runAt(t, std::move(task));
  }
  // Blocks until n timers have been scheduled in total.
  void awaitScheduled(int n) {
    std::unique_lock l(mu_);
    scheduledCv_.wait(l, [&] { return scheduled_ >= n; });
  }
  bool cancel(TimerId id) override {
    std::lock_guard l(mu_);
    return loop_.cancel(id);
  }
  std::size_t pending() const {
    std::lock_guard l(mu_);
    return loop_.pending();
  }

 private:
  mutable std::mutex mu_;
  std::condition_variable scheduledCv_;
  int scheduled_ = 0;
  SimLoop loop_;
};

TEST(WorkerThreads, EveryKeyIsProcessedAndNeverByTwoThreadsAtOnce) {
  LockedLoop loop;
  WorkQueue q(loop);
  std::mutex mu;
  std::condition_variable cv;
  std::set<std::string> active;
  std::map<std::string, int> count;
  int total = 0;
  bool overlap = false;
  constexpr int kKeys = 200;

  WorkerThreads workers(q, [&](const std::string& key) {
    {
      std::lock_guard l(mu);
      if (!active.insert(key).second) overlap = true;
    }
    // The first time, the key is added again while it is being processed: it must be
    // processed once more, after this call, and not concurrently with it.
    bool first;
    {
      std::lock_guard l(mu);
      first = count[key] == 0;
    }
    if (first) q.add(key);
    std::lock_guard l(mu);
    active.erase(key);
    ++count[key];
    ++total;
    cv.notify_all();
    return ReconcileResult::done();
  }, 4);
  workers.start();
  for (int i = 0; i < kKeys; ++i) q.add("ns/k" + std::to_string(i));
  {
    std::unique_lock l(mu);
    cv.wait(l, [&] { return total == 2 * kKeys; });
  }
  workers.stop();
  EXPECT_FALSE(overlap);
  ASSERT_EQ(count.size(), static_cast<std::size_t>(kKeys));
  for (const auto& [key, n] : count) EXPECT_EQ(n, 2) << key;
  EXPECT_EQ(q.len(), 0u);
  EXPECT_EQ(q.processingCount(), 0u);
}

TEST(WorkerThreads, FailuresAreScheduledOnTheLoopAndStopJoins) {
  LockedLoop loop;
  WorkQueue q(loop);
  std::mutex mu;
  int calls = 0;
  WorkerThreads workers(q, [&](const std::string&) {
    std::lock_guard l(mu);
    ++calls;
    return ReconcileResult::failed(makeError(Reason::Unavailable, "down"));
  }, 2);
  workers.start();
  q.add("a");
  q.add("b");
  loop.awaitScheduled(2);  // both retries are on the loop
  workers.stop();  // joins; the retries waiting on the loop are dropped by the shutdown
  EXPECT_EQ(calls, 2);
  EXPECT_EQ(q.numRequeues("a"), 1u);
  EXPECT_EQ(q.numRequeues("b"), 1u);
  EXPECT_EQ(loop.pending(), 0u);
}

}  // namespace
}  // namespace kun
