#include "core/runtime/sim_loop.h"

namespace kun {

TimerId SimLoop::runAt(TimePoint t, Task task) {
  if (t < now_) t = now_;
  const TimerId id = nextSeq_++;
  queue_.emplace(Key{t, id}, std::move(task));
  byId_.emplace(id, t);
  return id;
}

bool SimLoop::cancel(TimerId id) {
  auto it = byId_.find(id);
  if (it == byId_.end()) return false;
  queue_.erase(Key{it->second, id});
  byId_.erase(it);
  return true;
}

TimePoint SimLoop::nextEventTime() const {
  return queue_.empty() ? TimePoint::max() : queue_.begin()->first.first;
}

bool SimLoop::runOne() {
  if (queue_.empty()) return false;
  auto node = queue_.extract(queue_.begin());
  byId_.erase(node.key().second);
  now_ = node.key().first;
  ++eventsRun_;
  node.mapped()();
  return true;
}

void SimLoop::runUntil(TimePoint t) {
  while (!queue_.empty() && queue_.begin()->first.first <= t) runOne();
  if (now_ < t) now_ = t;
}

bool SimLoop::runUntil(const std::function<bool()>& pred, TimePoint deadline) {
  if (pred()) return true;
  while (!queue_.empty() && queue_.begin()->first.first <= deadline) {
    runOne();
    if (pred()) return true;
  }
  if (now_ < deadline) now_ = deadline;
  return pred();
}

}  // namespace kun
