#pragma once
// The simulator's worker: processes the queue's keys one per loop event, on the loop, so
// reconciles interleave deterministically with everything else the simulation runs. It
// schedules itself whenever the queue has a ready key; nothing polls.
#include <cstdint>

#include "core/controller/reconcile_result.h"
#include "core/controller/work_queue.h"
#include "core/runtime/event_loop.h"

namespace kun {

class InlineWorker {
 public:
  InlineWorker(EventLoop& loop, WorkQueue& queue, ReconcileFn fn);
  ~InlineWorker();
  InlineWorker(const InlineWorker&) = delete;
  InlineWorker& operator=(const InlineWorker&) = delete;

  // Becomes the queue's ready callback and schedules itself if keys are already waiting.
  void start();
  // Stops taking keys (a reconcile in progress finishes); the queue is left as it is.
  void stop();
  bool running() const { return running_; }
  std::uint64_t processed() const { return processed_; }

 private:
  void kick();
  void runOne();

  EventLoop& loop_;
  WorkQueue& queue_;
  ReconcileFn fn_;
  bool running_ = false;
  bool scheduled_ = false;
  TimerId timer_ = 0;
  std::uint64_t processed_ = 0;
};

}  // namespace kun
