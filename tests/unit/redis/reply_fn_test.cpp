// ReplyFn: the reply callback a request waits with. Small callables live inside it,
// big ones on the heap; both must run, move and be destroyed exactly once.
#include "fakeapi/redis/reply_fn.h"

#include <gtest/gtest.h>

#include <array>
#include <memory>

namespace kun::redissim {
namespace {

TEST(ReplyFn, EmptyFromNullptrAndEmptyStdFunction) {
  ReplyFn a;
  ReplyFn b = nullptr;
  ReplyFn c = std::function<void(RedisReply)>();
  EXPECT_FALSE(a);
  EXPECT_FALSE(b);
  EXPECT_FALSE(c);
  ReplyFn d = std::function<void(RedisReply)>([](RedisReply) {});
  EXPECT_TRUE(d);
}

TEST(ReplyFn, SmallAndBigCallablesRunAfterMovesAndAreDestroyedOnce) {
  auto owned = std::make_shared<int>(0);
  std::string got;
  {
    ReplyFn small = [owned, &got](RedisReply r) { got += r.str; };
    std::array<char, 200> pad{};
    ReplyFn big = [owned, &got, pad](RedisReply r) { got += r.str + std::to_string(pad.size()); };
    EXPECT_EQ(owned.use_count(), 3);
    ReplyFn moved = std::move(small);
    EXPECT_FALSE(small);  // NOLINT: checking the moved-from state on purpose
    moved(RedisReply::bulk("a"));
    ReplyFn other;
    other = std::move(big);
    other(RedisReply::bulk("b"));
    EXPECT_EQ(owned.use_count(), 3);
    other = nullptr;
    EXPECT_EQ(owned.use_count(), 2);
  }
  EXPECT_EQ(got, "ab200");
  EXPECT_EQ(owned.use_count(), 1);
}

TEST(ReplyFn, MoveOnlyCaptures) {
  auto p = std::make_unique<int>(7);
  int seen = 0;
  ReplyFn f = [p = std::move(p), &seen](RedisReply r) { seen = *p + static_cast<int>(r.integer); };
  ReplyFn g = std::move(f);
  g(RedisReply::integerReply(3));
  EXPECT_EQ(seen, 10);
}

}  // namespace
}  // namespace kun::redissim
