#include <gtest/gtest.h>

#include "core/api/validation.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/names.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

TEST(Names, MatchKun) {
  EXPECT_EQ(names::redis("a"), "redis-cluster-a");
  EXPECT_EQ(names::sentinel("a"), "redis-sentinel-a");
  EXPECT_EQ(names::sentinelHeadless("a"), "redis-sentinel-headless-a");
  EXPECT_EQ(names::sentinelReadiness("a"), "redis-sentinel-readiness-a");
  EXPECT_EQ(names::shutdown("a"), "redisr-s-a");  // KUN's GenerateName("r-s", name)
  EXPECT_EQ(names::auth("a"), "redis-auth-a");
  EXPECT_EQ(names::redisPod("a", 2), "redis-cluster-a-2");
  EXPECT_EQ(names::sentinelPod("a", 0), "redis-sentinel-a-0");
}

TEST(Names, ShutdownConfigMapIsTheUsersWhenNamed) {
  EXPECT_EQ(names::shutdownConfigMap(test::cluster()), "redisr-s-test");
  EXPECT_EQ(names::shutdownConfigMap(test::cluster({{"shutdownConfigMap", "mine"}})), "mine");
}

TEST(Names, LongestAllowedClusterNameGivesValidServiceNames) {
  const std::string name(37, 'a');  // api::limits::kMaxNameLength
  EXPECT_EQ(validation::dns1035Label(names::sentinelHeadless(name)), "");
  EXPECT_EQ(validation::dns1035Label(names::redis(name)), "");
  EXPECT_EQ(validation::dns1123Subdomain(names::sentinelReadiness(name)), "");
}

TEST(Labels, SelectorLabelsAreKunsGenerateSelectorLabels) {
  const Labels want{{"app.kubernetes.io/part-of", "redis-cluster"},
                    {"app.kubernetes.io/component", "redis"},
                    {"app.kubernetes.io/name", "a"}};
  EXPECT_EQ(selectorLabels("a", Component::Redis), want);
  EXPECT_EQ(selectorLabels("a", Component::Sentinel).at("app.kubernetes.io/component"), "sentinel");
  EXPECT_EQ(selectorString("a", Component::Redis),
            "app.kubernetes.io/component=redis,app.kubernetes.io/name=a,app.kubernetes.io/part-of=redis-cluster");
}

TEST(Labels, ObjectLabelsAddKunsDefaultsAndTheClustersLabels) {
  Object m = test::clusterManifest(Object::object(), "a", "ns1");
  m["metadata"]["labels"] = {{"team", "x"}, {"app.kubernetes.io/name", "spoofed"}};
  const api::RedisCluster rc = test::parseCluster(m);
  const Labels l = objectLabels(rc, Component::Sentinel);
  EXPECT_EQ(l.at("app.kubernetes.io/managed-by"), "redis-operator");
  EXPECT_EQ(l.at("redis.kun/v1beta1"), "ns1_a");
  EXPECT_EQ(l.at("team"), "x");
  EXPECT_EQ(l.at("app.kubernetes.io/name"), "a");  // the operator's label wins
  EXPECT_EQ(l.at("app.kubernetes.io/component"), "sentinel");
  // Pod templates do not carry the cluster's own labels.
  const Labels p = podLabels(rc, Component::Sentinel);
  EXPECT_EQ(p.count("team"), 0u);
  EXPECT_EQ(p.at("redis.kun/v1beta1"), "ns1_a");
}

TEST(Labels, InstanceValueStaysAValidLabelValue) {
  EXPECT_EQ(instanceLabelValue("default", "a"), "default_a");
  const std::string ns(63, 'n');
  const std::string v = instanceLabelValue(ns, std::string(37, 'c'));
  EXPECT_EQ(v.size(), 63u);
  EXPECT_EQ(validation::labelValue(v), "");
  // Distinct clusters keep distinct values.
  EXPECT_NE(v, instanceLabelValue(ns, std::string(36, 'c') + "d"));
}

}  // namespace
}  // namespace kun::rediscluster
