#include "core/controller/inline_worker.h"

#include <utility>

namespace kun {

InlineWorker::InlineWorker(EventLoop& loop, WorkQueue& queue, ReconcileFn fn)
    : loop_(loop), queue_(queue), fn_(std::move(fn)) {}

InlineWorker::~InlineWorker() { stop(); }

void InlineWorker::start() {
  if (running_) return;
  running_ = true;
  queue_.setReadyCallback([this] { kick(); });
  if (queue_.len() > 0) kick();
}

void InlineWorker::stop() {
  if (!running_) return;
  running_ = false;
  queue_.setReadyCallback({});
  if (scheduled_) loop_.cancel(timer_);
  scheduled_ = false;
}

void InlineWorker::kick() {
  if (!running_ || scheduled_) return;
  scheduled_ = true;
  timer_ = loop_.post([this] {
    scheduled_ = false;
    runOne();
  });
}

// One key per loop event: other events due at the same time run in between.
void InlineWorker::runOne() {
  if (!running_) return;
  auto key = queue_.tryGet();
  if (!key) return;
  processKey(queue_, *key, fn_);
  ++processed_;
  if (queue_.len() > 0) kick();
}

}  // namespace kun
