#pragma once
// Owner-based enqueue: a change to an object the controller's kind owns (a StatefulSet, a
// Service, a Pod of an owned StatefulSet) queues the owner's key, so the reconciler looks
// again when something it manages changes — including a pod getting a new IP, which is a
// pod Modified event like any other.
//
// The owner is found, in order:
//   1. the object's controller ownerReference, when it names the owner kind;
//   2. through an intermediate: the controller is another kind (a Pod's StatefulSet) whose
//      cached object's controller is the owner kind (one level, which is what StatefulSet
//      pods need; Deployments' ReplicaSets would need two);
//   3. a fallback mapper (e.g. labels that name the owner), for objects whose references
//      were stripped or whose intermediate has already gone from the cache.
// On Modified both the old and the new owner are queued (an ownerReference may change).
#include <functional>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/controller/work_queue.h"
#include "core/kube/informer.h"

namespace kun {

struct OwnerKind {
  std::string group;  // "redis.kun" (the ownerReference's apiVersion group)
  std::string kind;   // "RedisCluster"
  bool matches(const OwnerReference& ref) const { return matches(ref.kind, ref.apiVersion); }
  bool matches(std::string_view refKind, std::string_view refApiVersion) const;
};

// The owner's key ("namespace/name") an object points at, or nullopt.
using OwnerMapper = std::function<std::optional<std::string>(const Object&)>;

class OwnerEnqueuer {
 public:
  // The queue must outlive this. Keys are filtered by `accept` (e.g. the operator's
  // scope) when it is set.
  OwnerEnqueuer(WorkQueue& queue, OwnerKind owner);

  void setOwner(OwnerKind owner) { owner_ = std::move(owner); }
  void setFallback(OwnerMapper m) { fallback_ = std::move(m); }
  void setFilter(std::function<bool(const std::string& key)> accept) { accept_ = std::move(accept); }

  // Adds a handler to `owned`: its objects are owned directly or through one of the
  // intermediates' informers (their caches must outlive this).
  void watch(Informer& owned, std::vector<const Informer*> intermediates = {});

  // The owner key of obj, by the rules above (exposed for tests and for the reconciler's
  // own lookups).
  std::optional<std::string> ownerOf(const Object& obj, const std::vector<const Informer*>& intermediates) const;

  std::uint64_t enqueued() const { return enqueued_; }

 private:
  void enqueue(const std::optional<std::string>& key);

  WorkQueue& queue_;
  OwnerKind owner_;
  OwnerMapper fallback_;
  std::function<bool(const std::string&)> accept_;
  std::uint64_t enqueued_ = 0;
};

// The group of an apiVersion ("apps/v1" -> "apps", "v1" -> "").
std::string_view apiGroupOf(std::string_view apiVersion);

}  // namespace kun
