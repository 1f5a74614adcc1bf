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

  // A place among events due at the same time, taken now for an event scheduled later
  // with runAtReserved: it then runs as if it had been scheduled at the reservation. Lets
  // a FIFO of future events (a network link's packets) keep only its front in the loop.
  // A loop that keeps no such order (real time) gives 0 and runs such events by runAt.
  virtual std::uint64_t reserveOrder() { return 0; }
  virtual TimerId runAtReserved(TimePoint t, std::uint64_t order, Task task) {
    (void)order;
    return runAt(t, std::move(task));
  }

  TimerId post(Task task) { return runAt(now(), std::move(task)); }
  TimerId runAfter(Duration d, Task task) { return runAt(now() + d, std::move(task)); }
};

}  // namespace kun
