#include "core/runtime/asio_loop_real.h"

#include <chrono>

#include <boost/asio/executor_work_guard.hpp>
#include <boost/asio/io_context.hpp>
#include <boost/asio/steady_timer.hpp>

namespace kun {

struct AsioLoop::Impl {
  boost::asio::io_context io;
  std::chrono::steady_clock::time_point start = std::chrono::steady_clock::now();  // wall-clock ok
  std::mutex mu;
  std::unordered_map<TimerId, std::shared_ptr<boost::asio::steady_timer>> timers;
  std::atomic<TimerId> next{1};
};

AsioLoop::AsioLoop() : impl_(std::make_unique<Impl>()) {}
AsioLoop::~AsioLoop() = default;

TimePoint AsioLoop::now() const {
  auto d = std::chrono::steady_clock::now() - impl_->start;  // wall-clock ok
  return TimePoint(std::chrono::duration_cast<Duration>(d));
}

std::int64_t AsioLoop::wallMicros() const {
  return std::chrono::duration_cast<microseconds>(
             std::chrono::system_clock::now().time_since_epoch())  // wall-clock ok
      .count();
}

TimerId AsioLoop::runAt(TimePoint t, Task task) {
  const TimerId id = impl_->next++;
  auto timer = std::make_shared<boost::asio::steady_timer>(impl_->io);
  timer->expires_at(impl_->start + t.time_since_epoch());
  {
    std::lock_guard lock(impl_->mu);
    impl_->timers.emplace(id, timer);
  }
  timer->async_wait([this, id, task = std::move(task)](const boost::system::error_code& ec) {
    {
      std::lock_guard lock(impl_->mu);
      impl_->timers.erase(id);
    }
    if (!ec) task();
  });
  return id;
}

bool AsioLoop::cancel(TimerId id) {
  std::lock_guard lock(impl_->mu);
  auto it = impl_->timers.find(id);
  if (it == impl_->timers.end()) return false;
  it->second->cancel();
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
