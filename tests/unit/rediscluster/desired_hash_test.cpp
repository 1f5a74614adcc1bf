#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <set>

#include "core/api/redis_cluster_defaults.h"
#include "core/rediscluster/desired_hash.h"
#include "core/rediscluster/generate.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

TEST(DesiredHash, IsFnv1aOverTheCanonicalDump) {
  // Computed independently: FNV-1a 64 of {"kind":"ConfigMap","metadata":{"name":"x"}}.
  const Object o = Object::parse(R"({"metadata":{"name":"x"},"kind":"ConfigMap"})");
  EXPECT_EQ(desiredHash(o), "09f68d5bcbfe6833");
}

TEST(DesiredHash, IgnoresItsOwnAnnotationAndStampingIsIdempotent) {
  Object o{{"kind", "ConfigMap"}, {"metadata", {{"name", "x"}}}};
  const std::string h = desiredHash(o);
  EXPECT_EQ(stampDesiredHash(o), h);
  EXPECT_EQ(recordedHash(o), h);
  EXPECT_EQ(desiredHash(o), h);
  EXPECT_EQ(stampDesiredHash(o), h);
  meta::setAnnotation(o, "other", "1");
  EXPECT_NE(desiredHash(o), h);
}

std::map<std::string, std::string> hashes(const api::RedisCluster& rc) {
  std::map<std::string, std::string> out;
  for (const auto& d : desiredObjects(rc)) out[d.resource.kind + "/" + d.name()] = d.hash;
  return out;
}

// Which objects' hashes differ between two clusters.
std::set<std::string> changed(const Object& specA, const Object& specB) {
  const auto a = hashes(test::cluster(specA));
  const auto b = hashes(test::cluster(specB));
  std::set<std::string> out;
  for (const auto& [k, v] : a)
    if (!b.count(k) || b.at(k) != v) out.insert(k);
  for (const auto& [k, v] : b)
    if (!a.count(k)) out.insert(k);
  return out;
}

TEST(DesiredHash, StableAcrossGenerationsAndRoundTrips) {
  const Object spec{{"size", 5}, {"password", "abcdefgh12345"}, {"config", {{"maxmemory", "1gb"}}}};
  EXPECT_EQ(hashes(test::cluster(spec)), hashes(test::cluster(spec)));
  for (const auto& d : desiredObjects(test::cluster(spec))) {
    // What the API server sends back, re-parsed, hashes the same.
    EXPECT_EQ(desiredHash(Object::parse(d.object.dump(2))), d.hash) << d.name();
  }
  // Defaults spelled out by the user give the same objects.
  EXPECT_EQ(hashes(test::cluster(Object::object())), hashes(test::cluster({{"size", 3}, {"image", "redis:5.0.4-alpine"}})));
}

TEST(DesiredHash, ASpecChangeChangesExactlyTheObjectsItConcerns) {
  const Object base{{"size", 3}};
  EXPECT_EQ(changed(base, {{"size", 3}, {"config", {{"maxmemory", "1gb"}}}}),
            (std::set<std::string>{"ConfigMap/redis-cluster-test"}));
  EXPECT_EQ(changed(base, {{"size", 3}, {"image", "redis:7.0"}}), (std::set<std::string>{"StatefulSet/redis-cluster-test"}));
  EXPECT_EQ(changed(base, {{"size", 5}}),
            (std::set<std::string>{"StatefulSet/redis-cluster-test", "PodDisruptionBudget/redis-cluster-test"}));
  EXPECT_EQ(changed(base, {{"size", 3}, {"sentinel", {{"replicas", 5}}}}),
            (std::set<std::string>{"StatefulSet/redis-sentinel-test", "PodDisruptionBudget/redis-sentinel-test",
                                   "ConfigMap/redis-sentinel-test"}));
  EXPECT_EQ(changed(base, {{"size", 3}, {"password", "abcdefgh12345"}}), (std::set<std::string>{"Secret/redis-auth-test"}));
  EXPECT_EQ(changed(base, {{"size", 3}, {"disablePersistence", true}}),
            (std::set<std::string>{"ConfigMap/redis-cluster-test", "ConfigMap/redisr-s-test"}));
}

TEST(DesiredHash, RelabellingTheClusterTouchesObjectsNotPodTemplates) {
  Object m = test::clusterManifest(Object::object());
  const auto before = desiredObjects(test::parseCluster(m));
  m["metadata"]["labels"] = {{"team", "x"}};
  const auto after = desiredObjects(test::parseCluster(m));
  ASSERT_EQ(before.size(), after.size());
  for (std::size_t i = 0; i < before.size(); ++i) {
    EXPECT_NE(before[i].hash, after[i].hash) << before[i].name();
    if (before[i].resource.kind == "StatefulSet") {
      EXPECT_EQ(before[i].object["spec"]["template"], after[i].object["spec"]["template"]);
    }
  }
}

// The redis ConfigMap's hash tells any two spec.config maps apart.
RC_GTEST_PROP(DesiredHash, DistinctConfigsGiveDistinctRedisConfigMaps, ()) {
  using Config = std::map<std::string, std::string>;
  // Each parameter absent or set to one of a few values.
  const auto config = rc::gen::map(
      rc::gen::container<std::vector<int>>(4, rc::gen::inRange(-1, 6)), [](const std::vector<int>& picks) {
        static const std::vector<std::string> keys{"maxmemory", "timeout", "hz", "maxclients"};
        static const std::vector<std::string> values{"1", "2", "10", "100mb", "", "a b"};
        Config c;
        for (std::size_t i = 0; i < keys.size(); ++i)
          if (picks[i] >= 0) c[keys[i]] = values[static_cast<std::size_t>(picks[i])];
        return c;
      });
  const auto a = *config;
  const auto b = *rc::gen::oneOf(rc::gen::just(a), config);
  const auto hashOf = [](const std::map<std::string, std::string>& config) {
    return desiredHash(redisConfigMap(api::withDefaults(test::cluster({{"config", config}}))));
  };
  RC_ASSERT((hashOf(a) == hashOf(b)) == (a == b));
}

}  // namespace
}  // namespace kun::rediscluster
