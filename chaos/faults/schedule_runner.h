#pragma once
// Plays a FaultSchedule on an event loop: each fault begins at origin + at and, when it
// lasts, ends at origin + at + duration. What happened to each fault is recorded (for
// reports and the timeline); a fault whose target is not there (no master during a
// failover) is recorded as skipped, not an error of the run.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chaos/faults/fault_injector.h"
#include "chaos/faults/fault_schedule.h"

namespace kun::chaos {

struct FaultRecord {
  Fault fault;
  TimePoint began{};
  std::optional<TimePoint> ended;  // lasting faults, once ended
  std::string detail;              // what it hit, or why it was skipped
  bool applied = false;
};

class ScheduleRunner {
 public:
  // Called after each begin (applied or skipped) and each end.
  using Listener = std::function<void(const FaultRecord&)>;

  ScheduleRunner(EventLoop& loop, FaultInjector& injector, FaultSchedule schedule);
  ~ScheduleRunner();
  ScheduleRunner(const ScheduleRunner&) = delete;
  ScheduleRunner& operator=(const ScheduleRunner&) = delete;

  // Arms every fault relative to origin (default: now).
  void start(std::optional<TimePoint> origin = std::nullopt);
  // Cancels what has not begun and ends what is active.
  void stop();
  void setListener(Listener l) { listener_ = std::move(l); }
  // Called just before each fault is applied, for what must be seen of the world as the
  // fault found it (which writes every node still held).
  void setBeforeBegin(std::function<void(const Fault&)> f) { beforeBegin_ = std::move(f); }

  const std::vector<FaultRecord>& records() const { return records_; }
  // Every fault has begun and every lasting one has ended.
  bool finished() const;
  // origin + the schedule's last end.
  TimePoint lastEnd() const { return origin_ + schedule_.lastEnd(); }

 private:
  void fire(std::size_t index);

  EventLoop& loop_;
  FaultInjector& injector_;
  FaultSchedule schedule_;
  TimePoint origin_{};
  std::vector<FaultRecord> records_;
  std::vector<TimerId> timers_;
  std::size_t begun_ = 0, pendingEnds_ = 0;
  Listener listener_;
  std::function<void(const Fault&)> beforeBegin_;
};

}  // namespace kun::chaos
