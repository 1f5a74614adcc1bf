// Defaults: KUN's values for what the user left unset, never a change to what they set.
#include <gtest/gtest.h>

#include "core/api/redis_cluster_defaults.h"

namespace kun::api {
namespace {

using Config = std::map<std::string, std::string>;

TEST(RedisClusterDefaults, FillsKunDefaultsForAnEmptySpec) {
  const RedisClusterSpec s = withDefaults(RedisClusterSpec{});
  EXPECT_EQ(s.size, 3);
  EXPECT_EQ(s.sentinel.replicas, 3);
  EXPECT_EQ(s.image, "redis:5.0.4-alpine");
  EXPECT_EQ(s.sentinel.image, "redis:5.0.4-alpine");
  EXPECT_EQ(s.sentinel.resources,
            Object::parse(R"({"requests": {"cpu": "20m", "memory": "16Mi"},
                              "limits": {"cpu": "100m", "memory": "60Mi"}})"));
  EXPECT_FALSE(s.exporter.enabled);
  EXPECT_TRUE(s.exporter.image.empty());  // no exporter, no image
  EXPECT_TRUE(s.resources.is_null());     // redis resources stay the user's business
  const Config persistence{
      {"slave-priority", "1"},
      {"appendonly", "yes"},
      {"auto-aof-rewrite-min-size", "536870912"},
      {"auto-aof-rewrite-percentage", "100"},
      {"repl-backlog-size", "62914560"},
      {"repl-diskless-sync", "yes"},
      {"aof-load-truncated", "yes"},
      {"stop-writes-on-bgsave-error", "no"},
      {"save", "900 1 300 10"},
  };
  EXPECT_EQ(s.config, persistence);
}

TEST(RedisClusterDefaults, PersistenceDisabledTurnsAofAndSnapshotsOff) {
  RedisClusterSpec in;
  in.disablePersistence = true;
  const RedisClusterSpec s = withDefaults(in);
  EXPECT_EQ(s.config, (Config{{"slave-priority", "1"}, {"appendonly", "no"}, {"save", ""}}));
}

TEST(RedisClusterDefaults, KeepsEverythingTheUserSet) {
  RedisClusterSpec in;
  in.size = 5;
  in.image = "redis:7.2";
  in.sentinel.replicas = 5;
  in.sentinel.image = "redis:7.2-alpine";
  in.sentinel.resources = Object::parse(R"({"limits": {"memory": "128Mi"}})");
  in.exporter.enabled = true;
  in.exporter.image = "my/exporter:1";
  in.config = {{"appendonly", "no"}, {"save", "60 1000"}, {"repl-backlog-size", "1mb"},
               {"maxmemory", "2gb"}};
  const RedisClusterSpec s = withDefaults(in);
  EXPECT_EQ(s.size, 5);
  EXPECT_EQ(s.image, "redis:7.2");
  EXPECT_EQ(s.sentinel.replicas, 5);
  EXPECT_EQ(s.sentinel.image, "redis:7.2-alpine");
  EXPECT_EQ(s.sentinel.resources, in.sentinel.resources);  // partial resources are kept whole
  EXPECT_EQ(s.exporter.image, "my/exporter:1");
  EXPECT_EQ(s.config.at("appendonly"), "no");
  EXPECT_EQ(s.config.at("save"), "60 1000");
  EXPECT_EQ(s.config.at("repl-backlog-size"), "1mb");
  EXPECT_EQ(s.config.at("maxmemory"), "2gb");
  EXPECT_EQ(s.config.at("repl-diskless-sync"), "yes");  // absent ones still filled
}

TEST(RedisClusterDefaults, DoesNotTouchItsInput) {
  RedisCluster in;
  in.metadata["name"] = "c";
  in.spec.config["hz"] = "10";
  const RedisCluster before = in;
  const RedisCluster out = withDefaults(in);
  EXPECT_EQ(toObject(in), toObject(before));
  EXPECT_EQ(out.spec.size, 3);
  EXPECT_EQ(out.spec.config.at("hz"), "10");
  EXPECT_EQ(out.metadata, in.metadata);
}

TEST(RedisClusterDefaults, EnabledExporterGetsAnImage) {
  RedisClusterSpec in;
  in.exporter.enabled = true;
  EXPECT_EQ(withDefaults(in).exporter.image, defaults::kExporterImage);
}

TEST(RedisClusterDefaults, EmptySentinelResourceListsCountAsUnset) {
  RedisClusterSpec in;
  in.sentinel.resources = Object::parse(R"({"limits": {}, "requests": {}})");
  EXPECT_EQ(withDefaults(in).sentinel.resources["limits"]["memory"], "60Mi");
}

TEST(RedisClusterDefaults, UnnamedClaimGetsTheDataVolumeName) {
  RedisClusterSpec in;
  in.storage.persistentVolumeClaim = Object::parse(R"({"spec": {"accessModes": ["ReadWriteOnce"]}})");
  RedisClusterSpec s = withDefaults(in);
  EXPECT_EQ(s.storage.persistentVolumeClaim["metadata"]["name"], "redis-data");
  EXPECT_EQ(s.storage.persistentVolumeClaim["spec"]["accessModes"][0], "ReadWriteOnce");

  in.storage.persistentVolumeClaim["metadata"]["name"] = "mine";
  EXPECT_EQ(withDefaults(in).storage.persistentVolumeClaim["metadata"]["name"], "mine");
}

TEST(RedisClusterDefaults, AreIdempotent) {
  RedisClusterSpec in;
  in.config["hz"] = "20";
  const RedisClusterSpec once = withDefaults(in);
  EXPECT_EQ(toObject(withDefaults(once)), toObject(once));
}

}  // namespace
}  // namespace kun::api
