#include "core/rediscluster/desired_cache.h"

namespace kun::rediscluster {

namespace {
// By memberOf's walk of metadata: asked on every reconcile.
std::string field(const Object& metadata, const char* key) {
  const Object* v = memberOf(metadata, key);
  return v && v->is_string() ? v->get<std::string>() : std::string();
}
const Object& labelsOf(const Object& metadata) {
  static const Object none;
  const Object* v = memberOf(metadata, "labels");
  return v ? *v : none;
}
}  // namespace

DesiredCache::Objects DesiredCache::get(const api::RedisCluster& rc, const GenerateOptions& opts) {
  const std::string uid = field(rc.metadata, "uid");
  const std::int64_t generation = rc.generation();
  const Object& labels = labelsOf(rc.metadata);
  const bool cacheable = !uid.empty() && generation > 0;
  if (cacheable) {
    std::lock_guard lock(mu_);
    auto it = entries_.find(uid);
    if (it != entries_.end()) {
      const Entry& e = it->second;
      if (e.generation == generation && e.labels == labels && e.apiVersion == rc.apiVersion &&
          e.pdbVersion == opts.pdbVersion && e.redisReplicas == opts.redisReplicas &&
          e.previousPassword == opts.previousPassword)
        return e.objects;
    }
  }
  generated_.fetch_add(1, std::memory_order_relaxed);
  // Generated unlocked: it is the expensive part, and other clusters need not wait for it.
  auto objects = std::make_shared<const std::vector<DesiredObject>>(desiredObjects(rc, opts));
  if (cacheable) {
    Entry entry{generation, labels, rc.apiVersion, opts.pdbVersion, opts.redisReplicas, opts.previousPassword, objects};
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
