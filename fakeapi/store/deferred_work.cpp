#include "fakeapi/store/deferred_work.h"

namespace kun::store {

DeferredWork::~DeferredWork() {
  if (armed_) loop_.cancel(timer_);
}

void DeferredWork::add(std::string key, std::function<void()> task) {
  if (!waiting_.insert(key).second) return;
  queue_.emplace_back(std::move(key), std::move(task));
  if (!armed_) {
    armed_ = true;
    timer_ = loop_.post([this] { drain(); });
  }
}

void DeferredWork::drain() {
  armed_ = false;
  // What was queued before this turn; tasks queued by these run on the next turn, so a
  // cascade (owner -> dependents -> their dependents) advances one level per loop turn.
  std::size_t budget = queue_.size();
  while (budget-- > 0 && !queue_.empty()) {
    auto [key, task] = std::move(queue_.front());
    queue_.pop_front();
    waiting_.erase(key);  // before running: the task may queue itself again
    task();
  }
  if (!queue_.empty() && !armed_) {
    armed_ = true;
    timer_ = loop_.post([this] { drain(); });
  }
}

}  // namespace kun::store
