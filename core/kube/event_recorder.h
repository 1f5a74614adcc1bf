#pragma once
// Records core/v1 Events about objects, as client-go's EventRecorder does: one Event per
// (involved object, type, reason, message, component); a repeat bumps its count and
// lastTimestamp instead of creating another object. Best-effort: a failed write is counted
// and dropped, never an error for the caller (events are a diagnostic, not state).
//
// Thread-safe: the reconciler's worker threads record at once (the client must then be
// thread-safe too). The lock guards the aggregation cache and is never held across the API
// call; two threads recording the same event at the same instant may then both create it
// (or both bump it once), which is harmless for a diagnostic and does not happen when each
// involved object is reconciled by one worker at a time.
#include <atomic>
#include <cstdint>
#include <deque>
#include <map>
#include <mutex>
#include <string>
#include <string_view>
#include <tuple>

#include "core/api/object.h"
#include "core/kube/kube_client.h"
#include "core/kube/time_text.h"
#include "core/runtime/event_loop.h"

namespace kun {

enum class EventType { Normal, Warning };
std::string_view eventTypeName(EventType t);  // "Normal" / "Warning"

class EventRecorder {
 public:
  // component is what Events show as source.component ("statefulset-controller", ...);
  // host, when given, as source.host (the kubelet's node).
  EventRecorder(KubeClient& client, EventLoop& loop, std::string component, std::string host = {});

  void record(const Object& involved, EventType type, std::string_view reason,
              std::string_view message);

  std::uint64_t created() const { return created_.load(std::memory_order_relaxed); }
  std::uint64_t aggregated() const { return aggregated_.load(std::memory_order_relaxed); }
  std::uint64_t dropped() const { return dropped_.load(std::memory_order_relaxed); }

  // How many distinct events are remembered for aggregation (client-go keeps 4096).
  static constexpr std::size_t kCacheSize = 4096;

 private:
  // involved uid (or kind/ns/name when it has none), type, reason, message. Looked up by
  // views (KeyView): a key is built only for an Event seen the first time.
  using Key = std::tuple<std::string, std::string, std::string, std::string>;
  using KeyView = std::tuple<std::string_view, std::string_view, std::string_view, std::string_view>;
  struct Seen {
    std::string ns;
    std::string name;
    std::int64_t count = 0;
    std::uint64_t stamp = 0;  // which order_ entry is this one's
  };

  // Patches the Event seen names; false when it is gone (NotFound). Unlocked.
  bool bump(const KeyView& key, const Seen& seen, const std::string& now);
  bool createNew(const KeyView& key, const Object& involved, EventType type, std::string_view reason,
                 std::string_view message, const std::string& now);
  void remember(const KeyView& key, Seen seen);  // with mu_ held

  KubeClient& client_;
  EventLoop& loop_;
  std::string component_;
  std::string host_;
  std::mutex mu_;  // guards seen_, order_, seq_ and nowText_
  Rfc3339Text nowText_;
  std::map<Key, Seen, std::less<>> seen_;
  std::deque<std::pair<Key, std::uint64_t>> order_;  // insertion order, to forget the oldest
  std::uint64_t seq_ = 0;
  std::atomic<std::uint64_t> created_{0};
  std::atomic<std::uint64_t> aggregated_{0};
  std::atomic<std::uint64_t> dropped_{0};
};

}  // namespace kun
