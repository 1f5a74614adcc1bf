// kun-sim prop --cluster FILE: one RedisCluster manifest, refused with the file, line and
// field when it is not one the operator takes.
#include <gtest/gtest.h>

#include "scenarios/cluster_manifest.h"

namespace kun::scenario {
namespace {

std::string errorOf(const std::string& text) {
  auto r = parseClusterManifest(text, "c.yaml");
  EXPECT_FALSE(r.ok());
  return r.ok() ? "" : r.error().message;
}

TEST(ClusterManifest, ARedisClusterTheOperatorTakesInTheDefaultNamespace) {
  auto r = parseClusterManifest(
      "apiVersion: redis.kun/v1beta1\nkind: RedisCluster\nmetadata: {name: sessions}\nspec: {size: 4}\n", "c.yaml");
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ((*r)["metadata"]["namespace"], "default");
  EXPECT_EQ((*r)["spec"]["size"], 4);
}

TEST(ClusterManifest, AnythingElseNamesTheFileLineAndField) {
  EXPECT_EQ(errorOf("apiVersion: v1\nkind: ConfigMap\nmetadata: {name: x}\n"),
            "c.yaml:2: kind: expected RedisCluster, got \"ConfigMap\"");
  EXPECT_EQ(errorOf("apiVersion: redis.kun/v1\nkind: RedisCluster\nmetadata: {name: x}\n"),
            "c.yaml:1: apiVersion: expected redis.kun/v1beta1, got \"redis.kun/v1\"");
  EXPECT_NE(errorOf("apiVersion: redis.kun/v1beta1\nkind: RedisCluster\nmetadata: {}\n").find("metadata.name"),
            std::string::npos);
  EXPECT_NE(errorOf("kind: [\n").find("c.yaml:2: not valid YAML"), std::string::npos);
  EXPECT_EQ(errorOf("apiVersion: redis.kun/v1beta1\nkind: RedisCluster\nmetadata: {name: x}\nspec: {size: three}\n"),
            "c.yaml: spec.size: must be a 32-bit integer");
}

TEST(ClusterManifest, ASpecTheOperatorWouldRefuseIsToldOnce) {
  const auto e = errorOf(
      "apiVersion: redis.kun/v1beta1\nkind: RedisCluster\nmetadata: {name: x}\n"
      "spec: {size: 1, sentinel: {customConfig: [\"quorum 2\"]}}\n");
  EXPECT_EQ(e.rfind("c.yaml: the operator would refuse this cluster: spec.size: ", 0), 0u) << e;
  EXPECT_NE(e.find("spec.sentinel.customConfig[0]: quorum is managed by the operator"), std::string::npos) << e;
}

TEST(ClusterManifest, AFileThatCannotBeRead) {
  auto r = readClusterManifestFile("/nonexistent/c.yaml");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().message, "/nonexistent/c.yaml: cannot be read");
}

}  // namespace
}  // namespace kun::scenario
