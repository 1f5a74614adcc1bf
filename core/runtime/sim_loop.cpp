#include "core/runtime/sim_loop.h"

#include <algorithm>
#include <cstdlib>

namespace kun {

// A TimerId is the event's heap key: the sequence number above the index of its slot, so
// cancel finds the slot without a lookup table, and the sequence tells a reused slot from
// the one named.

TimerId SimLoop::runAt(TimePoint t, Task task) { return insert(t, nextSeq_++, std::move(task)); }

TimerId SimLoop::runAtReserved(TimePoint t, std::uint64_t order, Task task) {
  // 0 (or one not handed out) would break the order's uniqueness: a caller's bug.
  if (order == 0 || order >= nextSeq_) std::abort();
  return insert(t, order, std::move(task));
}

TimerId SimLoop::insert(TimePoint t, std::uint64_t seq, Task&& task) {
  if (t < now_) t = now_;
  std::uint32_t slot;
  if (!free_.empty()) {
    slot = free_.back();
    free_.pop_back();
  } else {
    // More than 16 M events waiting at once is a runaway simulation, not a workload.
    if (slotCount_ > kSlotMask) std::abort();
    if ((slotCount_ >> kChunkBits) == chunks_.size()) chunks_.push_back(std::make_unique<Slot[]>(std::size_t{1} << kChunkBits));
    slot = static_cast<std::uint32_t>(slotCount_++);
  }
  Slot& s = this->slot(slot);
  s.seq = seq;
  s.task = std::move(task);
  const std::uint64_t key = (seq << kSlotBits) | slot;
  push(Entry{key, static_cast<std::uint64_t>(t.time_since_epoch().count())});
  ++live_;
  return key;
}

void SimLoop::push(Entry e) {
  heap_.push_back(e);
  Entry* h = heap_.data();
  std::size_t i = heap_.size() - 1;
  const auto o = e.order();
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (h[parent].order() <= o) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

void SimLoop::popTop() {
  const Entry last = heap_.back();
  heap_.pop_back();
  const std::size_t n = heap_.size();
  if (n == 0) return;
  Entry* h = heap_.data();
  const auto o = last.order();
  std::size_t i = 0;
  for (;;) {
    std::size_t c = 2 * i + 1;
    if (c >= n) break;
    if (c + 1 < n && h[c + 1].order() < h[c].order()) ++c;
    if (o <= h[c].order()) break;
    h[i] = h[c];
    i = c;
  }
  h[i] = last;
}

bool SimLoop::cancel(TimerId id) {
  const std::uint64_t slot = id & kSlotMask, seq = id >> kSlotBits;
  if (seq == 0 || slot >= slotCount_ || this->slot(slot).seq != seq) return false;
  Slot& s = this->slot(slot);
  s.seq = 0;
  s.task = nullptr;  // what the task holds is released now, as when it is erased
  free_.push_back(static_cast<std::uint32_t>(slot));
  --live_;
  popDead();
  if (heap_.size() > 64 && heap_.size() > 4 * live_) compact();
  return true;
}

void SimLoop::popDead() {
  while (!heap_.empty() && !liveEntry(heap_.front())) popTop();
}

void SimLoop::compact() {
  std::erase_if(heap_, [this](const Entry& e) { return !liveEntry(e); });
  std::make_heap(heap_.begin(), heap_.end(), [](const Entry& a, const Entry& b) { return a.order() > b.order(); });
}

bool SimLoop::runOne() {
  if (heap_.empty()) return false;
  const Entry e = heap_.front();
  popTop();
  const auto index = static_cast<std::uint32_t>(e.key & kSlotMask);
  Slot& s = slot(index);
  s.seq = 0;  // no longer cancellable; the slot is freed once the task has run and gone
  --live_;
  popDead();
  now_ = timeOf(e);
  ++eventsRun_;
  s.task();
  s.task = nullptr;
  free_.push_back(index);
  return true;
}

void SimLoop::runUntil(TimePoint t) {
  while (!heap_.empty() && timeOf(heap_.front()) <= t) runOne();
  if (now_ < t) now_ = t;
}

bool SimLoop::runUntil(const std::function<bool()>& pred, TimePoint deadline) {
  if (pred()) return true;
  while (!heap_.empty() && timeOf(heap_.front()) <= deadline) {
    runOne();
    if (pred()) return true;
  }
  if (now_ < deadline) now_ = deadline;
  return pred();
}

}  // namespace kun
