#pragma once
// An informer: a local cache of one resource kept current by list-then-watch, so the
// reconciler reads from memory and never from the API server. On a closed watch it
// re-watches from the last version it saw; on Gone it lists again and delivers the
// difference as events. Handlers run on the event loop.
//
// Thread-safety: the cache changes only on the event loop's thread; get(), list(), size()
// and synced() may be called from any thread (the worker threads of real mode) and return
// shared, immutable objects, so what a reader holds never changes under it.
#include <atomic>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <shared_mutex>
#include <string>
#include <vector>

#include "core/kube/kube_client.h"
#include "core/kube/selector.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"

namespace kun {

class Informer {
 public:
  // old is null for Added; for Deleted, obj is the last state seen.
  using Handler = std::function<void(WatchEventType type, const ObjectPtr& obj, const ObjectPtr& old)>;

  struct Options {
    std::string ns;             // "" = all namespaces
    std::string labelSelector;  // server-side filter
    Duration resync{0};         // > 0: re-deliver every cached object this often (as Modified)
    // List/watch retry backoff. Capped at 5 s, not client-go's 30 s: after an API outage
    // the operator has its caches back within 5 s, not up to 30 s during which nothing
    // heals (kun-sim prop --seed 4010: two masters for 25 s after a storm of 500s).
    Duration retryMin = milliseconds(100);
    Duration retryMax = seconds(5);
    // Label keys to index: list() with a selector that requires key=value for one of them
    // reads only the objects carrying that label value, not the whole namespace, so a
    // cluster's reconcile costs the same however many other clusters share the cache.
    std::vector<std::string> indexLabels;
  };

  Informer(KubeClient& client, EventLoop& loop, Resource resource, Options opts, Logger log);
  ~Informer();
  Informer(const Informer&) = delete;
  Informer& operator=(const Informer&) = delete;

  void addHandler(Handler h) { handlers_.push_back(std::move(h)); }
  void start();
  void stop();

  // True once the first list has filled the cache.
  bool synced() const { return synced_; }
  const Resource& resource() const { return resource_; }
  // The cache; keys are "namespace/name" (or "name" for cluster-scoped resources).
  ObjectPtr get(std::string_view ns, std::string_view name) const;
  // Objects in ns ("" = all) matching sel, sorted by key.
  std::vector<ObjectPtr> list(std::string_view ns, const LabelSelector& sel = {}) const;
  std::size_t size() const;
  // Counts the changes to the cache: two reads between which it did not move read the same
  // objects, so a caller may keep what it derived from the first (read it before reading).
  std::uint64_t changes() const { return changes_.load(std::memory_order_acquire); }
  // Counters, for tests and metrics.
  std::uint64_t lists() const { return lists_; }
  std::uint64_t watchesStarted() const { return watches_; }

 private:
  void listAndWatch();
  void startWatch();
  void onEvent(const WatchEvent& ev);
  void onClosed(const Error& err);
  // After the backoff (doubling from retryMin to retryMax); after a 429's Retry-After
  // instead, the backoff left as it is (client-go's REST client waits so itself).
  void retryLater(bool relist, const Error* cause = nullptr);
  void scheduleResync();
  void deliver(WatchEventType type, const ObjectPtr& obj, const ObjectPtr& old);
  void indexAdd(const std::string& key, const ObjectPtr& obj);
  void indexRemove(const std::string& key, const Object& obj);
  void reindex();

  KubeClient& client_;
  EventLoop& loop_;
  Resource resource_;
  Options opts_;
  Logger log_;
  std::vector<Handler> handlers_;
  mutable std::shared_mutex cacheMu_;  // writers: the loop thread; readers: any thread
  std::map<std::string, ObjectPtr, std::less<>> cache_;
  std::atomic<std::uint64_t> changes_{0};  // bumped under cacheMu_, after each change
  // Per Options::indexLabels entry (same order): label value -> the cached objects carrying
  // it, by cache key.
  std::vector<std::map<std::string, std::map<std::string, ObjectPtr>, std::less<>>> indexes_;
  std::unique_ptr<Watch> watch_;
  std::string lastVersion_;
  bool running_ = false;
  std::atomic<bool> synced_{false};  // the workers' Ensure asks synced() from their threads
  Duration backoff_{0};
  TimerId retryTimer_ = 0;
  TimerId resyncTimer_ = 0;
  std::uint64_t lists_ = 0;
  std::uint64_t watches_ = 0;
  // Guards callbacks that outlive this informer (a watch delivering after stop()).
  std::shared_ptr<bool> alive_ = std::make_shared<bool>(true);
};

}  // namespace kun
