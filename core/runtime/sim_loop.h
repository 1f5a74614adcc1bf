#pragma once
// Virtual time: a priority queue of events ordered by (time, insertion sequence). Time
// jumps to the next event; nothing here reads the wall clock.
#include <array>
#include <cstdint>
#include <functional>
#include <memory>
#include <stdexcept>
#include <vector>

#include "core/runtime/event_loop.h"

namespace kun {

// Thrown by SimLoop::runUntil when more events than the stall limit ran at one virtual
// instant: something schedules work at "now" without end (a livelock), so virtual time
// would never move again and the caller would wait for ever.
class SimStalled : public std::runtime_error {
 public:
  SimStalled(std::int64_t atMicros, std::uint64_t events);
  std::int64_t atMicros() const { return at_; }

 private:
  std::int64_t at_;
};

class SimLoop final : public EventLoop {
 public:
  // 2026-01-01T00:00:00Z: the wall time a simulation starts at.
  static constexpr std::int64_t kDefaultEpochMicros = 1767225600LL * 1000000LL;

  explicit SimLoop(std::int64_t epochMicros = kDefaultEpochMicros) : epoch_(epochMicros) {}

  TimePoint now() const override { return now_; }
  std::int64_t wallMicros() const override { return epoch_ + now_.time_since_epoch().count(); }
  TimerId runAt(TimePoint t, Task task) override;
  bool cancel(TimerId id) override;
  std::uint64_t reserveOrder() override { return nextSeq_++; }
  TimerId runAtReserved(TimePoint t, std::uint64_t order, Task task) override;

  // Runs the next event, advancing time to it. False if there is none.
  bool runOne();
  // Runs every event due at or before t, then sets now to t.
  void runUntil(TimePoint t);
  void runFor(Duration d) { runUntil(now_ + d); }
  // Runs events until pred() holds (checked after each event) or deadline; true if pred held.
  bool runUntil(const std::function<bool()>& pred, TimePoint deadline);
  // Both runUntil throw SimStalled before running the event that would be the
  // (events + 1)-th in a row at one virtual instant. Off (no limit) unless set: a
  // benchmark may legitimately run millions of events at time zero.
  void setStallLimit(std::uint64_t events) { stallLimit_ = events; }
  // Events run so far, and events waiting.
  std::uint64_t eventsRun() const { return eventsRun_; }
  std::size_t pending() const { return live_; }
  bool idle() const { return live_ == 0; }
  // Time of the next event, or TimePoint::max() when idle.
  TimePoint nextEventTime() const { return nearCount_ == 0 ? TimePoint::max() : timeOf(next()); }

 private:
  // Events are (time, sequence) entries pointing into a pool of task slots, so an event
  // costs no allocation once the pool and the queue have grown to the run's working size.
  // The queue has two parts:
  //  - near_: the soonest entries, sorted latest first, so the next event is the last.
  //    A new event walks in from the back past the events due before it. In a simulation
  //    most new events are due within a few events of now (a packet in flight, a reply,
  //    a retry) while the rest wait for seconds: over the property runs a new event passes
  //    2.8 entries on average, where a binary heap of the same ~21 entries took ~2 levels
  //    to push and ~5 to pop, with the popping a twentieth of a run.
  //  - far_: a binary min-heap of everything ordered after all of near_. It takes half of
  //    near_ when near_ outgrows kNear and gives the soonest half back when near_ runs dry,
  //    so a crowded queue costs O(kNear + log n) per event, never O(n).
  // far_ is empty whenever near_ is, so near_'s last is always the next entry. near_ never
  // holds more than kNear + 1, so it is an array in the loop: no growth or bounds to check.
  //
  // A cancelled event frees its slot at once and leaves its entry behind, recognised by
  // the slot's sequence no longer matching; such entries are dropped when they reach the
  // front (or on the way from far_ to near_), and the queue is rebuilt when they outnumber
  // the live ones. dead_ counts them, so the common case (none) checks nothing.
  //
  // An entry is 16 bytes, its order one 128-bit comparison: the time (never negative)
  // above the sequence, the slot in the sequence's low bits (sequences are unique, so
  // the slot never decides an order). Any exact priority queue runs events in the same
  // order, so this layout is only about cost.
  struct Entry {
    std::uint64_t key;  // sequence << kSlotBits | slot
    std::uint64_t t;    // microseconds since the loop's start
    unsigned __int128 order() const { return (static_cast<unsigned __int128>(t) << 64) | key; }
  };
  struct Slot {
    std::uint64_t seq = 0;  // 0: free
    Task task;
  };
  static constexpr int kSlotBits = 24;
  static constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
  static constexpr std::size_t kNear = 64;
  static TimePoint timeOf(const Entry& e) { return TimePoint(Duration(static_cast<Duration::rep>(e.t))); }
  // Slots live in fixed chunks, so a slot stays where it is while the pool grows: an event
  // runs in its slot (no move out of the pool first) even when it schedules more.
  static constexpr int kChunkBits = 6;
  Slot& slot(std::uint64_t i) { return chunks_[i >> kChunkBits][i & ((1u << kChunkBits) - 1)]; }
  const Slot& slot(std::uint64_t i) const { return chunks_[i >> kChunkBits][i & ((1u << kChunkBits) - 1)]; }
  bool liveEntry(const Entry& e) const { return slot(e.key & kSlotMask).seq == e.key >> kSlotBits; }
  TimerId insert(TimePoint t, std::uint64_t seq, Task&& task);
  [[gnu::noinline]] void addChunk();  // rare: kept out of insert
  [[gnu::always_inline]] inline void push(Entry e);  // insert's second half: one call less per event
  const Entry& next() const { return near_[nearCount_ - 1]; }
  void popFront();  // removes next()
  [[gnu::noinline]] void spill();  // moves the later half of near_ to far_ (rare: kept out of push)
  void refill();    // near_ is empty: moves the soonest live entries of far_ to it
  void pushFar(Entry e);
  void popFar();  // removes far_[0]
  void popDead();  // drops cancelled entries from the front, so the front is always live
  void compact();
  // Before running next(): counts the events in a row at one instant, throwing past the
  // stall limit.
  void countInstant() {
    if (timeOf(next()) != now_) sameInstant_ = 1;
    else if (++sameInstant_ > stallLimit_) throw SimStalled(now_.time_since_epoch().count(), sameInstant_ - 1);
  }

  std::array<Entry, kNear + 1> near_{};
  std::size_t nearCount_ = 0;
  std::vector<Entry> far_;
  std::size_t dead_ = 0;
  std::vector<std::unique_ptr<Slot[]>> chunks_;
  std::size_t slotCount_ = 0;
  // Free slots, [0, freeCount_) of free_; sized with the pool, so freeing a slot (every
  // event does) never has to grow it.
  std::vector<std::uint32_t> free_;
  std::size_t freeCount_ = 0;
  std::size_t live_ = 0;
  TimePoint now_{};
  std::int64_t epoch_;
  std::uint64_t nextSeq_ = 1;
  std::uint64_t eventsRun_ = 0;
  std::uint64_t stallLimit_ = ~std::uint64_t{0};
  std::uint64_t sameInstant_ = 0;  // events run in a row at now_
};

}  // namespace kun
