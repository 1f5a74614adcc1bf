#include "fakeapi/store/watch_hub.h"
#include "core/api/object_ptr.h"

#include <algorithm>
#include <cassert>
#include <charconv>

namespace kun::store {

bool WatchFilter::matches(const Object& o) const {
  if (!ns.empty()) {
    if (meta::fieldView(o, "namespace") != ns) return false;
  }
  return labels.matches(o) && fields.matches(o);
}

struct WatchHub::Watcher {
  std::uint64_t id = 0;
  WatchSpec spec;
  WatchHandler onEvent;
  WatchClosedHandler onClosed;
  bool stopped = false;   // by the client: nothing more, ever
  bool closing = false;   // by the server: no new events, the close notice is queued
  bool dropQueued = false;  // ...and what was queued before it is lost
  bool finished = false;  // the close notice was delivered
  std::uint64_t lastRv = 0;  // the version of the last thing queued for it
  Error closeError;
};

class WatchHub::Handle final : public Watch {
 public:
  Handle(std::weak_ptr<WatchHub> hub, std::shared_ptr<Watcher> w) : hub_(std::move(hub)), w_(std::move(w)) {}
  ~Handle() override { stop(); }
  void stop() override {
    if (w_->stopped) return;
    w_->stopped = true;
    if (auto hub = hub_.lock()) hub->detach(*w_);
  }

 private:
  std::weak_ptr<WatchHub> hub_;
  std::shared_ptr<Watcher> w_;
};

WatchHub::WatchHub(EventLoop& loop, std::size_t window, Duration bookmarkInterval)
    : loop_(loop), window_(std::max<std::size_t>(window, 1)), bookmarkInterval_(bookmarkInterval) {}

WatchHub::~WatchHub() {
  if (armed_) loop_.cancel(timer_);
  if (bookmarkArmed_) loop_.cancel(bookmarkTimer_);
}

void WatchHub::publish(Change change) {
  lastRv_ = change.rv;
  history_.push_back(Retained{std::move(change), {}, 0, 0, {}, {}});
  if (history_.size() > window_) {
    compactedRv_ = history_.front().change.rv;
    history_.pop_front();
  }
  Retained& entry = history_.back();
  if (entry.change.table < byTable_.size())
    for (const auto& [id, w] : byTable_[entry.change.table]) offer(w, entry);
  if (entry.change.type == WatchEventType::Modified && entry.change.previous) supersede(entry);
}

void WatchHub::supersede(Retained& entry) {
  Change& c = entry.change;
  // Every stored state carries the version that committed it.
  const std::string_view text = meta::fieldView(*c.previous, "resourceVersion");
  if (text.empty()) return;
  if (std::from_chars(text.data(), text.data() + text.size(), entry.prevRv).ec != std::errc()) return;
  entry.backPatch = c.backPatch ? std::move(*c.backPatch) : backPatch(*c.object, *c.previous);
  c.backPatch.reset();
  if (Retained* before = retainedAt(entry.prevRv); before && before->change.object == c.previous) {
    before->superseded = std::move(before->change.object);
    before->change.object = nullptr;
    before->nextRv = c.rv;
  }
  c.previous = nullptr;
}

WatchHub::Retained* WatchHub::retainedAt(std::uint64_t rv) {
  if (rv <= compactedRv_ || rv > lastRv_) return nullptr;
  return &history_[rv - compactedRv_ - 1];
}

ObjectPtr WatchHub::stateAt(std::uint64_t rv, std::vector<ObjectPtr>& keep) {
  // Follow the superseding changes forward to a state that is still held, then apply
  // their back patches in reverse. A superseding change is later, so it is retained.
  std::vector<Retained*> chain;
  ObjectPtr state;
  for (Retained* e = retainedAt(rv); e; e = retainedAt(e->nextRv)) {
    state = e->change.object ? e->change.object : e->superseded.lock();
    if (state) break;
    chain.push_back(e);
  }
  assert(state);
  for (auto it = chain.rbegin(); it != chain.rend(); ++it) {
    const Retained* next = retainedAt((*it)->nextRv);
    auto rebuilt = shareObject(applyPatch(*state, next->backPatch));
    (*it)->superseded = rebuilt;
    keep.push_back(rebuilt);
    state = std::move(rebuilt);
  }
  return state;
}

ObjectPtr WatchHub::previousAt(std::uint64_t rv, std::vector<ObjectPtr>& keep) {
  Retained* e = retainedAt(rv);
  if (e->change.previous) return e->change.previous;
  if (retainedAt(e->prevRv)) return stateAt(e->prevRv, keep);
  auto rebuilt = shareObject(applyPatch(*stateAt(rv, keep), e->backPatch));
  keep.push_back(rebuilt);
  return rebuilt;
}

WatchEvent WatchHub::render(Retained& entry, WatchEventType type, const Watcher& w) {
  const Change& c = entry.change;
  // A Modified change that takes the object out of the watch's view reads as a deletion of
  // the view's last state, at the change's version (as the Kubernetes watch cache does).
  const bool fromPrevious = type == WatchEventType::Deleted && c.type == WatchEventType::Modified;
  const ObjectPtr& content = fromPrevious ? c.previous : c.object;
  // Read in place: every delivery asks.
  const Object* av = memberOf(*content, "apiVersion");
  const bool sameVersion = av && av->is_string() ? av->get_ref<const std::string&>() == w.spec.apiVersion
                                                 : w.spec.apiVersion.empty();
  // The stored version itself when the watch sees it as stored: every watch shares it.
  if (sameVersion && !fromPrevious) return WatchEvent{type, content};
  auto build = [&] {
    Object o = *content;
    if (fromPrevious) o["metadata"]["resourceVersion"] = std::to_string(c.rv);
    if (!sameVersion) o["apiVersion"] = w.spec.apiVersion;
    return shareObject(std::move(o));
  };
  if (!sameVersion) return WatchEvent{type, build()};
  if (auto shared = entry.asDeleted.lock()) return WatchEvent{type, std::move(shared)};
  auto built = build();
  entry.asDeleted = built;
  return WatchEvent{type, std::move(built)};
}

void WatchHub::offer(const std::shared_ptr<Watcher>& w, Retained& entry) {
  if (w->stopped || w->closing) return;
  const Change& c = entry.change;
  std::optional<WatchEventType> type;
  const bool now = w->spec.filter.matches(*c.object);
  if (c.type == WatchEventType::Modified) {
    const bool before = w->spec.filter.matches(*c.previous);
    if (now && before) type = WatchEventType::Modified;
    else if (now) type = WatchEventType::Added;
    else if (before) type = WatchEventType::Deleted;
  } else if (now) {
    type = c.type;
  }
  if (!type) {
    // The watch is now behind the store: owe it a bookmark (sent within the interval, so an
    // idle store lets the loop go idle too).
    if (w->spec.bookmarks) armBookmarks();
    return;
  }
  enqueue(w, c.rv, render(entry, *type, *w));
}

void WatchHub::enqueue(const std::shared_ptr<Watcher>& w, std::uint64_t rv, WatchEvent ev) {
  // Later events never overtake earlier ones, even when the delay shrinks.
  const TimePoint due = std::max(loop_.now() + delay_, lastDue_);
  lastDue_ = due;
  if (ev.object) w->lastRv = std::max(w->lastRv, rv);
  pending_.push_back(Delivery{due, rv, w, std::move(ev)});
  arm(due);
}

void WatchHub::arm(TimePoint due) {
  if (armed_ && armedAt_ <= due) return;
  if (armed_) loop_.cancel(timer_);
  armed_ = true;
  armedAt_ = due;
  std::weak_ptr<WatchHub> self = weak_from_this();
  timer_ = loop_.runAt(due, [self] {
    if (auto hub = self.lock()) hub->dispatch();
  });
}

void WatchHub::dispatch() {
  auto keepAlive = shared_from_this();  // a callback may destroy the store
  armed_ = false;
  // Only what was queued before this turn: a write made by a callback is delivered on a
  // later turn, so a callback never runs inside another callback's write.
  std::size_t budget = pending_.size();
  while (budget-- > 0 && !pending_.empty() && pending_.front().due <= loop_.now()) {
    Delivery d = pending_.take_front();
    Watcher& w = *d.watcher;
    if (w.stopped || w.finished) continue;
    if (!d.event.object) {
      w.finished = true;
      if (w.onClosed) w.onClosed(w.closeError);
      continue;
    }
    if (w.closing && w.dropQueued) continue;
    if (d.rv <= compactedRv_) {
      close(d.watcher, makeError(Reason::Gone, "watch fell behind the store's history window: too old resource version"),
            true);
      continue;
    }
    if (w.onEvent) w.onEvent(d.event);
  }
  if (!pending_.empty()) arm(std::max(pending_.front().due, loop_.now()));
}

std::unique_ptr<Watch> WatchHub::open(WatchSpec spec, WatchHandler onEvent, WatchClosedHandler onClosed) {
  auto w = std::make_shared<Watcher>();
  w->id = nextWatcherId_++;
  w->spec = std::move(spec);
  w->onEvent = std::move(onEvent);
  w->onClosed = std::move(onClosed);
  w->lastRv = w->spec.fromRv;
  if (w->spec.table >= byTable_.size()) byTable_.resize(w->spec.table + 1);
  // Replay: the retained changes after fromRv (the caller checked it is retained), with
  // superseded states rebuilt for the duration of the replay.
  std::vector<ObjectPtr> keep;
  for (std::size_t i = w->spec.fromRv > compactedRv_ ? w->spec.fromRv - compactedRv_ : 0; i < history_.size(); ++i) {
    Retained& e = history_[i];
    if (e.change.table != w->spec.table) continue;
    const bool rebuild = !e.change.object;
    const bool withPrevious = e.change.type == WatchEventType::Modified && !e.change.previous;
    if (rebuild) e.change.object = stateAt(e.change.rv, keep);
    if (withPrevious) e.change.previous = previousAt(e.change.rv, keep);
    offer(w, e);
    if (rebuild) e.change.object = nullptr;
    if (withPrevious) e.change.previous = nullptr;
  }
  byTable_[w->spec.table].emplace(w->id, w);
  return std::make_unique<Handle>(weak_from_this(), w);
}

void WatchHub::detach(Watcher& w) {
  if (w.spec.table < byTable_.size()) byTable_[w.spec.table].erase(w.id);
}

void WatchHub::close(const std::shared_ptr<Watcher>& w, const Error& why, bool dropQueued) {
  if (w->stopped || w->closing) return;
  w->closing = true;
  w->dropQueued = dropQueued;
  w->closeError = why;
  detach(*w);
  enqueue(w, lastRv_, WatchEvent{WatchEventType::Added, nullptr});
}

void WatchHub::closeAll(const Error& why) {
  for (TableId t = 0; t < byTable_.size(); ++t) {
    auto watchers = byTable_[t];  // close() detaches from the live map
    for (const auto& [id, w] : watchers) close(w, why, true);
  }
}

void WatchHub::closeTable(TableId table, const Error& why) {
  if (table >= byTable_.size()) return;
  auto watchers = byTable_[table];
  for (const auto& [id, w] : watchers) close(w, why, false);
}

void WatchHub::armBookmarks() {
  if (bookmarkArmed_) return;
  bookmarkArmed_ = true;
  std::weak_ptr<WatchHub> self = weak_from_this();
  bookmarkTimer_ = loop_.runAfter(bookmarkInterval_, [self] {
    if (auto hub = self.lock()) {
      hub->bookmarkArmed_ = false;
      hub->sendBookmarks();
    }
  });
}

void WatchHub::sendBookmarks() {
  std::vector<std::shared_ptr<Watcher>> targets;
  for (const auto& watchers : byTable_)
    for (const auto& [id, w] : watchers)
      if (w->spec.bookmarks && w->lastRv < lastRv_) targets.push_back(w);
  for (const auto& w : targets) {
    auto mark = shareObject(Object{{"apiVersion", w->spec.apiVersion},
                                                      {"kind", w->spec.kind},
                                                      {"metadata", {{"resourceVersion", std::to_string(lastRv_)}}}});
    enqueue(w, lastRv_, WatchEvent{WatchEventType::Bookmark, std::move(mark)});
  }
}

std::size_t WatchHub::activeWatches() const {
  std::size_t n = 0;
  for (const auto& watchers : byTable_) n += watchers.size();
  return n;
}

}  // namespace kun::store
