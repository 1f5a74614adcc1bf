#include "core/rediscluster/desired_cache.h"

namespace kun::rediscluster {

namespace {
std::string field(const Object& metadata, const char* key) {
  auto it = metadata.find(key);
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

DesiredCache::Objects DesiredCache::get(const api::RedisCluster& rc, const GenerateOptions& opts) {
  const std::string uid = field(rc.metadata, "uid");
  const std::string rv = field(rc.metadata, "resourceVersion");
  const bool cacheable = !uid.empty() && !rv.empty();
  if (cacheable) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(uid);
    if (it != entries_.end() && it->second.resourceVersion == rv && it->second.pdbVersion == opts.pdbVersion &&
        it->second.redisReplicas == opts.redisReplicas && it->second.previousPassword == opts.previousPassword)
      return it->second.objects;
  }
  generated_.fetch_add(1, std::memory_order_relaxed);
  // Generated unlocked: it is the expensive part, and other clusters need not wait for it.
  auto objects = std::make_shared<const std::vector<DesiredObject>>(desiredObjects(rc, opts));
  if (cacheable) {
    Entry entry{rv, opts.pdbVersion, opts.redisReplicas, opts.previousPassword, objects};
    std::lock_guard lock(mu_);
    entries_[uid] = std::move(entry);
  }
  return objects;
}

void DesiredCache::forget(const std::string& uid) {
  std::lock_guard lock(mu_);
  entries_.erase(uid);
}

std::size_t DesiredCache::size() const {
  std::lock_guard lock(mu_);
  return entries_.size();
}

}  // namespace kun::rediscluster
