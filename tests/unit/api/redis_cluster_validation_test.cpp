// Validation: KUN's manifests pass; each unsafe spec is rejected with the field that is
// wrong and a message that says why.
#include <gtest/gtest.h>

#include "core/api/redis_cluster_defaults.h"
#include "core/api/redis_cluster_validation.h"

namespace kun::api {
namespace {

RedisCluster cluster(const char* json) {
  auto r = parseRedisCluster(Object::parse(json));
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
  return r.ok() ? std::move(r).value() : RedisCluster{};
}

RedisCluster named(std::string name) {
  RedisCluster rc;
  rc.metadata["name"] = std::move(name);
  return rc;
}

std::vector<std::string> fields(const std::vector<Error>& errs) {
  std::vector<std::string> out;
  for (const auto& e : errs) out.push_back(e.field);
  return out;
}

// The single error for rc, which must be about `field`; returns its message.
std::string onlyError(const RedisCluster& rc, const std::string& field) {
  const auto errs = validateRedisCluster(rc);
  EXPECT_EQ(fields(errs), std::vector<std::string>{field}) << formatFieldErrors(errs);
  for (const auto& e : errs) EXPECT_EQ(e.reason, Reason::Invalid);
  return errs.size() == 1 ? errs[0].message : std::string();
}

TEST(RedisClusterValidation, AcceptsKunReadmeManifests) {
  const char* manifests[] = {
      R"({"metadata": {"name": "test", "annotations": {"redis.kun/scope": "cluster-scoped"}},
          "spec": {"size": 3}})",
      R"({"metadata": {"name": "test", "namespace": "default"},
          "spec": {"password": "asdfsdf", "size": 3, "image": "redis:5.0.4-alpine",
                   "config": {"hz": "10", "loglevel": "verbose", "maxclients": "10000"},
                   "resources": {"limits": {"cpu": "400m", "memory": "300Mi"}}}})",
      R"({"metadata": {"name": "test"},
          "spec": {"size": 3, "storage": {"keepAfterDeletion": true,
                   "persistentVolumeClaim": {"metadata": {"name": "test"},
                     "spec": {"accessModes": ["ReadWriteOnce"],
                              "resources": {"requests": {"storage": "1Gi"}}}}}}})",
      R"({"metadata": {"name": "test"},
          "spec": {"size": 3, "securityContext": {"sysctls": [
                     {"name": "net.core.somaxconn", "value": "1024"}]}}})",
      R"({"metadata": {"name": "test"}, "spec": {}})",
  };
  for (const char* m : manifests) {
    const auto errs = validateRedisCluster(cluster(m));
    EXPECT_TRUE(errs.empty()) << m << "\n" << formatFieldErrors(errs);
  }
}

TEST(RedisClusterValidation, AcceptsAFullyTunedCluster) {
  RedisCluster rc = cluster(R"({
    "metadata": {"name": "cache-eu-1"},
    "spec": {
      "size": 5, "image": "redis:7.2", "imagePullPolicy": "IfNotPresent",
      "password": "p@ss w\"rd'with$odd&chars", "shutdownConfigMap": "my.shutdown",
      "exporter": {"enabled": true, "image": "oliver006/redis_exporter:v1.50.0"},
      "nodeSelector": {"kubernetes.io/os": "linux"},
      "annotations": {"example.com/team": "cache"},
      "config": {"maxmemory": "2gb", "maxmemory-policy": "allkeys-lru", "save": "",
                 "appendonly": "no", "notify-keyspace-events": "Ex"},
      "sentinel": {"replicas": 5, "imagePullPolicy": "Always",
                   "customConfig": ["down-after-milliseconds 5000", "failover-timeout 10000",
                                    "parallel-syncs 1", "master-reboot-down-after-period 0"]}
    }})");
  const auto errs = validateRedisCluster(rc);
  EXPECT_TRUE(errs.empty()) << formatFieldErrors(errs);
}

TEST(RedisClusterValidation, DefaultedSpecsAreNotValidatedAgain) {
  // The defaults set slave-priority, which users may not: validate before defaulting.
  const RedisCluster rc = withDefaults(named("c"));
  EXPECT_FALSE(validateRedisCluster(rc).empty());
}

TEST(RedisClusterValidation, NameLimits) {
  EXPECT_TRUE(validateRedisCluster(named(std::string(37, 'a'))).empty());
  // KUN allows up to 48, but redis-sentinel-<38 chars> cannot create pods.
  std::string msg = onlyError(named(std::string(38, 'a')), "metadata.name");
  EXPECT_NE(msg.find("37"), std::string::npos) << msg;
  EXPECT_NE(msg.find("controller-revision-hash"), std::string::npos) << msg;
  onlyError(named(std::string(49, 'a')), "metadata.name");
  onlyError(named(""), "metadata.name");
  onlyError(named("Upper"), "metadata.name");
  onlyError(named("has.dot"), "metadata.name");  // fine for the CR, not for its Services
  onlyError(named("-lead"), "metadata.name");
}

TEST(RedisClusterValidation, Sizes) {
  RedisCluster rc = named("c");
  for (int ok : {0, 3, 4, 5, 101}) {
    rc.spec.size = ok;
    EXPECT_TRUE(validateRedisCluster(rc).empty()) << ok;
  }
  for (int bad : {1, 2, -1}) {
    rc.spec.size = bad;
    const std::string msg = onlyError(rc, "spec.size");
    EXPECT_FALSE(msg.empty()) << bad;
  }
  rc.spec.size = 2;
  EXPECT_NE(onlyError(rc, "spec.size").find("at least 3"), std::string::npos);
}

// A StatefulSet with a resource value that is not a quantity is refused by the API server,
// after the operator took the spec: so the spec is refused first, naming the value.
TEST(RedisClusterValidation, ResourcesAreQuantities) {
  RedisCluster rc = named("c");
  rc.spec.resources = Object{{"requests", {{"cpu", "500m"}, {"memory", "1.5Gi"}}}, {"limits", {{"cpu", 2}}}};
  rc.spec.sentinel.resources = Object{{"limits", {{"memory", "128Mi"}, {"ephemeral-storage", "1e9"}}}};
  EXPECT_TRUE(validateRedisCluster(rc).empty()) << formatFieldErrors(validateRedisCluster(rc));
  rc.spec.resources = Object{{"requests", {{"cpu", "lots"}}}};
  EXPECT_NE(onlyError(rc, "spec.resources.requests.cpu").find("lots"), std::string::npos);
  rc.spec.resources = Object{{"limits", {{"memory", "-1Gi"}}}};
  EXPECT_NE(onlyError(rc, "spec.resources.limits.memory").find("negative"), std::string::npos);
  rc.spec.resources = Object{{"limits", "2"}};
  (void)onlyError(rc, "spec.resources.limits");
  rc.spec.resources = nullptr;
  rc.spec.sentinel.resources = Object{{"requests", {{"cpu", "1x"}}}};
  (void)onlyError(rc, "spec.sentinel.resources.requests.cpu");
}

TEST(RedisClusterValidation, SentinelReplicas) {
  RedisCluster rc = named("c");
  for (int ok : {0, 3, 4, 5, 6, 7}) {  // even counts are accepted (see the .cpp)
    rc.spec.sentinel.replicas = ok;
    EXPECT_TRUE(validateRedisCluster(rc).empty()) << ok;
  }
  for (int bad : {1, 2, -3}) {
    rc.spec.sentinel.replicas = bad;
    onlyError(rc, "spec.sentinel.replicas");
  }
  rc.spec.sentinel.replicas = 2;
  EXPECT_NE(onlyError(rc, "spec.sentinel.replicas").find("majority"), std::string::npos);
}

TEST(RedisClusterValidation, ConfigKeysTheOperatorOwnsAreRejected) {
  const char* owned[] = {"port", "bind", "dir", "dbfilename", "daemonize", "replicaof", "slaveof",
                         "include", "rename-command", "logfile", "pidfile", "unixsocket",
                         "appendfilename", "cluster-enabled", "protected-mode", "requirepass",
                         "masterauth", "slave-priority", "replica-priority",
                         "replica-announce-ip", "loadmodule"};
  for (const char* key : owned) {
    RedisCluster rc = named("c");
    rc.spec.config[key] = "x";
    const std::string msg = onlyError(rc, std::string("spec.config.") + key);
    EXPECT_FALSE(msg.empty()) << key;
  }
  RedisCluster rc = named("c");
  rc.spec.config["port"] = "6380";
  EXPECT_EQ(formatFieldErrors(validateRedisCluster(rc))
                .rfind("spec.config.port: is managed by the operator and cannot be set", 0),
            0u);
  rc.spec.config.clear();
  rc.spec.config["requirepass"] = "x";
  EXPECT_NE(onlyError(rc, "spec.config.requirepass").find("spec.password"), std::string::npos);
}

TEST(RedisClusterValidation, EveryListedOwnedKeyIsRejected) {
  ASSERT_FALSE(operatorOwnedRedisConfig().empty());
  for (std::string_view key : operatorOwnedRedisConfig()) {
    RedisCluster rc = named("c");
    rc.spec.config[std::string(key)] = "1";
    onlyError(rc, "spec.config." + std::string(key));
  }
  for (std::string_view option : allowedSentinelOptions()) {
    RedisCluster rc = named("c");
    rc.spec.sentinel.customConfig = {std::string(option) + " 1000"};
    EXPECT_TRUE(validateRedisCluster(rc).empty()) << option;
  }
}

TEST(RedisClusterValidation, MalformedConfigKeysAreRejected) {
  RedisCluster rc = named("c");
  rc.spec.config["MaxMemory"] = "1gb";
  onlyError(rc, "spec.config.MaxMemory");
  rc.spec.config.clear();
  rc.spec.config["maxmemory 1gb\nport"] = "6380";
  const auto errs = validateRedisCluster(rc);
  ASSERT_EQ(errs.size(), 1u);
  // The path escapes the newline instead of carrying it into a log line or an Event.
  EXPECT_EQ(errs[0].field, "spec.config[\"maxmemory 1gb\\x0aport\"]");
  rc.spec.config.clear();
  rc.spec.config[""] = "x";
  onlyError(rc, "spec.config");
}

TEST(RedisClusterValidation, ControlCharactersInValuesAreRejected) {
  for (const char* v : {"1gb\nport 6380", "a\rb", "tab\there", "del\x7f", "\x01"}) {
    RedisCluster rc = named("c");
    rc.spec.config["maxmemory"] = v;
    EXPECT_NE(onlyError(rc, "spec.config.maxmemory").find("newlines"), std::string::npos);
  }
  RedisCluster rc = named("c");
  rc.spec.config["maxmemory"] = std::string("nul\0x", 5);
  onlyError(rc, "spec.config.maxmemory");
}

TEST(RedisClusterValidation, PasswordsWithControlCharactersAreRejected) {
  for (std::string pw : {std::string("pw\nrequirepass other"), std::string("pw\r"),
                         std::string("p\0w", 3), std::string("\x1b[2J")}) {
    RedisCluster rc = named("c");
    rc.spec.password = pw;
    onlyError(rc, "spec.password");
  }
  RedisCluster rc = named("c");
  rc.spec.password = "spaces and 'quotes' \"are\" fine: ünïcödé";
  EXPECT_TRUE(validateRedisCluster(rc).empty());
}

TEST(RedisClusterValidation, PersistenceContradictionsAreRejected) {
  RedisCluster rc = named("c");
  rc.spec.disablePersistence = true;
  rc.spec.config["appendonly"] = "yes";
  EXPECT_NE(onlyError(rc, "spec.config.appendonly").find("disablePersistence"), std::string::npos);
  rc.spec.config = {{"save", "900 1"}};
  onlyError(rc, "spec.config.save");
  rc.spec.config = {{"save", ""}, {"appendonly", "no"}};
  EXPECT_TRUE(validateRedisCluster(rc).empty());
  rc.spec.disablePersistence = false;
  rc.spec.config = {{"save", "900 1"}, {"appendonly", "yes"}};
  EXPECT_TRUE(validateRedisCluster(rc).empty());
}

TEST(RedisClusterValidation, SentinelCustomConfig) {
  struct Case {
    const char* entry;
    const char* needle;  // in the message; nullptr = accepted
  };
  const Case cases[] = {
      {"down-after-milliseconds 5000", nullptr},
      {"failover-timeout 10000", nullptr},
      {"parallel-syncs 2", nullptr},
      {"Down-After-Milliseconds 100", nullptr},  // Sentinel options are case-insensitive
      {"down-after-milliseconds", "<option> <value>"},
      {" 5000", "<option> <value>"},
      {"down-after-milliseconds ", "<option> <value>"},
      {"down-after-milliseconds five", "integer"},
      {"down-after-milliseconds 0", "at least 1"},
      {"parallel-syncs -1", "at least 1"},
      {"monitor mymaster 10.0.0.1 6379 2", "managed by the operator"},
      {"auth-pass secret", "spec.password"},
      {"quorum 1", "managed by the operator"},
      {"known-replica 10.0.0.2 6379", "managed by the operator"},
      {"known-sentinel 10.0.0.3 26379 abc", "managed by the operator"},
      {"notification-script /tmp/x.sh", "script"},
      {"client-reconfig-script /tmp/x.sh", "script"},
      {"rename-command CONFIG GUESSME", "commands it issues"},
      {"deny-scripts-reconfig no", "not a Sentinel option"},
      {"down-after-milliseconds 5000\nsentinel monitor evil 1.2.3.4 6379 1", "newlines"},
  };
  for (const auto& c : cases) {
    RedisCluster rc = named("c");
    rc.spec.sentinel.customConfig = {c.entry};
    if (!c.needle) {
      EXPECT_TRUE(validateRedisCluster(rc).empty()) << c.entry;
      continue;
    }
    const std::string msg = onlyError(rc, "spec.sentinel.customConfig[0]");
    EXPECT_NE(msg.find(c.needle), std::string::npos) << c.entry << " -> " << msg;
  }
}

TEST(RedisClusterValidation, SentinelCustomConfigDuplicatesPointAtTheFirst) {
  RedisCluster rc = named("c");
  rc.spec.sentinel.customConfig = {"failover-timeout 1000", "parallel-syncs 1",
                                   "failover-timeout 2000"};
  EXPECT_NE(onlyError(rc, "spec.sentinel.customConfig[2]").find("customConfig[0]"),
            std::string::npos);
}

TEST(RedisClusterValidation, ImagesPullPoliciesAndKubernetesNames) {
  RedisCluster rc = named("c");
  rc.spec.imagePullPolicy = "Sometimes";
  onlyError(rc, "spec.imagePullPolicy");
  rc = named("c");
  rc.spec.sentinel.imagePullPolicy = "always";
  onlyError(rc, "spec.sentinel.imagePullPolicy");
  rc = named("c");
  rc.spec.exporter.imagePullPolicy = "x";
  onlyError(rc, "spec.exporter.imagePullPolicy");
  rc = named("c");
  rc.spec.image = "redis:7 --protected-mode no";
  onlyError(rc, "spec.image");
  rc = named("c");
  rc.spec.sentinel.image = "redis\n";
  onlyError(rc, "spec.sentinel.image");
  rc = named("c");
  rc.spec.exporter.enabled = true;
  rc.spec.exporter.image = "a b";
  onlyError(rc, "spec.exporter.image");
  rc = named("c");
  rc.spec.shutdownConfigMap = "Not_A_Name";
  onlyError(rc, "spec.shutdownConfigMap");
  rc = named("c");
  rc.spec.storage.persistentVolumeClaim = Object::parse(R"({"metadata": {"name": "Data_1"}})");
  onlyError(rc, "spec.storage.persistentVolumeClaim.metadata.name");
  rc = named("c");
  rc.spec.nodeSelector["bad key!"] = "v";
  onlyError(rc, "spec.nodeSelector[\"bad key!\"]");
  rc = named("c");
  rc.spec.sentinel.nodeSelector["zone"] = "not a value";
  onlyError(rc, "spec.sentinel.nodeSelector.zone");
  rc = named("c");
  rc.spec.annotations["/empty-prefix"] = "v";
  onlyError(rc, "spec.annotations[\"/empty-prefix\"]");
  rc = named("c");
  rc.spec.sentinel.annotations["ok.example.com/key"] = "any value\nat all";
  EXPECT_TRUE(validateRedisCluster(rc).empty());
}

TEST(RedisClusterValidation, ReportsEveryProblemInAStableOrder) {
  RedisCluster rc = named("Bad_Name");
  rc.spec.size = 1;
  rc.spec.password = "a\nb";
  rc.spec.config = {{"port", "1"}, {"dir", "/tmp"}};
  rc.spec.sentinel.replicas = 1;
  rc.spec.sentinel.customConfig = {"quorum 1"};
  const auto errs = validateRedisCluster(rc);
  EXPECT_EQ(fields(errs),
            (std::vector<std::string>{"metadata.name", "spec.size", "spec.password",
                                      "spec.config.dir", "spec.config.port",
                                      "spec.sentinel.replicas", "spec.sentinel.customConfig[0]"}));
  EXPECT_EQ(validateRedisClusterSpec(rc.spec).size(), errs.size() - 1);
  const std::string all = formatFieldErrors(errs);
  EXPECT_EQ(all.find("metadata.name: "), 0u) << all;
  EXPECT_NE(all.find("; spec.size: "), std::string::npos) << all;
  // The password itself is never echoed in a message.
  EXPECT_EQ(all.find("a\nb"), std::string::npos);
}

}  // namespace
}  // namespace kun::api
