// The watch hub's FIFO: order across growth and wrap-around, slots released on take.
#include <gtest/gtest.h>

#include <memory>

#include "fakeapi/store/ring_queue.h"

namespace kun::store {
namespace {

TEST(RingQueueTest, KeepsOrderThroughGrowthAndWrapAround) {
  RingQueue<int> q;
  int next = 0, expect = 0;
  for (int round = 0; round < 50; ++round) {
    for (int i = 0; i < 7; ++i) q.push_back(next++);
    for (int i = 0; i < 5; ++i) EXPECT_EQ(q.take_front(), expect++);
  }
  ASSERT_EQ(q.size(), 100u);
  for (std::size_t i = 0; i < q.size(); ++i) EXPECT_EQ(q[i], expect + static_cast<int>(i));
  EXPECT_EQ(q.back(), next - 1);
  while (!q.empty()) EXPECT_EQ(q.take_front(), expect++);
  EXPECT_EQ(expect, next);
}

TEST(RingQueueTest, TakenSlotsReleaseWhatTheyHeld) {
  RingQueue<std::shared_ptr<int>> q;
  auto p = std::make_shared<int>(1);
  q.push_back(p);
  EXPECT_EQ(p.use_count(), 2);
  q.pop_front();
  EXPECT_EQ(p.use_count(), 1);
}

}  // namespace
}  // namespace kun::store
