// PerThreadRedisAdmin: each calling thread gets an inner admin of its own, so an inner one
// that is not thread-safe (HiredisAdmin) is never used by two threads.
#include <gtest/gtest.h>

#include <atomic>
#include <thread>
#include <vector>

#include "core/redis/per_thread_redis_admin.h"

namespace kun {
namespace {

// Remembers the thread that made it and flags any call from another one.
class OwnedByOneThread final : public RedisAdmin {
 public:
  explicit OwnedByOneThread(std::atomic<bool>& shared) : shared_(shared) {}
  Result<RedisReply> command(const RedisEndpoint&, const std::vector<std::string>& argv, std::string_view) override {
    if (std::this_thread::get_id() != owner_) shared_ = true;
    ++calls_;  // unsynchronized on purpose: ThreadSanitizer reports it if two threads share one
    return RedisReply::bulk(argv.front() + " " + std::to_string(calls_));
  }

 private:
  std::atomic<bool>& shared_;
  const std::thread::id owner_ = std::this_thread::get_id();
  int calls_ = 0;
};

TEST(PerThreadRedisAdmin, EachThreadHasItsOwnInstance) {
  std::atomic<bool> shared{false};
  std::atomic<int> made{0};
  PerThreadRedisAdmin admin([&] {
    ++made;
    return std::make_unique<OwnedByOneThread>(shared);
  });
  constexpr int kThreads = 4, kCalls = 200;
  std::vector<std::thread> threads;
  std::atomic<int> lastSeen{0};
  for (int t = 0; t < kThreads; ++t) {
    threads.emplace_back([&] {
      for (int i = 1; i <= kCalls; ++i) {
        auto r = admin.command(RedisEndpoint{"10.0.0.1", 6379}, {"PING"});
        // Each thread's own instance counts its own calls.
        if (r.ok() && r->str == "PING " + std::to_string(kCalls) && i == kCalls) ++lastSeen;
      }
    });
  }
  for (auto& t : threads) t.join();
  EXPECT_FALSE(shared);
  EXPECT_EQ(made.load(), kThreads);
  EXPECT_EQ(admin.instances(), static_cast<std::size_t>(kThreads));
  EXPECT_EQ(lastSeen.load(), kThreads);
}

}  // namespace
}  // namespace kun
