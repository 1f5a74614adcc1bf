#include "core/runtime/sim_loop.h"

#include <algorithm>
#include <cstdlib>
#include <memory>

#include <fmt/format.h>

namespace kun {

SimStalled::SimStalled(std::int64_t atMicros, std::uint64_t events)
    : std::runtime_error(fmt::format("virtual time stopped at {:.3f} s: {} events ran at that instant without it "
                                     "moving (a livelock: something schedules work at \"now\" without end)",
                                     static_cast<double>(atMicros) / 1e6, events)),
      at_(atMicros) {}

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
  if (freeCount_ != 0) {
    slot = free_[--freeCount_];
  } else {
    // More than 16 M events waiting at once is a runaway simulation, not a workload.
    if (slotCount_ > kSlotMask) std::abort();
    if ((slotCount_ >> kChunkBits) == chunks_.size()) addChunk();
    slot = static_cast<std::uint32_t>(slotCount_++);
  }
  Slot& s = this->slot(slot);
  s.seq = seq;
  // A free slot's task is always empty (reset when it ran or was cancelled), so the task is
  // moved in by construction: no self-check or reset of an empty one for every event.
  std::construct_at(&s.task, std::move(task));
  const std::uint64_t key = (seq << kSlotBits) | slot;
  push(Entry{key, static_cast<std::uint64_t>(t.time_since_epoch().count())});
  ++live_;
  return key;
}

void SimLoop::addChunk() {
  chunks_.push_back(std::make_unique<Slot[]>(std::size_t{1} << kChunkBits));
  free_.resize(chunks_.size() << kChunkBits);  // room for every slot there is
}

void SimLoop::push(Entry e) {
  const auto o = e.order();
  if (!far_.empty() && o > near_[0].order()) {
    pushFar(e);
    return;
  }
  Entry* h = near_.data();
  std::size_t i = nearCount_++;
  while (i > 0 && h[i - 1].order() < o) {
    h[i] = h[i - 1];
    --i;
  }
  h[i] = e;
  if (nearCount_ > kNear) spill();
}

void SimLoop::popFront() {
  if (--nearCount_ == 0 && !far_.empty()) refill();
}

void SimLoop::spill() {
  // near_[0, half) are the latest of near_, so still ordered after the rest of it.
  const std::size_t half = nearCount_ / 2;
  for (std::size_t i = 0; i < half; ++i) pushFar(near_[i]);
  std::copy(near_.begin() + half, near_.begin() + nearCount_, near_.begin());
  nearCount_ -= half;
}

void SimLoop::refill() {
  // Taken soonest first, so filled from the back of the part refilled.
  std::array<Entry, kNear / 2> taken;
  std::size_t n = 0;
  while (!far_.empty() && n < taken.size()) {
    const Entry e = far_.front();
    popFar();
    if (liveEntry(e)) {
      taken[n++] = e;
    } else {
      --dead_;
    }
  }
  std::reverse_copy(taken.begin(), taken.begin() + n, near_.begin());
  nearCount_ = n;
}

// far_'s sifts are written out rather than std::push_heap and pop_heap over a comparator,
// which cost more when every event went through the heap.
void SimLoop::pushFar(Entry e) {
  far_.push_back(e);
  Entry* h = far_.data();
  std::size_t i = far_.size() - 1;
  const auto o = e.order();
  while (i > 0) {
    const std::size_t parent = (i - 1) / 2;
    if (h[parent].order() <= o) break;
    h[i] = h[parent];
    i = parent;
  }
  h[i] = e;
}

void SimLoop::popFar() {
  const Entry last = far_.back();
  far_.pop_back();
  const std::size_t n = far_.size();
  if (n == 0) return;
  Entry* h = far_.data();
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
  free_[freeCount_++] = static_cast<std::uint32_t>(slot);
  --live_;
  ++dead_;
  popDead();
  const std::size_t queued = nearCount_ + far_.size();
  if (queued > 64 && queued > 4 * live_) compact();
  return true;
}

void SimLoop::popDead() {
  while (nearCount_ != 0 && !liveEntry(next())) {
    --dead_;
    popFront();
  }
}

void SimLoop::compact() {
  const auto dead = [this](const Entry& e) { return !liveEntry(e); };
  const auto nearEnd = std::remove_if(near_.begin(), near_.begin() + nearCount_, dead);  // keeps the order
  nearCount_ = static_cast<std::size_t>(nearEnd - near_.begin());
  std::erase_if(far_, dead);
  std::make_heap(far_.begin(), far_.end(), [](const Entry& a, const Entry& b) { return a.order() > b.order(); });
  dead_ = 0;
  if (nearCount_ == 0) refill();
}

bool SimLoop::runOne() {
  if (nearCount_ == 0) return false;
  const Entry e = next();
  popFront();
  const auto index = static_cast<std::uint32_t>(e.key & kSlotMask);
  Slot& s = slot(index);
  s.seq = 0;  // no longer cancellable; the slot is freed once the task has run and gone
  --live_;
  if (dead_ != 0) popDead();
  now_ = timeOf(e);
  ++eventsRun_;
  s.task();
  s.task = nullptr;
  free_[freeCount_++] = index;
  return true;
}

void SimLoop::runUntil(TimePoint t) {
  while (nearCount_ != 0 && timeOf(next()) <= t) {
    countInstant();
    runOne();
  }
  if (now_ < t) now_ = t;
}

bool SimLoop::runUntil(const std::function<bool()>& pred, TimePoint deadline) {
  if (pred()) return true;
  while (nearCount_ != 0 && timeOf(next()) <= deadline) {
    countInstant();
    runOne();
    if (pred()) return true;
  }
  if (now_ < deadline) now_ = deadline;
  return pred();
}

}  // namespace kun
