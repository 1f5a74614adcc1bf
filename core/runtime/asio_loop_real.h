#pragma once
// The real event loop: a Boost.Asio io_context with steady timers. Thread-safe: worker
// threads may schedule onto it. Only used against real clusters and real processes.
#include <atomic>
#include <memory>
#include <mutex>
#include <unordered_map>

#include "core/runtime/event_loop.h"

namespace boost::asio { class io_context; }

namespace kun {

class AsioLoop final : public EventLoop {
 public:
  AsioLoop();
  ~AsioLoop() override;

  TimePoint now() const override;
  std::int64_t wallMicros() const override;
  TimerId runAt(TimePoint t, Task task) override;
  bool cancel(TimerId id) override;

  // Runs until stop() is called (or nothing is left to do when keepAlive is false).
  void run(bool keepAlive = true);
  void stop();
  boost::asio::io_context& context();

 private:
  struct Impl;
  std::unique_ptr<Impl> impl_;
};

}  // namespace kun
