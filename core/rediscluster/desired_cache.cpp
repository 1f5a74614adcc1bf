#include "core/rediscluster/desired_cache.h"

namespace kun::rediscluster {

namespace {
std::string field(const Object& metadata, const char* key) {
  auto it = metadata.find(key);
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}
const Object& labelsOf(const Object& metadata) {
  static const Object none;
  auto it = metadata.find("labels");
  return it != metadata.end() ? *it : none;
}
}  // namespace

DesiredCache::Objects DesiredCache::get(const api::RedisCluster& rc, const GenerateOptions& opts) {
  const std::string uid = field(rc.metadata, "uid");
  const std::int64_t generation = rc.generation();
  const Object& labels = labelsOf(rc.metadata);
  const bool cacheable = !uid.empty() && generation > 0;
  if (cacheable) {
    auto it = entries_.find(uid);
    if (it != entries_.end()) {
      const Entry& e = it->second;
      if (e.generation == generation && e.labels == labels && e.apiVersion == rc.apiVersion &&
          e.pdbVersion == opts.pdbVersion && e.redisReplicas == opts.redisReplicas &&
          e.previousPassword == opts.previousPassword)
        return e.objects;
    }
  }
  ++generated_;
  auto objects = std::make_shared<const std::vector<DesiredObject>>(desiredObjects(rc, opts));
  if (cacheable)
    entries_[uid] = Entry{generation, labels, rc.apiVersion, opts.pdbVersion, opts.redisReplicas, opts.previousPassword, objects};
  return objects;
}

}  // namespace kun::rediscluster
