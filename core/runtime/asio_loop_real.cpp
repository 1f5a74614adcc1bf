#include "core/runtime/asio_loop_real.h"

#include <chrono>
#include <map>
#include <utility>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace kun {

// Asio's timer heap does not keep scheduling order among equal expiry times, which the
// EventLoop contract requires. So, as in SimLoop, an ordered queue of (time, id) decides
// what runs; a steady timer per task only wakes the loop, and whichever wakes it first runs
// everything that is due, in order. Timer objects are touched only under `mu`, since worker
// threads may schedule and cancel.
struct AsioLoop::Impl {
  boost::asio::io_context io;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  // wall-clock ok
  std::mutex mu;
  std::map<std::pair<TimePoint, TimerId>, Task> queue;
  std::unordered_map<TimerId, std::pair<TimePoint, std::shared_ptr<boost::asio::steady_timer>>> timers;
  std::atomic<TimerId> next{1};

  TimePoint now() const {
    auto d = std::chrono::steady_clock::now() - start;  // wall-clock ok
    return TimePoint(std::chrono::duration_cast<Duration>(d));
  }
  void runDue();  // every task that is due, in (time, scheduling) order
};

AsioLoop::AsioLoop() : impl_(std::make_unique<Impl>()) {}
AsioLoop::~AsioLoop() = default;

TimePoint AsioLoop::now() const { return impl_->now(); }

std::int64_t AsioLoop::wallMicros() const {
  return std::chrono::duration_cast<microseconds>(
             std::chrono::system_clock::now().time_since_epoch())  // wall-clock ok
      .count();
}

TimerId AsioLoop::runAt(TimePoint t, Task task) {
  // A past time queues behind what is already due, as in SimLoop.
  if (const TimePoint n = now(); t < n) t = n;
  const TimerId id = impl_->next++;
  std::lock_guard lock(impl_->mu);
  auto timer = std::make_shared<boost::asio::steady_timer>(impl_->io);
  timer->expires_at(impl_->start + t.time_since_epoch());
  impl_->queue.emplace(std::make_pair(t, id), std::move(task));
  impl_->timers.emplace(id, std::make_pair(t, timer));
  timer->async_wait([impl = impl_.get()](const boost::system::error_code& ec) {
    if (!ec) impl->runDue();
  });
  return id;
}

void AsioLoop::Impl::runDue() {
  // After stop(), what is left keeps its own timer and runs on the next run().
  while (!io.stopped()) {
    Task task;
    {
      std::lock_guard lock(mu);
      if (queue.empty()) return;
      auto it = queue.begin();
      if (it->first.first > now()) return;
      task = std::move(it->second);
      if (auto t = timers.find(it->first.second); t != timers.end()) {
        t->second.second->cancel();  // its own wake-up is no longer needed
        timers.erase(t);
      }
      queue.erase(it);
    }
    task();  // outside the lock: tasks schedule and cancel
  }
}

bool AsioLoop::cancel(TimerId id) {
  std::lock_guard lock(impl_->mu);
  auto it = impl_->timers.find(id);
  if (it == impl_->timers.end()) return false;
  it->second.second->cancel();
  impl_->queue.erase(std::make_pair(it->second.first, id));
  impl_->timers.erase(it);
  return true;
}

void AsioLoop::run(bool keepAlive) {
  if (keepAlive) {
    auto guard = boost::asio::make_work_guard(impl_->io);
    impl_->io.run();
  } else {
    impl_->io.run();
  }
  impl_->io.restart();
}

void AsioLoop::stop() { impl_->io.stop(); }

boost::asio::io_context& AsioLoop::context() { return impl_->io; }

}  // namespace kun
