#include "core/controller/worker_threads_real.h"

#include <algorithm>
#include <utility>

namespace kun {

WorkerThreads::WorkerThreads(WorkQueue& queue, ReconcileFn fn, int workers)
    : queue_(queue), fn_(std::move(fn)), workers_(std::max(1, workers)) {}

WorkerThreads::~WorkerThreads() { stop(); }

void WorkerThreads::start() {
  if (!threads_.empty()) return;
  for (int i = 0; i < workers_; ++i) threads_.emplace_back([this] { work(); });
}

void WorkerThreads::stop() {
  if (threads_.empty()) return;
  queue_.shutDown();
  for (auto& t : threads_) t.join();
  threads_.clear();
}

void WorkerThreads::work() {
  while (auto key = queue_.get()) processKey(queue_, *key, fn_);
}

}  // namespace kun
