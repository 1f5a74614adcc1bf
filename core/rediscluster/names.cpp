#include "core/rediscluster/names.h"

#include <fmt/format.h>

namespace kun::rediscluster::names {

namespace {
std::string generate(std::string_view infix, std::string_view cluster) {
  return fmt::format("redis{}-{}", infix, cluster);
}
}  // namespace

std::string redis(std::string_view cluster) { return generate("-cluster", cluster); }
std::string sentinel(std::string_view cluster) { return generate("-sentinel", cluster); }
std::string sentinelHeadless(std::string_view cluster) { return generate("-sentinel-headless", cluster); }
std::string sentinelReadiness(std::string_view cluster) { return generate("-sentinel-readiness", cluster); }
std::string shutdown(std::string_view cluster) { return generate("r-s", cluster); }
std::string auth(std::string_view cluster) { return generate("-auth", cluster); }

std::string shutdownConfigMap(const api::RedisCluster& rc) {
  return rc.spec.shutdownConfigMap.empty() ? shutdown(rc.name()) : rc.spec.shutdownConfigMap;
}

std::string redisPod(std::string_view cluster, std::int32_t ordinal) {
  return fmt::format("{}-{}", redis(cluster), ordinal);
}
std::string sentinelPod(std::string_view cluster, std::int32_t ordinal) {
  return fmt::format("{}-{}", sentinel(cluster), ordinal);
}

}  // namespace kun::rediscluster::names
