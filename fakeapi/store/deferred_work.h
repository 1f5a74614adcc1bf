#pragma once
// Work the store does after a call has returned, as Kubernetes' controllers do it after the
// API server answered: garbage collection, namespace and CRD cleanup. Tasks run through the
// event loop, in the order queued, deduplicated by key while waiting.
#include <deque>
#include <functional>
#include <set>
#include <string>

#include "core/runtime/event_loop.h"

namespace kun::store {

class DeferredWork {
 public:
  explicit DeferredWork(EventLoop& loop) : loop_(loop) {}
  ~DeferredWork();  // the loop must outlive the store
  DeferredWork(const DeferredWork&) = delete;
  DeferredWork& operator=(const DeferredWork&) = delete;

  // Queues task under key unless a task with that key is already waiting.
  void add(std::string key, std::function<void()> task);
  bool idle() const { return queue_.empty(); }

 private:
  void drain();

  EventLoop& loop_;
  std::deque<std::pair<std::string, std::function<void()>>> queue_;
  std::set<std::string> waiting_;
  bool armed_ = false;
  TimerId timer_ = 0;
};

}  // namespace kun::store
