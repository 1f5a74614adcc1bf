#pragma once
// Real mode: N threads take keys from one WorkQueue and reconcile them; the queue makes sure
// no key is processed by two threads at once. The queue's EventLoop must be thread-safe
// (AsioLoop), since workers schedule requeues on it. Never used in a simulation.
#include <thread>
#include <vector>

#include "core/controller/reconcile_result.h"
#include "core/controller/work_queue.h"

namespace kun {

class WorkerThreads {
 public:
  WorkerThreads(WorkQueue& queue, ReconcileFn fn, int workers);
  ~WorkerThreads();
  WorkerThreads(const WorkerThreads&) = delete;
  WorkerThreads& operator=(const WorkerThreads&) = delete;

  void start();
  // Shuts the queue down, lets the workers drain what is already queued, and joins them.
  void stop();

 private:
  void work();

  WorkQueue& queue_;
  ReconcileFn fn_;
  int workers_;
  std::vector<std::thread> threads_;
};

}  // namespace kun
