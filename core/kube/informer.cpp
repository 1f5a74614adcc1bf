#include "core/kube/informer.h"

#include <algorithm>
#include <mutex>

#include "core/api/object_members.h"
#include "core/runtime/retry_after.h"

namespace kun {
namespace {

// A cache key ("ns/name") in namespace ns; every key is when ns is empty.
bool inNamespace(std::string_view key, std::string_view ns) {
  return ns.empty() || (key.size() > ns.size() && key.substr(0, ns.size()) == ns && key[ns.size()] == '/');
}

std::string cacheKey(std::string_view ns, std::string_view name) {
  if (ns.empty()) return std::string(name);
  std::string k(ns);
  k += '/';
  k += name;
  return k;
}

// One label's index: value -> cache key -> object. An empty value is not indexed.
template <class Index>
void indexPut(Index& index, std::string_view value, const std::string& key, const ObjectPtr& obj) {
  if (value.empty()) return;
  auto bucket = index.find(value);
  if (bucket == index.end()) bucket = index.try_emplace(std::string(value)).first;
  bucket->second.insert_or_assign(key, obj);
}

template <class Index>
void indexDrop(Index& index, std::string_view value, const std::string& key) {
  auto bucket = index.find(value);
  if (bucket == index.end()) return;
  bucket->second.erase(key);
  if (bucket->second.empty()) index.erase(bucket);
}

}  // namespace

Informer::Informer(KubeClient& client, EventLoop& loop, Resource resource, Options opts, Logger log)
    : client_(client), loop_(loop), resource_(std::move(resource)), opts_(std::move(opts)),
      log_(log.withComponent("informer")), indexes_(opts_.indexLabels.size()) {}

Informer::~Informer() {
  *alive_ = false;
  stop();
}

void Informer::start() {
  if (running_) return;
  running_ = true;
  listAndWatch();
  scheduleResync();
}

void Informer::stop() {
  running_ = false;
  if (watch_) {
    watch_->stop();
    watch_.reset();
  }
  if (retryTimer_) loop_.cancel(retryTimer_);
  if (resyncTimer_) loop_.cancel(resyncTimer_);
  retryTimer_ = resyncTimer_ = 0;
}

std::size_t Informer::size() const {
  std::shared_lock lock(cacheMu_);
  return cache_.size();
}

ObjectPtr Informer::get(std::string_view ns, std::string_view name) const {
  if (!resource_.namespaced) ns = {};
  // The key (cacheKey's) in a buffer on the stack when it fits: the reconciler looks up a
  // dozen objects per pass, and a key string would be allocated for each.
  char buf[128];
  std::string longKey;
  std::string_view key;
  if (ns.size() + 1 + name.size() <= sizeof buf) {
    std::size_t n = 0;
    if (!ns.empty()) {
      ns.copy(buf, ns.size());
      buf[ns.size()] = '/';
      n = ns.size() + 1;
    }
    name.copy(buf + n, name.size());
    key = std::string_view(buf, n + name.size());
  } else {
    longKey = cacheKey(ns, name);
    key = longKey;
  }
  std::shared_lock lock(cacheMu_);
  auto it = cache_.find(key);
  return it == cache_.end() ? nullptr : it->second;
}

std::vector<ObjectPtr> Informer::list(std::string_view ns, const LabelSelector& sel) const {
  std::vector<ObjectPtr> out;
  std::shared_lock lock(cacheMu_);
  if (!indexes_.empty() && !sel.empty()) {
    // Any required key=value pair on an indexed label narrows to the same answer (the
    // bucket is then filtered by the whole selector), so the first one found is used,
    // read in place: the reconciler lists a cluster's pods twice per pass.
    using Op = LabelSelector::Op;
    for (const auto& r : sel.requirements()) {
      if ((r.op != Op::Equals && r.op != Op::In) || r.values.size() != 1) continue;
      const std::string& value = r.values.front();
      for (std::size_t i = 0; i < opts_.indexLabels.size(); ++i) {
        if (opts_.indexLabels[i] != r.key || value.empty()) continue;  // "" also matches an absent label
        auto bucket = indexes_[i].find(value);
        if (bucket == indexes_[i].end()) return out;
        // The bucket is sorted by cache key, so the result is too, as without the index.
        for (const auto& [k, obj] : bucket->second) {
          if (!inNamespace(k, ns)) continue;
          if (sel.matches(*obj)) out.push_back(obj);
        }
        return out;
      }
    }
  }
  // The namespace's keys are a run from "ns/" on: the run ends at the first key outside it
  // (tested in place, not against a prefix string built per key).
  auto it = ns.empty() ? cache_.begin() : cache_.lower_bound(cacheKey(ns, ""));
  for (; it != cache_.end(); ++it) {
    if (!inNamespace(it->first, ns)) break;
    if (sel.empty() || sel.matches(*it->second)) out.push_back(it->second);
  }
  return out;
}

void Informer::listAndWatch() {
  if (!running_) return;
  ++lists_;
  auto res = client_.list(resource_, opts_.ns, ListOptions{opts_.labelSelector, {}});
  if (!res) {
    log_.warn("list failed", {{"resource", resource_.groupResource()}, {"error", res.error().toString()}});
    retryLater(true, &res.error());
    return;
  }
  // Fold the list into the cache, delivering what changed since the cache was last true.
  std::map<std::string, ObjectPtr, std::less<>> fresh;
  for (auto& item : res->items) {
    auto obj = shareObject(std::move(item));
    fresh.emplace(cacheKey(meta::namespaceOf(*obj), meta::name(*obj)), obj);
  }
  std::map<std::string, ObjectPtr, std::less<>> old;
  {
    std::unique_lock lock(cacheMu_);
    old = std::move(cache_);
    cache_ = fresh;
    reindex();
    changes_.fetch_add(1, std::memory_order_release);
  }
  for (const auto& [k, obj] : old) {
    if (!fresh.count(k)) deliver(WatchEventType::Deleted, obj, obj);
  }
  for (const auto& [k, obj] : fresh) {
    auto o = old.find(k);
    if (o == old.end()) {
      deliver(WatchEventType::Added, obj, nullptr);
    } else if (meta::resourceVersion(*o->second) != meta::resourceVersion(*obj)) {
      deliver(WatchEventType::Modified, obj, o->second);
    }
  }
  lastVersion_ = res->resourceVersion;
  synced_ = true;
  backoff_ = Duration{0};
  startWatch();
}

void Informer::startWatch() {
  if (!running_) return;
  ++watches_;
  std::weak_ptr<bool> alive = alive_;
  WatchOptions wo{lastVersion_, opts_.labelSelector, {}, true};
  auto w = client_.watch(
      resource_, opts_.ns, wo,
      [this, alive](const WatchEvent& ev) {
        if (auto a = alive.lock(); a && *a) onEvent(ev);
      },
      [this, alive](const Error& err) {
        if (auto a = alive.lock(); a && *a) onClosed(err);
      });
  if (!w) {
    retryLater(w.error().reason == Reason::Gone, &w.error());
    return;
  }
  watch_ = std::move(w.value());
}

void Informer::onEvent(const WatchEvent& ev) {
  if (!running_) return;
  // Every change of every watched object passes here: read in one walk of its metadata.
  const MetaIdentity id = identityOf(*ev.object);
  if (!id.resourceVersion.empty()) lastVersion_.assign(id.resourceVersion);
  if (ev.type == WatchEventType::Bookmark) return;
  // The event's object is immutable and shared: the cache keeps the same version.
  const ObjectPtr& obj = ev.object;
  const std::string k = cacheKey(id.ns, id.name);
  ObjectPtr old;
  {
    std::unique_lock lock(cacheMu_);  // released before the handlers run: they read the cache
    auto it = cache_.lower_bound(k);
    const bool cached = it != cache_.end() && it->first == k;
    if (cached) old = it->second;
    if (ev.type == WatchEventType::Deleted) {
      if (old) indexRemove(k, *old);
      if (cached) cache_.erase(it);
    } else {
      if (old) {
        // indexRemove(k, *old) then indexAdd(k, obj): labels mostly stay, and then the
        // entry is repointed where it is, not erased and made again.
        for (std::size_t i = 0; i < opts_.indexLabels.size(); ++i) {
          const std::string_view was = labelView(*old, opts_.indexLabels[i]);
          const std::string_view now = labelView(*obj, opts_.indexLabels[i]);
          if (was != now) indexDrop(indexes_[i], was, k);
          indexPut(indexes_[i], now, k, obj);
        }
      } else {
        indexAdd(k, obj);
      }
      if (cached) it->second = obj;
      else cache_.emplace_hint(it, k, obj);
    }
    changes_.fetch_add(1, std::memory_order_release);
  }
  if (ev.type == WatchEventType::Deleted) {
    deliver(WatchEventType::Deleted, obj, old);
    return;
  }
  deliver(old ? WatchEventType::Modified : WatchEventType::Added, obj, old);
}

void Informer::indexAdd(const std::string& key, const ObjectPtr& obj) {
  for (std::size_t i = 0; i < opts_.indexLabels.size(); ++i)
    indexPut(indexes_[i], labelView(*obj, opts_.indexLabels[i]), key, obj);
}

void Informer::indexRemove(const std::string& key, const Object& obj) {
  for (std::size_t i = 0; i < opts_.indexLabels.size(); ++i)
    indexDrop(indexes_[i], labelView(obj, opts_.indexLabels[i]), key);
}

void Informer::reindex() {
  indexes_.assign(opts_.indexLabels.size(), {});
  for (const auto& [k, obj] : cache_) indexAdd(k, obj);
}

void Informer::onClosed(const Error& err) {
  watch_.reset();
  if (!running_) return;
  const bool gone = err.reason == Reason::Gone;
  log_.debug("watch closed", {{"resource", resource_.groupResource()}, {"error", err.toString()}});
  // A plain close resumes from the last version at once; Gone needs a fresh list.
  if (gone) {
    retryLater(true);
  } else {
    loop_.post([this, alive = std::weak_ptr<bool>(alive_)] {
      if (auto a = alive.lock(); a && *a) startWatch();
    });
  }
}

void Informer::retryLater(bool relist, const Error* cause) {
  Duration delay;
  if (const auto after = cause ? serverRetryAfter(*cause) : std::nullopt) {
    delay = *after;
  } else {
    backoff_ = backoff_.count() == 0 ? opts_.retryMin : std::min(backoff_ * 2, opts_.retryMax);
    delay = backoff_;
  }
  retryTimer_ = loop_.runAfter(delay, [this, relist, alive = std::weak_ptr<bool>(alive_)] {
    if (auto a = alive.lock(); !a || !*a) return;
    retryTimer_ = 0;
    if (relist) listAndWatch(); else startWatch();
  });
}

void Informer::scheduleResync() {
  if (opts_.resync.count() <= 0) return;
  resyncTimer_ = loop_.runAfter(opts_.resync, [this, alive = std::weak_ptr<bool>(alive_)] {
    if (auto a = alive.lock(); !a || !*a || !running_) return;
    // Only this thread writes the cache, so it may read it unlocked.
    for (const auto& [k, obj] : cache_) deliver(WatchEventType::Modified, obj, obj);
    scheduleResync();
  });
}

void Informer::deliver(WatchEventType type, const ObjectPtr& obj, const ObjectPtr& old) {
  for (const auto& h : handlers_) h(type, obj, old);
}

}  // namespace kun
