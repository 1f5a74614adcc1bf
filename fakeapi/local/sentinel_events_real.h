#pragma once
// Sentinel's event stream, as a client sees it: one `PSUBSCRIBE *` connection and thread
// per sentinel, every message (+sdown, +odown, +switch-master, ...) stamped on arrival with
// the steady clock. Thread-safe to read while it records.
#include <atomic>
#include <chrono>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <string_view>
#include <thread>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"

namespace kun::local {

struct SentinelEvent {
  std::chrono::steady_clock::time_point at;  // when the message arrived here
  int sentinel = 0;                          // index in the list given to start()
  std::string type;                          // the channel: "+switch-master", "+odown", ...
  std::string payload;                       // "mymaster 127.77.1.1 6379 127.77.1.2 6379"
};

// "+switch-master" payload "<name> <old-ip> <old-port> <new-ip> <new-port>" -> new master.
std::optional<RedisEndpoint> switchMasterTarget(std::string_view payload);

class SentinelEventLog {
 public:
  // Returns once every subscription is confirmed, so no later event is missed.
  static Result<std::unique_ptr<SentinelEventLog>> start(const std::vector<RedisEndpoint>& sentinels);
  ~SentinelEventLog();  // stops and joins the threads
  SentinelEventLog(const SentinelEventLog&) = delete;
  SentinelEventLog& operator=(const SentinelEventLog&) = delete;

  std::vector<SentinelEvent> events() const;
  // Events of `type` that arrived at or after `after`, in arrival order.
  std::vector<SentinelEvent> eventsOf(std::string_view type,
                                      std::chrono::steady_clock::time_point after) const;

 private:
  struct Subscription;
  SentinelEventLog() = default;
  void record(SentinelEvent e);

  mutable std::mutex mu_;
  std::vector<SentinelEvent> events_;
  std::atomic<bool> stop_{false};
  std::vector<std::unique_ptr<Subscription>> subs_;
};

}  // namespace kun::local
