#pragma once
// RedisCluster values for the generator's tests, built from manifests as a user writes them.
#include <gtest/gtest.h>

#include <string>

#include "core/api/redis_cluster_types.h"

namespace kun::test {

// A manifest with the given spec; uid set as the API server would.
inline Object clusterManifest(Object spec, std::string name = "test", std::string ns = "default") {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", name}, {"namespace", ns}, {"uid", "uid-" + name}}},
                {"spec", std::move(spec)}};
}

inline api::RedisCluster parseCluster(const Object& manifest) {
  auto rc = api::parseRedisCluster(manifest);
  EXPECT_TRUE(rc.ok()) << (rc.ok() ? "" : rc.error().toString());
  return rc.ok() ? rc.value() : api::RedisCluster{};
}

inline api::RedisCluster cluster(Object spec = Object::object(), std::string name = "test") {
  return parseCluster(clusterManifest(std::move(spec), std::move(name)));
}

}  // namespace kun::test
