#include "core/runtime/sim_loop.h"

#include <algorithm>
#include <cstdlib>

namespace kun {

namespace {
// A TimerId is the event's sequence number above the index of its slot: cancel finds the
// slot without a lookup table, and the sequence tells a reused slot from the one named.
constexpr int kSlotBits = 24;
constexpr std::uint64_t kSlotMask = (std::uint64_t{1} << kSlotBits) - 1;
}  // namespace

TimerId SimLoop::runAt(TimePoint t, Task task) {
  if (t < now_) t = now_;
  const std::uint64_t seq = nextSeq_++;
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    // More than 16 M events waiting at once is a runaway simulation, not a workload.
    if (slots_.size() > kSlotMask) std::abort();
    slot = static_cast<std::uint32_t>(slots_.size());
    slots_.emplace_back();
  }
  slots_[slot].seq = seq;
  slots_[slot].task = std::move(task);
  heap_.push_back(Entry{t, seq, slot});
  std::push_heap(heap_.begin(), heap_.end(), later);
  ++live_;
  return (seq << kSlotBits) | slot;
}

bool SimLoop::cancel(TimerId id) {
  const std::uint64_t slot = id & kSlotMask, seq = id >> kSlotBits;
  if (seq == 0 || slot >= slots_.size() || slots_[slot].seq != seq) return false;
  Slot& s = slots_[slot];
  s.seq = 0;
  s.task = nullptr;  // what the task holds is released now, as when it is erased
  free_.push_back(static_cast<std::uint32_t>(slot));
  --live_;
  popDead();
  if (heap_.size() > 64 && heap_.size() > 4 * live_) compact();
  return true;
}

void SimLoop::popDead() {
  while (!heap_.empty() && !liveEntry(heap_.front())) {
    std::pop_heap(heap_.begin(), heap_.end(), later);
    heap_.pop_back();
  }
}

void SimLoop::compact() {
  std::erase_if(heap_, [this](const Entry& e) { return !liveEntry(e); });
  std::make_heap(heap_.begin(), heap_.end(), later);
}

bool SimLoop::runOne() {
  if (heap_.empty()) return false;
  std::pop_heap(heap_.begin(), heap_.end(), later);
  const Entry e = heap_.back();
  heap_.pop_back();
  Slot& s = slots_[e.slot];
  Task task = std::move(s.task);
  s.seq = 0;
  free_.push_back(e.slot);
  --live_;
  popDead();
  now_ = e.t;
  ++eventsRun_;
  task();
  return true;
}

void SimLoop::runUntil(TimePoint t) {
  while (!heap_.empty() && heap_.front().t <= t) runOne();
  if (now_ < t) now_ = t;
}

bool SimLoop::runUntil(const std::function<bool()>& pred, TimePoint deadline) {
  if (pred()) return true;
  while (!heap_.empty() && heap_.front().t <= deadline) {
    runOne();
    if (pred()) return true;
  }
  if (now_ < deadline) now_ = deadline;
  return pred();
}

}  // namespace kun
