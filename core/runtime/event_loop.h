#pragma once
// The Clock / event-loop seam. The operator schedules all its work through this interface;
// a SimLoop runs it under virtual time, an AsioLoop under real time.
#include <cstdint>

#include "core/runtime/task.h"
#include "core/runtime/time.h"

namespace kun {

using TimerId = std::uint64_t;

class EventLoop {
 public:
  // Move-only, with room inside for an event's captures (see task.h).
  using Task = kun::Task;
  virtual ~EventLoop() = default;

  virtual TimePoint now() const = 0;
  // Unix wall time in microseconds. In a simulation: a fixed epoch plus virtual time.
  virtual std::int64_t wallMicros() const = 0;

  // Runs task at time t (or as soon as possible if t is past). Tasks due at the same time
  // run in the order they were scheduled.
  virtual TimerId runAt(TimePoint t, Task task) = 0;
  // Returns false if the timer already ran or was cancelled.
  virtual bool cancel(TimerId id) = 0;

  TimerId post(Task task) { return runAt(now(), std::move(task)); }
  TimerId runAfter(Duration d, Task task) { return runAt(now() + d, std::move(task)); }
};

}  // namespace kun
