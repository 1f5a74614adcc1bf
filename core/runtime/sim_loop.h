#pragma once
// Virtual time: a priority queue of events ordered by (time, insertion sequence). Time
// jumps to the next event; nothing here reads the wall clock.
#include <cstdint>
#include <functional>
#include <map>
#include <utility>

#include "core/runtime/event_loop.h"

namespace kun {

class SimLoop final : public EventLoop {
 public:
  // 2026-01-01T00:00:00Z: the wall time a simulation starts at.
  static constexpr std::int64_t kDefaultEpochMicros = 1767225600LL * 1000000LL;

  explicit SimLoop(std::int64_t epochMicros = kDefaultEpochMicros) : epoch_(epochMicros) {}

  TimePoint now() const override { return now_; }
  std::int64_t wallMicros() const override { return epoch_ + now_.time_since_epoch().count(); }
  TimerId runAt(TimePoint t, Task task) override;
  bool cancel(TimerId id) override;

  // Runs the next event, advancing time to it. False if there is none.
  bool runOne();
  // Runs every event due at or before t, then sets now to t.
  void runUntil(TimePoint t);
  void runFor(Duration d) { runUntil(now_ + d); }
  // Runs events until pred() holds (checked after each event) or deadline; true if pred held.
  bool runUntil(const std::function<bool()>& pred, TimePoint deadline);
  // Events run so far, and events waiting.
  std::uint64_t eventsRun() const { return eventsRun_; }
  std::size_t pending() const { return queue_.size(); }
  bool idle() const { return queue_.empty(); }
  // Time of the next event, or TimePoint::max() when idle.
  TimePoint nextEventTime() const;

 private:
  using Key = std::pair<TimePoint, std::uint64_t>;  // (time, sequence = TimerId)
  std::map<Key, Task> queue_;
  std::map<TimerId, TimePoint> byId_;
  TimePoint now_{};
  std::int64_t epoch_;
  std::uint64_t nextSeq_ = 1;
  std::uint64_t eventsRun_ = 0;
};

}  // namespace kun
