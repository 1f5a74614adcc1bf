#include "core/api/redis_cluster_defaults.h"

#include <utility>

namespace kun::api {

namespace {

// KUN replaces the sentinel resources only when they are wholly empty (Size() == 0), so a
// user who set only limits keeps exactly that.
bool emptyResources(const Object& r) {
  if (!r.is_object()) return true;
  for (const auto& [k, v] : r.items()) {
    (void)k;
    if (!v.is_null() && !v.empty()) return false;
  }
  return true;
}

void setIfAbsent(std::map<std::string, std::string>& config, std::string_view key,
                 std::string_view value) {
  config.emplace(std::string(key), std::string(value));
}

}  // namespace

RedisClusterSpec withDefaults(const RedisClusterSpec& in) {
  RedisClusterSpec s = in;
  if (s.size == 0) s.size = defaults::kSize;
  if (s.sentinel.replicas == 0) s.sentinel.replicas = defaults::kSentinelReplicas;
  if (s.image.empty()) s.image = defaults::kRedisImage;
  if (s.sentinel.image.empty()) s.sentinel.image = defaults::kSentinelImage;
  if (emptyResources(s.sentinel.resources)) {
    s.sentinel.resources = Object{
        {"requests",
         {{"cpu", defaults::kSentinelRequestCpu}, {"memory", defaults::kSentinelRequestMemory}}},
        {"limits",
         {{"cpu", defaults::kSentinelLimitCpu}, {"memory", defaults::kSentinelLimitMemory}}},
    };
  }
  if (s.exporter.enabled && s.exporter.image.empty()) s.exporter.image = defaults::kExporterImage;

  Object& pvc = s.storage.persistentVolumeClaim;
  if (pvc.is_object()) {
    Object& md = pvc["metadata"];
    if (!md.is_object()) md = Object::object();
    auto it = md.find("name");
    if (it == md.end() || !it->is_string() || it->get<std::string>().empty())
      md["name"] = defaults::kDataVolumeName;
  }

  setIfAbsent(s.config, "slave-priority", defaults::kSlavePriority);
  if (!s.disablePersistence) {
    setIfAbsent(s.config, "appendonly", "yes");
    setIfAbsent(s.config, "auto-aof-rewrite-min-size", "536870912");
    setIfAbsent(s.config, "auto-aof-rewrite-percentage", "100");
    setIfAbsent(s.config, "repl-backlog-size", "62914560");
    setIfAbsent(s.config, "repl-diskless-sync", "yes");
    setIfAbsent(s.config, "aof-load-truncated", "yes");
    setIfAbsent(s.config, "stop-writes-on-bgsave-error", "no");
    setIfAbsent(s.config, "save", "900 1 300 10");
  } else {
    setIfAbsent(s.config, "appendonly", "no");
    setIfAbsent(s.config, "save", "");
  }
  return s;
}

RedisCluster withDefaults(const RedisCluster& rc) {
  RedisCluster out = rc;
  out.spec = withDefaults(rc.spec);
  return out;
}

}  // namespace kun::api
