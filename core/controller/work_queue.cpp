#include "core/controller/work_queue.h"

#include <algorithm>
#include <condition_variable>
#include <deque>
#include <map>
#include <mutex>
#include <set>

namespace kun {

struct WorkQueue::State {
  State(EventLoop& l, Options o) : loop(l), limiter(o.backoff) {}

  struct Waiting {
    TimePoint at;
    TimerId timer = 0;
    std::uint64_t generation = 0;  // tells a superseded timer from the current one
  };

  EventLoop& loop;
  mutable std::mutex mu;
  std::condition_variable cv;
  std::deque<std::string> queue;   // ready, in order
  std::set<std::string> dirty;     // needs processing (queued, or re-added while processing)
  std::set<std::string> processing;
  std::map<std::string, Waiting> waiting;
  BackoffRateLimiter limiter;
  bool shuttingDown = false;
  std::shared_ptr<const std::function<void()>> ready;
  std::uint64_t adds = 0;
  std::uint64_t generations = 0;

  // Each returns true when a key became ready; the caller then calls notify() unlocked.
  bool addLocked(const std::string& key) {
    if (shuttingDown) return false;
    if (!dirty.insert(key).second) return false;
    ++adds;
    if (processing.count(key)) return false;  // queued again by done()
    queue.push_back(key);
    return true;
  }

  bool addAfterLocked(const std::shared_ptr<State>& self, const std::string& key, Duration d) {
    if (shuttingDown) return false;
    if (d <= Duration::zero()) return addLocked(key);
    const TimePoint at = loop.now() + d;
    auto it = waiting.find(key);
    if (it != waiting.end()) {
      if (it->second.at <= at) return false;  // already due sooner
      loop.cancel(it->second.timer);
    }
    const std::uint64_t gen = ++generations;
    // The loop never holds its own lock while running a task, so scheduling under ours
    // cannot deadlock with a timer that is firing.
    std::weak_ptr<State> weak = self;
    const TimerId timer = loop.runAt(at, [weak, key, gen] {
      if (auto s = weak.lock()) s->fire(key, gen);
    });
    waiting[key] = Waiting{at, timer, gen};
    return false;
  }

  void fire(const std::string& key, std::uint64_t gen) {
    bool became;
    std::shared_ptr<const std::function<void()>> cb;
    {
      std::lock_guard lock(mu);
      auto it = waiting.find(key);
      if (it == waiting.end() || it->second.generation != gen) return;
      waiting.erase(it);
      became = addLocked(key);
      cb = ready;
    }
    if (became) notify(cb);
  }

  std::optional<std::string> takeLocked() {
    if (queue.empty()) return std::nullopt;
    std::string key = std::move(queue.front());
    queue.pop_front();
    processing.insert(key);
    dirty.erase(key);
    return key;
  }

  void notify(const std::shared_ptr<const std::function<void()>>& cb) {
    cv.notify_one();
    if (cb && *cb) (*cb)();
  }
};

WorkQueue::WorkQueue(EventLoop& loop, Options opts) : s_(std::make_shared<State>(loop, opts)) {}

WorkQueue::~WorkQueue() {
  shutDown();
  std::lock_guard lock(s_->mu);
  s_->ready.reset();
}

void WorkQueue::add(const std::string& key) {
  bool became;
  std::shared_ptr<const std::function<void()>> cb;
  {
    std::lock_guard lock(s_->mu);
    became = s_->addLocked(key);
    cb = s_->ready;
  }
  if (became) s_->notify(cb);
}

void WorkQueue::addAfter(const std::string& key, Duration d) {
  bool became;
  std::shared_ptr<const std::function<void()>> cb;
  {
    std::lock_guard lock(s_->mu);
    became = s_->addAfterLocked(s_, key, d);
    cb = s_->ready;
  }
  if (became) s_->notify(cb);
}

void WorkQueue::addRateLimited(const std::string& key, Duration atLeast) {
  bool became;
  std::shared_ptr<const std::function<void()>> cb;
  {
    std::lock_guard lock(s_->mu);
    if (s_->shuttingDown) return;
    const Duration d = std::max(s_->limiter.when(key), atLeast);
    became = s_->addAfterLocked(s_, key, d);
    cb = s_->ready;
  }
  if (became) s_->notify(cb);
}

void WorkQueue::forget(const std::string& key) {
  std::lock_guard lock(s_->mu);
  s_->limiter.forget(key);
}

std::uint32_t WorkQueue::numRequeues(const std::string& key) const {
  std::lock_guard lock(s_->mu);
  return s_->limiter.failures(key);
}

std::optional<std::string> WorkQueue::tryGet() {
  std::lock_guard lock(s_->mu);
  return s_->takeLocked();
}

std::optional<std::string> WorkQueue::get() {
  std::unique_lock lock(s_->mu);
  s_->cv.wait(lock, [&] { return !s_->queue.empty() || s_->shuttingDown; });
  return s_->takeLocked();
}

void WorkQueue::done(const std::string& key) {
  bool became = false;
  std::shared_ptr<const std::function<void()>> cb;
  {
    std::lock_guard lock(s_->mu);
    s_->processing.erase(key);
    if (s_->dirty.count(key)) {
      s_->queue.push_back(key);
      became = true;
    }
    cb = s_->ready;
  }
  if (became) s_->notify(cb);
}

void WorkQueue::shutDown() {
  {
    std::lock_guard lock(s_->mu);
    s_->shuttingDown = true;
    for (const auto& [key, w] : s_->waiting) {
      (void)key;
      s_->loop.cancel(w.timer);
    }
    s_->waiting.clear();
  }
  s_->cv.notify_all();
}

bool WorkQueue::shuttingDown() const {
  std::lock_guard lock(s_->mu);
  return s_->shuttingDown;
}

void WorkQueue::setReadyCallback(std::function<void()> cb) {
  std::lock_guard lock(s_->mu);
  if (cb)
    s_->ready = std::make_shared<const std::function<void()>>(std::move(cb));
  else
    s_->ready.reset();
}

std::size_t WorkQueue::len() const {
  std::lock_guard lock(s_->mu);
  return s_->queue.size();
}

std::size_t WorkQueue::waitingCount() const {
  std::lock_guard lock(s_->mu);
  return s_->waiting.size();
}

std::size_t WorkQueue::processingCount() const {
  std::lock_guard lock(s_->mu);
  return s_->processing.size();
}

std::uint64_t WorkQueue::addsTotal() const {
  std::lock_guard lock(s_->mu);
  return s_->adds;
}

}  // namespace kun
