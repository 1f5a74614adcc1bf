#include <gtest/gtest.h>

#include <algorithm>
#include <functional>
#include <map>
#include <memory>
#include <random>
#include <string>
#include <utility>
#include <vector>

#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

TimePoint at(std::int64_t ms) { return TimePoint(milliseconds(ms)); }

TEST(SimLoop, StartsAtZeroAndIdle) {
  SimLoop loop;
  EXPECT_EQ(loop.now(), TimePoint{});
  EXPECT_TRUE(loop.idle());
  EXPECT_EQ(loop.pending(), 0u);
  EXPECT_EQ(loop.nextEventTime(), TimePoint::max());
  EXPECT_FALSE(loop.runOne());
  EXPECT_EQ(loop.eventsRun(), 0u);
}

TEST(SimLoop, RunsByTimeThenInsertionOrder) {
  SimLoop loop;
  std::vector<std::string> order;
  loop.runAt(at(30), [&] { order.push_back("30a"); });
  loop.runAt(at(10), [&] { order.push_back("10a"); });
  loop.runAt(at(20), [&] { order.push_back("20a"); });
  loop.runAt(at(10), [&] { order.push_back("10b"); });
  loop.runAt(at(30), [&] { order.push_back("30b"); });
  loop.runAt(at(10), [&] { order.push_back("10c"); });
  EXPECT_EQ(loop.pending(), 6u);
  EXPECT_EQ(loop.nextEventTime(), at(10));
  loop.runUntil(at(1000));
  EXPECT_EQ(order, (std::vector<std::string>{"10a", "10b", "10c", "20a", "30a", "30b"}));
  EXPECT_EQ(loop.eventsRun(), 6u);
  EXPECT_EQ(loop.now(), at(1000));
}

TEST(SimLoop, TimeJumpsToEachEvent) {
  SimLoop loop;
  std::vector<TimePoint> seen;
  for (int ms : {5, 1, 3}) loop.runAt(at(ms), [&] { seen.push_back(loop.now()); });
  EXPECT_TRUE(loop.runOne());
  EXPECT_EQ(loop.now(), at(1));
  EXPECT_TRUE(loop.runOne());
  EXPECT_TRUE(loop.runOne());
  EXPECT_FALSE(loop.runOne());
  EXPECT_EQ(seen, (std::vector<TimePoint>{at(1), at(3), at(5)}));
  EXPECT_EQ(loop.now(), at(5));  // idle: time stays at the last event
}

TEST(SimLoop, PostAndRunAfterAreRelativeToNow) {
  SimLoop loop;
  loop.runFor(seconds(2));
  std::vector<TimePoint> seen;
  loop.runAfter(milliseconds(500), [&] { seen.push_back(loop.now()); });
  loop.post([&] { seen.push_back(loop.now()); });
  loop.runFor(seconds(1));
  EXPECT_EQ(seen, (std::vector<TimePoint>{at(2000), at(2500)}));
}

TEST(SimLoop, PastTimesAreClampedToNowAndQueueBehindSameTimeTasks) {
  SimLoop loop;
  loop.runFor(seconds(10));
  std::vector<std::string> order;
  TimePoint ranAt{};
  loop.post([&] { order.push_back("posted"); });
  loop.runAt(at(1), [&] {
    order.push_back("past");
    ranAt = loop.now();
  });
  EXPECT_EQ(loop.nextEventTime(), at(10000));
  loop.runFor(milliseconds(1));
  EXPECT_EQ(order, (std::vector<std::string>{"posted", "past"}));
  EXPECT_EQ(ranAt, at(10000));  // time never goes backwards
}

TEST(SimLoop, TasksScheduleTasks) {
  SimLoop loop;
  std::vector<std::string> order;
  loop.runAt(at(10), [&] {
    order.push_back("parent");
    loop.post([&] { order.push_back("child-now"); });
    loop.runAfter(milliseconds(5), [&] {
      order.push_back("child-later");
      loop.post([&] { order.push_back("grandchild"); });
    });
  });
  loop.runAt(at(10), [&] { order.push_back("sibling"); });
  loop.runAt(at(15), [&] { order.push_back("at-15"); });
  loop.runUntil(at(100));
  // A task posted while time is 10 queues behind what was already due at 10; the child due
  // at 15 was scheduled after "at-15", so it runs after it.
  EXPECT_EQ(order, (std::vector<std::string>{"parent", "sibling", "child-now", "at-15", "child-later",
                                             "grandchild"}));
}

TEST(SimLoop, CancelPreventsRunning) {
  SimLoop loop;
  int ran = 0;
  const TimerId a = loop.runAt(at(1), [&] { ran |= 1; });
  const TimerId b = loop.runAt(at(2), [&] { ran |= 2; });
  const TimerId c = loop.runAt(at(2), [&] { ran |= 4; });
  EXPECT_NE(a, b);
  EXPECT_NE(b, c);
  EXPECT_TRUE(loop.cancel(b));
  EXPECT_FALSE(loop.cancel(b));  // already cancelled
  EXPECT_EQ(loop.pending(), 2u);
  loop.runUntil(at(10));
  EXPECT_EQ(ran, 1 | 4);
  EXPECT_FALSE(loop.cancel(a));  // already ran
  EXPECT_FALSE(loop.cancel(9999));  // never existed
}

TEST(SimLoop, TaskCanCancelALaterTaskAtTheSameTime) {
  SimLoop loop;
  std::vector<std::string> order;
  TimerId victim = 0;
  loop.runAt(at(5), [&] {
    order.push_back("first");
    EXPECT_TRUE(loop.cancel(victim));
  });
  victim = loop.runAt(at(5), [&] { order.push_back("victim"); });
  loop.runAt(at(5), [&] { order.push_back("third"); });
  loop.runUntil(at(5));
  EXPECT_EQ(order, (std::vector<std::string>{"first", "third"}));
}

TEST(SimLoop, CancellingTheRunningTaskIsFalse) {
  SimLoop loop;
  TimerId self = 0;
  bool result = true;
  self = loop.post([&] { result = loop.cancel(self); });
  loop.runOne();
  EXPECT_FALSE(result);
}

TEST(SimLoop, RunUntilTimeRunsDueEventsInclusiveAndSetsNow) {
  SimLoop loop;
  std::vector<int> ran;
  for (int ms : {10, 20, 30}) loop.runAt(at(ms), [&, ms] { ran.push_back(ms); });
  loop.runUntil(at(20));
  EXPECT_EQ(ran, (std::vector<int>{10, 20}));
  EXPECT_EQ(loop.now(), at(20));
  EXPECT_EQ(loop.pending(), 1u);
  loop.runUntil(at(5));  // never backwards
  EXPECT_EQ(loop.now(), at(20));
  EXPECT_EQ(ran.size(), 2u);
}

TEST(SimLoop, RunForAdvancesTimeWhenIdle) {
  SimLoop loop;
  loop.runFor(seconds(3));
  EXPECT_EQ(loop.now(), at(3000));
  loop.runFor(microseconds(1));
  EXPECT_EQ(loop.now().time_since_epoch(), microseconds(3000001));
  EXPECT_EQ(loop.eventsRun(), 0u);
}

TEST(SimLoop, RunForRunsWhatFallsInsideTheWindow) {
  SimLoop loop;
  int ran = 0;
  loop.runAfter(seconds(1), [&] { ++ran; });
  loop.runAfter(seconds(3), [&] { ++ran; });
  loop.runFor(seconds(2));
  EXPECT_EQ(ran, 1);
  EXPECT_EQ(loop.now(), at(2000));
  loop.runFor(seconds(1));
  EXPECT_EQ(ran, 2);
}

TEST(SimLoop, RunUntilPredicateStopsRightAfterTheEventThatSatisfiesIt) {
  SimLoop loop;
  int counter = 0;
  for (int i = 1; i <= 10; ++i) loop.runAt(at(i * 100), [&] { ++counter; });
  EXPECT_TRUE(loop.runUntil([&] { return counter == 3; }, at(10000)));
  EXPECT_EQ(counter, 3);
  EXPECT_EQ(loop.now(), at(300));  // not advanced to the deadline
  EXPECT_EQ(loop.pending(), 7u);
}

TEST(SimLoop, RunUntilPredicateAlreadyTrueRunsNothing) {
  SimLoop loop;
  bool ran = false;
  loop.post([&] { ran = true; });
  EXPECT_TRUE(loop.runUntil([] { return true; }, at(1000)));
  EXPECT_FALSE(ran);
  EXPECT_EQ(loop.now(), TimePoint{});
}

TEST(SimLoop, RunUntilPredicateTimesOutAtTheDeadline) {
  SimLoop loop;
  int counter = 0;
  loop.runAt(at(100), [&] { ++counter; });
  loop.runAt(at(500), [&] { ++counter; });  // exactly at the deadline: runs
  loop.runAt(at(501), [&] { ++counter; });  // after it: does not
  EXPECT_FALSE(loop.runUntil([&] { return counter == 3; }, at(500)));
  EXPECT_EQ(counter, 2);
  EXPECT_EQ(loop.now(), at(500));
  EXPECT_EQ(loop.pending(), 1u);
}

TEST(SimLoop, RunUntilPredicateChecksAgainAtTheDeadline) {
  // A predicate on time itself becomes true when the deadline is reached while idle.
  SimLoop loop;
  EXPECT_TRUE(loop.runUntil([&] { return loop.now() >= at(50); }, at(50)));
  EXPECT_EQ(loop.now(), at(50));
}

TEST(SimLoop, WallTimeIsEpochPlusVirtualTime) {
  SimLoop loop;
  EXPECT_EQ(loop.wallMicros(), SimLoop::kDefaultEpochMicros);
  loop.runFor(seconds(90));
  EXPECT_EQ(loop.wallMicros(), SimLoop::kDefaultEpochMicros + 90'000'000);
  SimLoop other(1'000'000);
  EXPECT_EQ(other.wallMicros(), 1'000'000);
}

TEST(SimLoop, UsableThroughTheEventLoopInterface) {
  SimLoop sim;
  EventLoop& loop = sim;
  bool ran = false;
  const TimerId id = loop.runAfter(seconds(1), [&] { ran = true; });
  EXPECT_NE(id, 0u);
  sim.runFor(seconds(1));
  EXPECT_TRUE(ran);
  EXPECT_EQ(loop.now(), at(1000));
}

TEST(SimLoop, CancelReleasesWhatTheTaskHoldsAtOnce) {
  SimLoop loop;
  auto token = std::make_shared<int>(0);
  const TimerId id = loop.runAt(at(100), [token] {});
  EXPECT_EQ(token.use_count(), 2);
  EXPECT_TRUE(loop.cancel(id));
  EXPECT_EQ(token.use_count(), 1);  // not kept until the cancelled time comes
}

TEST(SimLoop, ManyCancellationsKeepOrderAndCounts) {
  // Enough cancelled events that the queue drops and rebuilds around them, mixed with
  // reuse of freed slots by new events.
  SimLoop loop;
  std::vector<int> ran, want;
  std::vector<TimerId> ids;
  for (int i = 0; i < 2000; ++i) ids.push_back(loop.runAt(at(1000 + (i * 7919) % 500), [&ran, i] { ran.push_back(i); }));
  for (int i = 0; i < 2000; ++i)
    if (i % 10 != 3) {
      EXPECT_TRUE(loop.cancel(ids[static_cast<std::size_t>(i)]));
    }
  for (int i = 2000; i < 2100; ++i) loop.runAt(at(1000 + (i * 7919) % 500), [&ran, i] { ran.push_back(i); });
  EXPECT_EQ(loop.pending(), 300u);
  for (int i = 0; i < 2000; ++i)
    if (i % 10 != 3) {
      EXPECT_FALSE(loop.cancel(ids[static_cast<std::size_t>(i)]));
    }
  std::vector<std::pair<int, int>> byTime;  // (time, scheduling order)
  for (int i = 0; i < 2100; ++i)
    if (i >= 2000 || i % 10 == 3) byTime.emplace_back((i * 7919) % 500, i);
  std::sort(byTime.begin(), byTime.end());
  for (const auto& [t, i] : byTime) want.push_back(i);
  loop.runUntil(at(5000));
  EXPECT_EQ(ran, want);
  EXPECT_TRUE(loop.idle());
}

TEST(SimLoop, ReservedEventsRunWhereTheyWereReserved) {
  // A reservation taken before b and c puts a ahead of them at the same time, though a is
  // scheduled last; d, reserved after c, runs after it.
  SimLoop loop;
  std::vector<std::string> order;
  const auto ra = loop.reserveOrder();
  loop.runAt(at(10), [&] { order.push_back("b"); });
  loop.runAt(at(10), [&] { order.push_back("c"); });
  const auto rd = loop.reserveOrder();
  loop.runAt(at(5), [&] { order.push_back("first"); });
  loop.runAtReserved(at(10), rd, [&] { order.push_back("d"); });
  loop.runAtReserved(at(10), ra, [&] { order.push_back("a"); });
  EXPECT_EQ(loop.pending(), 5u);
  loop.runUntil(at(100));
  EXPECT_EQ(order, (std::vector<std::string>{"first", "a", "b", "c", "d"}));
}

TEST(SimLoop, ReservedEventsCanBeCancelled) {
  SimLoop loop;
  bool ran = false;
  const auto id = loop.runAtReserved(at(3), loop.reserveOrder(), [&] { ran = true; });
  EXPECT_TRUE(loop.cancel(id));
  loop.runUntil(at(10));
  EXPECT_FALSE(ran);
  EXPECT_TRUE(loop.idle());
}


TEST(SimLoop, RandomSchedulesAndCancelsRunInReferenceOrder) {
  // The queue's parts (a sorted front, a heap behind it, lazy removal of cancelled
  // entries) against a std::map of (time, scheduling order): bursts grow the queue well
  // past the sorted front's size, events schedule and cancel others while they run, and
  // some take a reserved place.
  for (std::uint32_t seed = 1; seed <= 20; ++seed) {
    SimLoop loop;
    std::mt19937 rng(seed);
    const auto draw = [&rng](std::uint32_t n) { return static_cast<std::int64_t>(rng() % n); };
    std::uint64_t order = 0;  // the reference's own scheduling counter
    std::map<std::pair<std::int64_t, std::uint64_t>, int> want;  // (time us, order) -> event
    std::map<int, std::pair<TimerId, std::pair<std::int64_t, std::uint64_t>>> pendingIds;
    std::vector<std::pair<std::uint64_t, std::uint64_t>> reservations;  // (loop's, reference's)
    std::vector<int> ran, expected;
    int next = 0;
    const std::size_t target = std::size_t{8} << (seed % 7);  // the queue's size hovers about it
    std::function<void()> act;
    const auto schedule = [&](std::uint64_t loopOrder, std::uint64_t refOrder) {
      const int id = next++;
      const std::uint32_t kind = rng() % 4;
      const std::int64_t now = loop.now().time_since_epoch().count();
      std::int64_t dt = kind == 0 ? 0 : kind == 1 ? draw(300) : draw(2'000'000);
      if (rng() % 16 == 0) dt = -draw(1000);  // in the past: clamped to now
      const std::int64_t t = now + std::max<std::int64_t>(dt, 0);
      Task task = [&, id] {
        ran.push_back(id);
        pendingIds.erase(id);
        act();
      };
      const TimePoint when(microseconds(now + dt));
      const TimerId tid = loopOrder == 0 ? loop.runAt(when, std::move(task)) : loop.runAtReserved(when, loopOrder, std::move(task));
      want[{t, refOrder}] = id;
      pendingIds[id] = {tid, {t, refOrder}};
    };
    act = [&] {
      const std::uint32_t r = rng() % 100;
      const bool grow = want.size() < target;
      const auto n = grow && r < 2 ? 60 + draw(100) : grow ? 1 + draw(3) : draw(2);
      for (std::int64_t i = 0; i < n; ++i) schedule(0, ++order);
      if (rng() % 4 == 0) reservations.emplace_back(loop.reserveOrder(), ++order);
      if (!reservations.empty() && rng() % 3 == 0) {
        const auto [l, ref] = reservations.front();
        reservations.erase(reservations.begin());
        schedule(l, ref);
      }
      const auto cancels = rng() % 32 == 0 ? draw(40) : std::int64_t{rng() % 4 == 0};
      for (std::int64_t i = 0; i < cancels && !pendingIds.empty(); ++i) {
        auto it = pendingIds.begin();
        std::advance(it, draw(static_cast<std::uint32_t>(pendingIds.size())));
        EXPECT_TRUE(loop.cancel(it->second.first));
        EXPECT_FALSE(loop.cancel(it->second.first));
        want.erase(it->second.second);
        pendingIds.erase(it);
      }
    };
    for (int i = 0; i < 50; ++i) act();
    while (next < 5000) {
      if (want.empty()) {
        act();  // ran dry (everything ran or was cancelled): start again
        continue;
      }
      ASSERT_EQ(loop.pending(), want.size());
      ASSERT_EQ(loop.nextEventTime().time_since_epoch().count(), want.begin()->first.first);
      expected.push_back(want.begin()->second);
      want.erase(want.begin());
      ASSERT_TRUE(loop.runOne());
      ASSERT_EQ(ran.back(), expected.back()) << "seed " << seed << ", event " << expected.size();
    }
    while (!want.empty()) {
      expected.push_back(want.begin()->second);
      want.erase(want.begin());
    }
    act = [] {};
    loop.runUntil(TimePoint::max() - seconds(1));
    EXPECT_EQ(ran, expected) << "seed " << seed;
    EXPECT_TRUE(loop.idle());
  }
}

// Work that schedules more work at "now" without end would keep virtual time still for
// ever: past the stall limit runUntil throws instead of spinning.
TEST(SimLoop, EndlessWorkAtOneInstantThrowsPastTheStallLimit) {
  SimLoop loop;
  loop.setStallLimit(100);
  std::function<void()> again = [&] { loop.post(again); };
  loop.runAt(at(5), again);
  try {
    loop.runUntil(at(10));
    FAIL() << "no stall reported";
  } catch (const SimStalled& e) {
    EXPECT_EQ(e.atMicros(), 5000);
    EXPECT_NE(std::string(e.what()).find("100 events ran at that instant"), std::string::npos) << e.what();
  }
  EXPECT_EQ(loop.eventsRun(), 100u);
  EXPECT_EQ(loop.now(), at(5));
  // The predicate form stops the same way.
  EXPECT_THROW(loop.runUntil([] { return false; }, at(10)), SimStalled);
}

// Bursts below the limit, at instants apart, are ordinary work: the count starts again
// whenever time moves. Without a limit any burst runs.
TEST(SimLoop, BurstsBelowTheStallLimitRun) {
  SimLoop loop;
  loop.setStallLimit(100);
  int ran = 0;
  for (int t = 1; t <= 3; ++t)
    for (int i = 0; i < 100; ++i) loop.runAt(at(t), [&] { ++ran; });
  loop.runUntil(at(5));
  EXPECT_EQ(ran, 300);
  SimLoop unlimited;
  for (int i = 0; i < 10000; ++i) unlimited.runAt(at(1), [&] { ++ran; });
  unlimited.runUntil(at(2));
  EXPECT_EQ(ran, 10300);
}

}  // namespace
}  // namespace kun
