#pragma once
// The controller's work queue of object keys ("namespace/name"), with client-go's rules:
// - a key is queued at most once: adding a queued key again does nothing;
// - a key is handed to one worker at a time: adding a key while it is being processed
//   queues it again only once that worker calls done(key);
// - addAfter(key, d) adds the key after d on the EventLoop; when a key is waiting twice, the
//   earlier time wins;
// - addRateLimited(key) adds it after the key's exponential backoff; forget(key) resets it.
//
// Thread-safe (one mutex), so N worker threads can share it in real mode; in the simulator
// one InlineWorker drives it from the loop. Keys are handed out in the order they became
// ready, and nothing here reads the wall clock: time comes from the loop.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>

#include "core/controller/rate_limiter.h"
#include "core/runtime/event_loop.h"

namespace kun {

class WorkQueue {
 public:
  struct Options {
    BackoffRateLimiter::Options backoff;
  };

  explicit WorkQueue(EventLoop& loop) : WorkQueue(loop, Options{}) {}
  WorkQueue(EventLoop& loop, Options opts);
  ~WorkQueue();
  WorkQueue(const WorkQueue&) = delete;
  WorkQueue& operator=(const WorkQueue&) = delete;

  // --- producers ---
  void add(const std::string& key);
  // d <= 0 adds now.
  void addAfter(const std::string& key, Duration d);
  // After the key's next backoff delay, or atLeast if that is longer (a server's Retry-After).
  void addRateLimited(const std::string& key, Duration atLeast = Duration::zero());
  // The key's last processing succeeded: reset its backoff.
  void forget(const std::string& key);
  // Failures counted by addRateLimited since the last forget.
  std::uint32_t numRequeues(const std::string& key) const;

  // --- workers ---
  // The next ready key, now; marks it as processing. nullopt if none is ready.
  std::optional<std::string> tryGet();
  // Blocks until a key is ready (worker threads only); nullopt once shut down and drained.
  std::optional<std::string> get();
  // The worker finished key; if it was added meanwhile it is queued again.
  void done(const std::string& key);

  // Adds are ignored from now on and waiting keys are dropped; keys already queued can still
  // be taken, then get() returns nullopt.
  void shutDown();
  bool shuttingDown() const;

  // Called each time a key becomes ready, outside the queue's lock. An InlineWorker uses it
  // to schedule itself on the loop. One callback; an empty function removes it.
  void setReadyCallback(std::function<void()> cb);

  std::size_t len() const;              // ready keys
  std::size_t waitingCount() const;     // keys scheduled by addAfter / addRateLimited
  std::size_t processingCount() const;  // keys handed out and not done yet
  std::uint64_t addsTotal() const;      // calls that queued a key (deduplicated ones excluded)

 private:
  struct State;
  std::shared_ptr<State> s_;
};

}  // namespace kun
