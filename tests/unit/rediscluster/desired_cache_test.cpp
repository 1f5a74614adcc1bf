#include <gtest/gtest.h>

#include "core/rediscluster/desired_cache.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

api::RedisCluster stored(std::int64_t generation, Object spec = {{"size", 3}}, std::string rv = "10",
                         Object labels = nullptr) {
  Object m = test::clusterManifest(std::move(spec));
  m["metadata"]["generation"] = generation;
  m["metadata"]["resourceVersion"] = std::move(rv);
  if (!labels.is_null()) m["metadata"]["labels"] = std::move(labels);
  return test::parseCluster(m);
}

TEST(DesiredCache, RegeneratesOnlyWhenTheClusterOrTheOptionsChange) {
  DesiredCache cache;
  const auto a = cache.get(stored(1));
  EXPECT_EQ(cache.get(stored(1)), a);  // the same objects, not regenerated
  EXPECT_EQ(cache.generated(), 1u);
  const auto b = cache.get(stored(2, {{"size", 5}}));
  EXPECT_NE(b, a);
  EXPECT_EQ(b->back().object["kind"], "StatefulSet");
  EXPECT_EQ((*b)[b->size() - 2].object["spec"]["replicas"], 5);
  GenerateOptions hold;
  hold.redisReplicas = 3;
  const auto c = cache.get(stored(2, {{"size", 5}}), hold);
  EXPECT_EQ((*c)[c->size() - 2].object["spec"]["replicas"], 3);
  EXPECT_EQ(cache.generated(), 3u);
  EXPECT_EQ(cache.size(), 1u);
  // What it returns is what desiredObjects returns.
  const auto direct = desiredObjects(stored(2, {{"size", 5}}), hold);
  ASSERT_EQ(direct.size(), c->size());
  for (std::size_t i = 0; i < direct.size(); ++i) EXPECT_EQ(direct[i].hash, (*c)[i].hash);
  cache.forget("uid-test");
  EXPECT_EQ(cache.size(), 0u);
}

// The operator's own status writes move the resourceVersion, not the generation: they must
// not cost a regeneration. Labels are copied onto every object but do not move the
// generation, so they are compared.
TEST(DesiredCache, KeepsObjectsAcrossStatusWritesButNotAcrossLabelChanges) {
  DesiredCache cache;
  const auto a = cache.get(stored(1, {{"size", 3}}, "10"));
  EXPECT_EQ(cache.get(stored(1, {{"size", 3}}, "11")), a);
  EXPECT_EQ(cache.generated(), 1u);
  const auto b = cache.get(stored(1, {{"size", 3}}, "12", {{"team", "payments"}}));
  EXPECT_NE(b, a);
  EXPECT_EQ(cache.generated(), 2u);
  EXPECT_EQ(b->front().object["metadata"]["labels"]["team"], "payments");
  EXPECT_EQ(cache.get(stored(1, {{"size", 3}}, "13", {{"team", "payments"}})), b);
  EXPECT_EQ(cache.generated(), 2u);
}

TEST(DesiredCache, AClusterWithoutVersionIsNeverCached) {
  DesiredCache cache;
  cache.get(test::cluster());
  cache.get(test::cluster());
  EXPECT_EQ(cache.generated(), 2u);
  EXPECT_EQ(cache.size(), 0u);
}

}  // namespace
}  // namespace kun::rediscluster
