// The real loop, on real time: only ordering and firing are asserted, never durations.
#include <gtest/gtest.h>

#include <thread>
#include <vector>

#include "core/runtime/asio_loop_real.h"

namespace kun {
namespace {

TEST(AsioLoop, RunAfterFiresAndRunReturnsWhenIdle) {
  AsioLoop loop;
  bool fired = false;
  loop.runAfter(milliseconds(1), [&] { fired = true; });
  loop.run(false);
  EXPECT_TRUE(fired);
}

TEST(AsioLoop, CancelPreventsTheTask) {
  AsioLoop loop;
  bool cancelled = false, kept = false;
  const TimerId a = loop.runAfter(milliseconds(1), [&] { cancelled = true; });
  loop.runAfter(milliseconds(2), [&] { kept = true; });
  EXPECT_TRUE(loop.cancel(a));
  EXPECT_FALSE(loop.cancel(a));
  loop.run(false);
  EXPECT_FALSE(cancelled);
  EXPECT_TRUE(kept);
}

TEST(AsioLoop, CancelAfterRunningIsFalse) {
  AsioLoop loop;
  const TimerId id = loop.post([] {});
  loop.run(false);
  EXPECT_FALSE(loop.cancel(id));
  EXPECT_FALSE(loop.cancel(12345));
}

TEST(AsioLoop, LaterTimersRunLater) {
  AsioLoop loop;
  std::vector<int> order;
  loop.runAfter(milliseconds(20), [&] { order.push_back(2); });
  loop.runAfter(milliseconds(1), [&] { order.push_back(1); });
  loop.run(false);
  EXPECT_EQ(order, (std::vector<int>{1, 2}));
}

TEST(AsioLoop, TasksDueAtTheSameTimeRunInSchedulingOrder) {
  AsioLoop loop;
  std::vector<int> order;
  const TimePoint t = loop.now();
  for (int i = 0; i < 50; ++i) loop.runAt(t, [&order, i] { order.push_back(i); });
  loop.run(false);
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[i], i);
}

TEST(AsioLoop, TasksScheduleTasks) {
  AsioLoop loop;
  int depth = 0;
  std::function<void()> step = [&] {
    if (++depth < 5) loop.post(step);
  };
  loop.post(step);
  loop.run(false);
  EXPECT_EQ(depth, 5);
}

TEST(AsioLoop, StopEndsAKeepAliveRun) {
  AsioLoop loop;
  bool ran = false;
  loop.runAfter(milliseconds(1), [&] {
    ran = true;
    loop.stop();
  });
  loop.run(true);  // would run forever without stop()
  EXPECT_TRUE(ran);
}

TEST(AsioLoop, OtherThreadsMaySchedule) {
  AsioLoop loop;
  bool ran = false;
  std::thread worker([&] {
    loop.post([&] {
      ran = true;
      loop.stop();
    });
  });
  loop.run(true);
  worker.join();
  EXPECT_TRUE(ran);
}

TEST(AsioLoop, ClockIsMonotonicAndWallTimeIsPlausible) {
  AsioLoop loop;
  const TimePoint a = loop.now();
  const TimePoint b = loop.now();
  EXPECT_LE(a, b);
  EXPECT_GE(a, TimePoint{});
  EXPECT_GT(loop.wallMicros(), 1'600'000'000LL * 1'000'000);  // after 2020
}

}  // namespace
}  // namespace kun
