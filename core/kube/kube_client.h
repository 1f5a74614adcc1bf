#pragma once
// The KubeClient seam: the operator's only way to the API server. Implemented by the HTTP
// client (real clusters) and by the fake store (simulation). Synchronous calls returning
// error values; watches deliver events through callbacks.
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/api/object_ptr.h"
#include "core/kube/resource.h"
#include "core/runtime/result.h"

namespace kun {

// ObjectPtr (core/api/object_ptr.h) is a stored version shared read-only: the
// shared-pointer calls below hand out the server's own copy, so a read costs no copy.

struct ListOptions {
  std::string labelSelector;  // string form: "app=redis,tier in (a,b),!legacy"
  std::string fieldSelector;  // "metadata.name=x", "involvedObject.uid=..."
};

struct ObjectList {
  std::vector<Object> items;
  std::string resourceVersion;  // the list's version: watch from here to see later changes
};

enum class PropagationPolicy { Background, Foreground, Orphan };

struct DeleteOptions {
  std::optional<std::string> preconditionUid;
  std::optional<std::string> preconditionResourceVersion;
  std::optional<PropagationPolicy> propagationPolicy;  // default: Background
  std::optional<std::int64_t> gracePeriodSeconds;      // pods: default from the pod spec
};

enum class WatchEventType { Added, Modified, Deleted, Bookmark };

// The object is the server's shared immutable version: one change fanned out to many
// watches (and cached by informers) is one object, never a copy per receiver. Never null.
struct WatchEvent {
  WatchEventType type;
  ObjectPtr object;
};

std::string_view watchEventTypeName(WatchEventType t);  // "ADDED", ...

struct WatchOptions {
  std::string resourceVersion;  // "" or "0": start from now (no replay)
  std::string labelSelector;
  std::string fieldSelector;
  bool allowBookmarks = false;
};

// A running watch. stop() (or destruction) ends delivery; no callback runs after it.
class Watch {
 public:
  virtual ~Watch() = default;
  virtual void stop() = 0;
};

using WatchHandler = std::function<void(const WatchEvent&)>;
// Called once when the server ends the watch (Gone, timeout, dropped connection).
using WatchClosedHandler = std::function<void(const Error&)>;

// Thread-safety: each implementation states its own. A client handed to an operator that
// runs the controller with workers > 0 (real mode) is called from every worker thread at
// once (the reconciler's reads and writes, the EventRecorder) and from the loop's thread
// (the informers' list and watch, leader election), so it must be thread-safe, and its
// watch handlers must run on the loop's thread. The fake store is not: the simulator runs
// workers == 0 on one thread (tests/support/serialized_store.h shares one between threads
// for real-mode tests).
class KubeClient {
 public:
  virtual ~KubeClient() = default;

  // ns is ignored for cluster-scoped resources; "" lists across all namespaces.
  virtual Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) = 0;
  virtual Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& opts = {}) = 0;
  virtual Result<Object> create(const Resource& r, const Object& obj) = 0;
  // Optimistic concurrency: obj's metadata.resourceVersion must be current (Conflict if not).
  virtual Result<Object> update(const Resource& r, const Object& obj) = 0;
  virtual Result<Object> updateStatus(const Resource& r, const Object& obj) = 0;
  // JSON merge patch (RFC 7386).
  virtual Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name,
                               const Object& mergePatch) = 0;
  virtual Status remove(const Resource& r, std::string_view ns, std::string_view name,
                        const DeleteOptions& opts = {}) = 0;
  // Events are delivered asynchronously (through the event loop), in resourceVersion order.
  // A resourceVersion older than the server's window fails with Gone.
  virtual Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns,
                                               const WatchOptions& opts, WatchHandler onEvent,
                                               WatchClosedHandler onClosed) = 0;

  // Shared-pointer variants of get, create, update, updateStatus and patch, with the same
  // rules and errors. An implementation that keeps objects in memory (the fake store)
  // returns its stored immutable version and takes obj by move, so neither direction
  // copies the object; these defaults wrap the by-value calls, so any implementation keeps
  // working.
  virtual Result<ObjectPtr> getShared(const Resource& r, std::string_view ns, std::string_view name) {
    return share(get(r, ns, name));
  }
  virtual Result<ObjectPtr> createShared(const Resource& r, Object obj) { return share(create(r, obj)); }
  virtual Result<ObjectPtr> updateShared(const Resource& r, Object obj) { return share(update(r, obj)); }
  virtual Result<ObjectPtr> updateStatusShared(const Resource& r, Object obj) { return share(updateStatus(r, obj)); }
  virtual Result<ObjectPtr> patchShared(const Resource& r, std::string_view ns, std::string_view name,
                                        const Object& mergePatch) {
    return share(patch(r, ns, name, mergePatch));
  }
  // list(), items shared (resourceVersion of the list dropped).
  virtual Result<std::vector<ObjectPtr>> listShared(const Resource& r, std::string_view ns, const ListOptions& opts = {}) {
    auto got = list(r, ns, opts);
    if (!got) return got.error();
    std::vector<ObjectPtr> out;
    out.reserve(got->items.size());
    for (auto& o : got->items) out.push_back(shareObject(std::move(o)));
    return out;
  }

 private:
  static Result<ObjectPtr> share(Result<Object> got) {
    if (!got) return got.error();
    return ObjectPtr(shareObject(std::move(got).value()));
  }
};

}  // namespace kun
