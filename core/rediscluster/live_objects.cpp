#include "core/rediscluster/live_objects.h"

namespace kun::rediscluster {

const Informer* InformerLiveObjects::find(const Resource& r) const {
  for (const Informer* i : informers_)
    if (i->resource() == r) return i;
  return nullptr;
}

bool InformerLiveObjects::synced(const Resource& r) const {
  const Informer* i = find(r);
  return i != nullptr && i->synced();
}

ObjectPtr InformerLiveObjects::get(const Resource& r, std::string_view ns, std::string_view name) const {
  const Informer* i = find(r);
  return i ? i->get(ns, name) : nullptr;
}

std::optional<std::uint64_t> InformerLiveObjects::changes() const {
  std::uint64_t sum = 0;
  for (const Informer* i : informers_) sum += i->changes();
  return sum;
}

}  // namespace kun::rediscluster
