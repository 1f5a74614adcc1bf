#include "core/rediscluster/names.h"

#include <fmt/format.h>

namespace kun::rediscluster::names {

namespace {
// "redis<infix>-<cluster>", appended rather than formatted: the reconciler asks for the
// auth Secret's and the StatefulSets' names on every pass.
std::string generate(std::string_view infix, std::string_view cluster) {
  std::string out;
  out.reserve(5 + infix.size() + 1 + cluster.size());
  out.append("redis").append(infix).append(1, '-').append(cluster);
  return out;
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
