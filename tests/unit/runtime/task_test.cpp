#include <gtest/gtest.h>

#include <array>
#include <functional>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/task.h"

namespace kun {
namespace {

TEST(Task, EmptyByDefaultAndFromNull) {
  Task a;
  EXPECT_FALSE(a);
  Task b = nullptr;
  EXPECT_FALSE(b);
  Task c = std::function<void()>();  // an empty std::function stays empty
  EXPECT_FALSE(c);
}

TEST(Task, RunsASmallLambdaAndKeepsItsState) {
  int n = 0;
  Task t = [&n, k = 2]() mutable { n += k++; };
  ASSERT_TRUE(t);
  t();
  t();
  EXPECT_EQ(n, 2 + 3);
}

TEST(Task, RunsALambdaTooBigToKeepInside) {
  std::array<std::int64_t, 40> big{};  // 320 bytes: goes to the heap
  big[39] = 7;
  std::int64_t seen = 0;
  Task t = [big, &seen] { seen = big[39]; };
  Task moved = std::move(t);
  EXPECT_FALSE(t);  // NOLINT: a moved-from Task is empty
  moved();
  EXPECT_EQ(seen, 7);
}

TEST(Task, TakesMoveOnlyCaptures) {
  auto p = std::make_unique<std::string>("moved in");
  std::string seen;
  Task t = [p = std::move(p), &seen] { seen = *p; };
  Task u;
  u = std::move(t);
  u();
  EXPECT_EQ(seen, "moved in");
}

TEST(Task, ReleasesItsCapturesOnceWhetherInsideOrOnTheHeap) {
  auto token = std::make_shared<int>(0);
  {
    Task small = [token] {};
    std::array<char, 200> pad{};
    Task large = [token, pad] { (void)pad; };
    EXPECT_EQ(token.use_count(), 3);
    Task a = std::move(small), b = std::move(large);
    EXPECT_EQ(token.use_count(), 3);  // moving does not copy
    a = nullptr;
    EXPECT_EQ(token.use_count(), 2);
    b = Task([] {});  // assigning over a Task releases what it held
    EXPECT_EQ(token.use_count(), 1);
  }
  EXPECT_EQ(token.use_count(), 1);
}

TEST(Task, WrapsAStdFunctionByCopy) {
  int n = 0;
  std::function<void()> f = [&n] { ++n; };
  Task t = f;
  t();
  f();
  EXPECT_EQ(n, 2);
}

TEST(Task, MovesKeepWorkingThroughAVector) {
  std::vector<Task> tasks;
  std::vector<int> order;
  // The vector reallocates as it grows: every capture (here a string whose length is the
  // index) must survive the moves intact.
  for (int i = 0; i < 50; ++i)
    tasks.emplace_back([&order, s = std::string(static_cast<std::size_t>(i) * 3, 'x')] {
      order.push_back(static_cast<int>(s.size()) / 3);
    });
  for (auto& t : tasks) t();
  ASSERT_EQ(order.size(), 50u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(order[static_cast<std::size_t>(i)], i);
}

}  // namespace
}  // namespace kun
