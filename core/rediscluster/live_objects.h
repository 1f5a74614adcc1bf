#pragma once
// The Ensurer's view of what exists: read from informer caches, never from the API server.
#include <cstdint>
#include <optional>
#include <string_view>
#include <vector>

#include "core/kube/informer.h"
#include "core/kube/resource.h"

namespace kun::rediscluster {

class LiveObjects {
 public:
  virtual ~LiveObjects() = default;
  // False while nothing is known about r (no cache for it, or its first list has not
  // arrived): an empty cache would look like "nothing exists" and lead to re-creating it.
  virtual bool synced(const Resource& r) const = 0;
  // The cached object, or null when the cache has none of that name.
  virtual ObjectPtr get(const Resource& r, std::string_view ns, std::string_view name) const = 0;
  // A count that moves with every change to what this view holds: equal before two reads,
  // they read the same objects. nullopt when the view cannot tell (nothing is then assumed
  // unchanged).
  virtual std::optional<std::uint64_t> changes() const { return std::nullopt; }
};

// Over informers, one per resource (matched by group, version and plural). The informers
// must outlive this view.
class InformerLiveObjects final : public LiveObjects {
 public:
  InformerLiveObjects() = default;
  explicit InformerLiveObjects(std::vector<const Informer*> informers) : informers_(std::move(informers)) {}
  void add(const Informer& informer) { informers_.push_back(&informer); }

  bool synced(const Resource& r) const override;
  ObjectPtr get(const Resource& r, std::string_view ns, std::string_view name) const override;
  // The informers' changes() added up: each only grows, so the sum stays only while all do.
  std::optional<std::uint64_t> changes() const override;

 private:
  const Informer* find(const Resource& r) const;
  std::vector<const Informer*> informers_;
};

}  // namespace kun::rediscluster
