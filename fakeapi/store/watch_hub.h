#pragma once
// The store's change history and its watches. Every committed change is appended to a
// bounded history (one cluster-wide sequence: change n has resourceVersion n) and fanned out
// to the watches of its resource type that match it. Deliveries go through one FIFO and the
// event loop, never inside the write that caused them; a watch started from a retained
// version first replays the later history. A watch whose oldest undelivered change has
// left the history window is closed with Gone (it could not have resumed from there).
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/kube/kube_client.h"
#include "core/kube/selector.h"
#include "core/runtime/event_loop.h"
#include "fakeapi/store/back_patch.h"
#include "fakeapi/store/ring_queue.h"
#include "fakeapi/store/store_types.h"

namespace kun::store {

struct Change {
  std::uint64_t rv = 0;
  TableId table = 0;
  WatchEventType type = WatchEventType::Added;  // Added, Modified or Deleted
  ObjectPtr object;    // the state after the change (Deleted: the last state, at rv)
  ObjectPtr previous;  // Modified: the state before
  // Modified: the patch from object back to previous, when the writer already found it
  // while comparing the two (else the hub computes it).
  std::optional<BackPatch> backPatch;
};

struct WatchFilter {
  std::string ns;  // "": every namespace
  LabelSelector labels;
  FieldSelector fields;
  bool matches(const Object& o) const;
};

struct WatchSpec {
  TableId table = 0;
  std::string apiVersion;  // what delivered objects carry (the version watched)
  std::string kind;
  WatchFilter filter;
  std::uint64_t fromRv = 0;  // replay changes after this; must be in [compactedRv, lastRv]
  bool bookmarks = false;
};

class WatchHub : public std::enable_shared_from_this<WatchHub> {
 public:
  WatchHub(EventLoop& loop, std::size_t window, Duration bookmarkInterval);
  ~WatchHub();
  WatchHub(const WatchHub&) = delete;
  WatchHub& operator=(const WatchHub&) = delete;

  // Records a committed change (rv must be lastRv() + 1) and queues it for matching watches.
  void publish(Change change);
  std::uint64_t lastRv() const { return lastRv_; }
  // Changes at or below this version have left the history.
  std::uint64_t compactedRv() const { return compactedRv_; }
  std::size_t retained() const { return history_.size(); }

  // Starts a watch (the hub must be owned by a shared_ptr).
  std::unique_ptr<Watch> open(WatchSpec spec, WatchHandler onEvent, WatchClosedHandler onClosed);

  void setDelay(Duration d) { delay_ = d; }
  // Ends every watch with onClosed(why), asynchronously; what was still queued for them
  // is lost, as when the connection drops.
  void closeAll(const Error& why);
  // Ends the watches of one table after what is already queued for them (its resource is
  // going away: the deletions are seen, then the end).
  void closeTable(TableId table, const Error& why);
  // Queues a BOOKMARK at the current version for every bookmark watch that is behind it.
  void sendBookmarks();
  std::size_t activeWatches() const;

 private:
  struct Watcher;
  class Handle;
  // A change in the history with its renderings, built on first use and then shared by
  // every watch that receives it. Held weakly: a rendering lives only while deliveries of
  // it are queued, so the history does not keep a second copy of every version.
  //
  // Superseded states are not kept: once a later change of the same object commits, the
  // entry lets go of its state and the later entry keeps a JSON patch back to it
  // (backPatch), so a replay can rebuild it. Otherwise the history would own a full tree
  // per change, and retiring it after `window` more changes — cold in the cache by then —
  // would be the dearest part of a write; this way the superseded tree is freed while it
  // is still warm, by whoever drops it last.
  struct Retained {
    Change change;  // change.object: null once superseded; change.previous: only while published
    std::weak_ptr<const Object> superseded;  // the state, while someone still holds it
    std::uint64_t nextRv = 0;                // the change that superseded it
    std::uint64_t prevRv = 0;                // Modified: the change whose state `previous` was
    BackPatch backPatch;                     // Modified: the patch from this state to previous
    // Modified read as a deletion (the object left a watch's view): the previous state at
    // this change's version, shared by the watches that see it so.
    std::weak_ptr<const Object> asDeleted;
  };
  struct Delivery {
    TimePoint due{};
    std::uint64_t rv = 0;
    std::shared_ptr<Watcher> watcher;
    WatchEvent event{WatchEventType::Added, nullptr};  // object null: the close notice
  };

  void offer(const std::shared_ptr<Watcher>& w, Retained& entry);
  // The state after change rv / before it (Modified), rebuilt from later states and their
  // back patches when no longer held; rebuilt states are kept alive in `keep`.
  ObjectPtr stateAt(std::uint64_t rv, std::vector<ObjectPtr>& keep);
  ObjectPtr previousAt(std::uint64_t rv, std::vector<ObjectPtr>& keep);
  Retained* retainedAt(std::uint64_t rv);
  void supersede(Retained& entry);
  void enqueue(const std::shared_ptr<Watcher>& w, std::uint64_t rv, WatchEvent ev);
  void close(const std::shared_ptr<Watcher>& w, const Error& why, bool dropQueued);
  void detach(Watcher& w);
  void arm(TimePoint due);
  void dispatch();
  void armBookmarks();
  WatchEvent render(Retained& entry, WatchEventType type, const Watcher& w);

  EventLoop& loop_;
  std::size_t window_;
  Duration bookmarkInterval_;
  Duration delay_{0};

  RingQueue<Retained> history_;  // history_[i] has rv compactedRv_ + 1 + i
  std::uint64_t lastRv_ = 0;
  std::uint64_t compactedRv_ = 0;

  std::uint64_t nextWatcherId_ = 1;
  std::vector<std::map<std::uint64_t, std::shared_ptr<Watcher>>> byTable_;

  RingQueue<Delivery> pending_;
  TimePoint lastDue_{};
  bool armed_ = false;
  TimePoint armedAt_{};
  TimerId timer_ = 0;
  bool bookmarkArmed_ = false;
  TimerId bookmarkTimer_ = 0;
};

}  // namespace kun::store
