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
  if (!uid.empty() && !rv.empty()) {
    auto it = entries_.find(uid);
    if (it != entries_.end() && it->second.resourceVersion == rv && it->second.pdbVersion == opts.pdbVersion &&
        it->second.redisReplicas == opts.redisReplicas && it->second.previousPassword == opts.previousPassword)
      return it->second.objects;
  }
  ++generated_;
  auto objects = std::make_shared<const std::vector<DesiredObject>>(desiredObjects(rc, opts));
  if (!uid.empty() && !rv.empty()) entries_[uid] = Entry{rv, opts.pdbVersion, opts.redisReplicas, opts.previousPassword, objects};
  return objects;
}

}  // namespace kun::rediscluster
