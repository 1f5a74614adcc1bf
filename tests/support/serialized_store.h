#pragma once
// For real-mode tests (worker threads, an AsioLoop): a FakeStore made safe to share between
// threads by one lock. The store itself is single-threaded; with workers > 0 it is reached
// from the worker threads (their API calls) and from the loop's thread (its own deliveries
// and deferred work, the informers' lists and watches). Both ways go through the same
// recursive mutex:
// - SerializedClient: every KubeClient call, and a returned watch's stop();
// - SerializedLoop: the EventLoop given to the store, running each of its tasks under the
//   lock (a delivery calls watch handlers, which may call the client again: recursive).
// The simulator needs none of this: it runs on one thread.
#include <memory>
#include <mutex>

#include "core/kube/forwarding_client.h"
#include "core/runtime/event_loop.h"

namespace kun::test {

class SerializedLoop final : public EventLoop {
 public:
  SerializedLoop(EventLoop& inner, std::recursive_mutex& mu) : inner_(inner), mu_(mu) {}
  TimePoint now() const override { return inner_.now(); }
  std::int64_t wallMicros() const override { return inner_.wallMicros(); }
  TimerId runAt(TimePoint t, Task task) override {
    return inner_.runAt(t, [this, task = std::move(task)]() mutable {
      std::lock_guard lock(mu_);
      task();
    });
  }
  bool cancel(TimerId id) override { return inner_.cancel(id); }

 private:
  EventLoop& inner_;
  std::recursive_mutex& mu_;
};

class SerializedClient : public ForwardingClient {
 public:
  SerializedClient(KubeClient& inner, std::recursive_mutex& mu) : ForwardingClient(inner), mu_(mu) {}

  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override {
    auto w = ForwardingClient::watch(r, ns, opts, std::move(onEvent), std::move(onClosed));
    if (!w) return w.error();
    return std::unique_ptr<Watch>(std::make_unique<LockedWatch>(std::move(*w), mu_));
  }

 protected:
  void enter(std::string_view, const Resource&, bool) override { mu_.lock(); }
  void leave() override { mu_.unlock(); }

 private:
  class LockedWatch final : public Watch {
   public:
    LockedWatch(std::unique_ptr<Watch> inner, std::recursive_mutex& mu) : inner_(std::move(inner)), mu_(mu) {}
    ~LockedWatch() override {
      std::lock_guard lock(mu_);
      inner_.reset();
    }
    void stop() override {
      std::lock_guard lock(mu_);
      inner_->stop();
    }

   private:
    std::unique_ptr<Watch> inner_;
    std::recursive_mutex& mu_;
  };

  std::recursive_mutex& mu_;
};

}  // namespace kun::test
