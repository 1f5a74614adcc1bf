// Parsing and serializing RedisCluster: the KUN operator's documented manifests parse into
// the expected values, unknown fields survive at every level, type errors name the field.
#include <gtest/gtest.h>

#include "core/api/redis_cluster_types.h"

namespace kun::api {
namespace {

// KUN's README: the basic cluster, written for the cluster-scoped operator.
const Object kKunBasic = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "test", "annotations": {"redis.kun/scope": "cluster-scoped"}},
  "spec": {"size": 3}
})");

// KUN's README: password, custom config, image and resources.
const Object kKunPassword = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "test", "namespace": "default",
               "annotations": {"redis.kun/scope": "cluster-scoped"}},
  "spec": {
    "password": "asdfsdf",
    "config": {"hz": "10", "loglevel": "verbose", "maxclients": "10000"},
    "image": "redis:5.0.4-alpine",
    "resources": {"limits": {"cpu": "400m", "memory": "300Mi"},
                  "requests": {"cpu": "100m", "memory": "50Mi"}},
    "size": 3
  }
})");

// KUN's README: persistence with a kept PVC.
const Object kKunPersistence = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "test", "namespace": "default"},
  "spec": {
    "image": "redis:5.0.4-alpine",
    "size": 3,
    "storage": {
      "keepAfterDeletion": true,
      "persistentVolumeClaim": {
        "metadata": {"name": "test"},
        "spec": {"accessModes": ["ReadWriteOnce"],
                 "resources": {"requests": {"storage": "1Gi"}},
                 "storageClassName": "sc-rbd-x5",
                 "volumeMode": "Filesystem"}
      }
    }
  }
})");

// KUN's README: unsafe sysctl through the pod security context.
const Object kKunSecurityContext = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "test"},
  "spec": {"size": 3,
           "securityContext": {"sysctls": [{"name": "net.core.somaxconn", "value": "1024"}]}}
})");

// Every field of the wire format set, as the API server would return it.
const Object kEverything = Object::parse(R"({
  "apiVersion": "redis.kun/v1beta1",
  "kind": "RedisCluster",
  "metadata": {"name": "full", "namespace": "ns", "generation": 7, "uid": "u-1"},
  "spec": {
    "size": 5,
    "resources": {"requests": {"cpu": "1"}},
    "image": "redis:7.2",
    "imagePullPolicy": "IfNotPresent",
    "imagePullSecrets": [{"name": "regcred"}],
    "command": ["redis-server", "/etc/redis.conf"],
    "shutdownConfigMap": "my-shutdown",
    "storage": {"keepAfterDeletion": true, "emptyDir": {"medium": "Memory"},
                "persistentVolumeClaim": {"metadata": {"name": "data"}}},
    "password": "s3cret",
    "exporter": {"enabled": true, "image": "exp:1", "imagePullPolicy": "Always"},
    "affinity": {"nodeAffinity": {}},
    "securityContext": {"runAsUser": 999},
    "toleRations": [{"key": "dedicated", "operator": "Exists"}],
    "nodeSelector": {"disk": "ssd"},
    "config": {"maxmemory": "1gb"},
    "annotations": {"team": "cache"},
    "disablePersistence": true,
    "sentinel": {
      "image": "redis:7.2-sentinel",
      "imagePullPolicy": "Never",
      "imagePullSecrets": [{"name": "s-regcred"}],
      "replicas": 5,
      "resources": {"limits": {"memory": "64Mi"}},
      "customConfig": ["down-after-milliseconds 5000"],
      "command": ["redis-sentinel"],
      "affinity": {"podAntiAffinity": {}},
      "securityContext": {"fsGroup": 1000},
      "tolerations": [{"key": "sentinel", "operator": "Exists"}],
      "nodeSelector": {"zone": "a"},
      "annotations": {"s": "1"}
    }
  },
  "status": {
    "conditions": [{"type": "Healthy", "status": "True", "lastUpdateTime": "2026-01-01T00:00:05Z",
                    "lastTransitionTime": "2026-01-01T00:00:00Z", "reason": "Cluster available",
                    "message": "Cluster ok"}],
    "masterIP": "10.0.0.5",
    "sentinelIP": "10.96.0.9",
    "observedGeneration": 7
  }
})");

RedisCluster parsed(const Object& o) {
  auto r = parseRedisCluster(o);
  EXPECT_TRUE(r.ok()) << (r.ok() ? "" : r.error().toString());
  return r.ok() ? std::move(r).value() : RedisCluster{};
}

TEST(RedisClusterTypes, ParsesKunBasicManifest) {
  RedisCluster rc = parsed(kKunBasic);
  EXPECT_EQ(rc.name(), "test");
  EXPECT_EQ(rc.apiVersion, "redis.kun/v1beta1");
  EXPECT_EQ(rc.kind, "RedisCluster");
  EXPECT_EQ(rc.spec.size, 3);
  EXPECT_EQ(rc.spec.sentinel.replicas, 0);  // unset: defaults decide
  EXPECT_TRUE(rc.spec.image.empty());
  EXPECT_EQ(rc.metadata["annotations"][std::string(kScopeAnnotation)], kScopeClusterScoped);
}

TEST(RedisClusterTypes, ParsesKunPasswordAndConfigManifest) {
  RedisCluster rc = parsed(kKunPassword);
  EXPECT_EQ(rc.namespaceOf(), "default");
  EXPECT_EQ(rc.spec.password, "asdfsdf");
  const std::map<std::string, std::string> want{
      {"hz", "10"}, {"loglevel", "verbose"}, {"maxclients", "10000"}};
  EXPECT_EQ(rc.spec.config, want);
  EXPECT_EQ(rc.spec.image, "redis:5.0.4-alpine");
  EXPECT_EQ(rc.spec.resources["limits"]["memory"], "300Mi");
}

TEST(RedisClusterTypes, ParsesKunPersistenceManifest) {
  RedisCluster rc = parsed(kKunPersistence);
  EXPECT_TRUE(rc.spec.storage.keepAfterDeletion);
  EXPECT_TRUE(rc.spec.storage.emptyDir.is_null());
  ASSERT_TRUE(rc.spec.storage.persistentVolumeClaim.is_object());
  EXPECT_EQ(rc.spec.storage.persistentVolumeClaim["metadata"]["name"], "test");
  EXPECT_EQ(rc.spec.storage.persistentVolumeClaim["spec"]["storageClassName"], "sc-rbd-x5");
  EXPECT_FALSE(rc.spec.disablePersistence);
}

TEST(RedisClusterTypes, ParsesKunSecurityContextManifest) {
  RedisCluster rc = parsed(kKunSecurityContext);
  EXPECT_EQ(rc.spec.securityContext["sysctls"][0]["name"], "net.core.somaxconn");
}

TEST(RedisClusterTypes, ParsesEveryField) {
  RedisCluster rc = parsed(kEverything);
  const RedisClusterSpec& s = rc.spec;
  EXPECT_EQ(rc.generation(), 7);
  EXPECT_EQ(s.size, 5);
  EXPECT_EQ(s.imagePullPolicy, "IfNotPresent");
  EXPECT_EQ(s.imagePullSecrets[0]["name"], "regcred");
  EXPECT_EQ(s.command, (std::vector<std::string>{"redis-server", "/etc/redis.conf"}));
  EXPECT_EQ(s.shutdownConfigMap, "my-shutdown");
  EXPECT_EQ(s.storage.emptyDir["medium"], "Memory");
  EXPECT_TRUE(s.exporter.enabled);
  EXPECT_EQ(s.exporter.image, "exp:1");
  EXPECT_EQ(s.exporter.imagePullPolicy, "Always");
  EXPECT_EQ(s.tolerations[0]["key"], "dedicated");  // from "toleRations"
  EXPECT_EQ(s.nodeSelector.at("disk"), "ssd");
  EXPECT_EQ(s.annotations.at("team"), "cache");
  EXPECT_TRUE(s.disablePersistence);
  EXPECT_EQ(s.sentinel.image, "redis:7.2-sentinel");
  EXPECT_EQ(s.sentinel.imagePullPolicy, "Never");
  EXPECT_EQ(s.sentinel.replicas, 5);
  EXPECT_EQ(s.sentinel.customConfig, (std::vector<std::string>{"down-after-milliseconds 5000"}));
  EXPECT_EQ(s.sentinel.command, (std::vector<std::string>{"redis-sentinel"}));
  EXPECT_EQ(s.sentinel.tolerations[0]["key"], "sentinel");  // from "tolerations"
  EXPECT_EQ(s.sentinel.nodeSelector.at("zone"), "a");
  EXPECT_EQ(s.sentinel.annotations.at("s"), "1");
  ASSERT_EQ(rc.status.conditions.size(), 1u);
  const Condition& c = rc.status.conditions[0];
  EXPECT_EQ(c.type, "Healthy");
  EXPECT_EQ(c.status, "True");
  EXPECT_EQ(c.reason, "Cluster available");
  EXPECT_EQ(c.message, "Cluster ok");
  EXPECT_EQ(c.lastUpdateTime, "2026-01-01T00:00:05Z");
  EXPECT_EQ(c.lastTransitionTime, "2026-01-01T00:00:00Z");
  EXPECT_EQ(rc.status.masterIP, "10.0.0.5");
  EXPECT_EQ(rc.status.sentinelIP, "10.96.0.9");
  EXPECT_EQ(rc.status.observedGeneration, 7);
  EXPECT_EQ(findCondition(rc.status, "Healthy"), &rc.status.conditions[0]);
  EXPECT_EQ(findCondition(rc.status, "Failed"), nullptr);
}

TEST(RedisClusterTypes, UnchangedObjectsSerializeToThemselves) {
  for (const Object* o : {&kKunBasic, &kKunPassword, &kKunPersistence, &kKunSecurityContext,
                          &kEverything}) {
    EXPECT_EQ(toObject(parsed(*o)), *o) << o->dump();
  }
}

TEST(RedisClusterTypes, WritesTypedFieldsWithTheirWireNames) {
  RedisCluster rc;
  rc.metadata["name"] = "fresh";
  rc.spec.size = 3;
  rc.spec.tolerations = Object::array({{{"key", "k"}, {"operator", "Exists"}}});
  rc.spec.sentinel.tolerations = Object::array({{{"key", "s"}, {"operator", "Exists"}}});
  rc.spec.sentinel.replicas = 3;
  rc.status.observedGeneration = 2;
  Object o = toObject(rc);
  EXPECT_EQ(o["apiVersion"], "redis.kun/v1beta1");
  EXPECT_EQ(o["kind"], "RedisCluster");
  EXPECT_EQ(o["spec"]["toleRations"][0]["key"], "k");
  EXPECT_FALSE(o["spec"].contains("tolerations"));
  EXPECT_EQ(o["spec"]["sentinel"]["tolerations"][0]["key"], "s");
  EXPECT_FALSE(o["spec"]["sentinel"].contains("toleRations"));
  EXPECT_EQ(o["status"]["observedGeneration"], 2);
  // Zero values are omitted, as KUN's omitempty does.
  EXPECT_FALSE(o["spec"].contains("password"));
  EXPECT_FALSE(o["spec"].contains("disablePersistence"));
  EXPECT_FALSE(o["spec"].contains("storage"));
  EXPECT_FALSE(o["spec"].contains("exporter"));
  EXPECT_FALSE(o["spec"].contains("config"));
}

TEST(RedisClusterTypes, ClearingAFieldRemovesItOrKeepsTheExplicitZero) {
  RedisCluster rc = parsed(kEverything);
  rc.spec.password.clear();           // explicit in the original: written as ""
  rc.spec.storage.emptyDir = nullptr;  // JSON pass-through: null removes it
  rc.spec.sentinel.customConfig.clear();
  rc.status.conditions.clear();
  Object o = toObject(rc);
  EXPECT_EQ(o["spec"]["password"], "");
  EXPECT_FALSE(o["spec"]["storage"].contains("emptyDir"));
  EXPECT_EQ(o["spec"]["sentinel"]["customConfig"], Object::array());
  EXPECT_EQ(o["status"]["conditions"], Object::array());
  // And the result parses back to the same values.
  RedisCluster again = parsed(o);
  EXPECT_TRUE(again.spec.password.empty());
  EXPECT_TRUE(again.spec.storage.emptyDir.is_null());
  EXPECT_TRUE(again.status.conditions.empty());
}

TEST(RedisClusterTypes, NullKnownFieldsReadAsUnsetAndStayNull) {
  // KUN's README: "custom password (null to disable)".
  Object o = kKunBasic;
  o["spec"]["password"] = nullptr;
  o["spec"]["sentinel"] = nullptr;
  RedisCluster rc = parsed(o);
  EXPECT_TRUE(rc.spec.password.empty());
  EXPECT_EQ(rc.spec.sentinel.replicas, 0);
  EXPECT_EQ(toObject(rc), o);
  // A value given to a field carried over as null replaces the null.
  rc.spec.password = "now";
  rc.spec.size = 4;
  Object written = toObject(rc);
  EXPECT_EQ(written["spec"]["password"], "now");
  EXPECT_EQ(written["spec"]["size"], 4);
}

// Adds an unknown field to every object the typed structs model.
Object withUnknownEverywhere(Object o) {
  o["x-top"] = "top";
  o["metadata"]["x-meta"] = 1;
  Object& spec = o["spec"];
  spec["futureField"] = {{"nested", {1, 2, 3}}};
  spec["storage"]["x-storage"] = true;
  spec["exporter"]["port"] = 9121;
  spec["sentinel"]["x-sentinel"] = "s";
  spec["resources"]["claims"] = Object::array({{{"name", "gpu"}}});
  spec["sentinel"]["resources"]["x-res"] = "r";
  spec["storage"]["persistentVolumeClaim"]["spec"]["dataSourceRef"] = {{"kind", "Snap"}};
  o["status"]["x-status"] = {{"a", "b"}};
  o["status"]["conditions"][0]["observedGeneration"] = 6;
  return o;
}

TEST(RedisClusterTypes, UnknownFieldsSurviveAtEveryLevelThroughParseModifySerialize) {
  const Object input = withUnknownEverywhere(kEverything);
  RedisCluster rc = parsed(input);
  // Modify something at every level.
  rc.spec.size = 7;
  rc.spec.storage.keepAfterDeletion = false;
  rc.spec.exporter.image = "exp:2";
  rc.spec.sentinel.replicas = 7;
  rc.spec.config["maxmemory-policy"] = "allkeys-lru";
  rc.status.masterIP = "10.0.0.6";
  rc.status.conditions[0].status = "False";
  Condition added;
  added.type = "Scaling";
  added.status = "True";
  rc.status.conditions.push_back(added);

  Object out = toObject(rc);
  Object want = input;
  want["spec"]["size"] = 7;
  want["spec"]["storage"]["keepAfterDeletion"] = false;
  want["spec"]["exporter"]["image"] = "exp:2";
  want["spec"]["sentinel"]["replicas"] = 7;
  want["spec"]["config"]["maxmemory-policy"] = "allkeys-lru";
  want["status"]["masterIP"] = "10.0.0.6";
  want["status"]["conditions"][0]["status"] = "False";
  want["status"]["conditions"].push_back({{"type", "Scaling"}, {"status", "True"}});
  EXPECT_EQ(out, want) << "diff: " << Object::diff(want, out).dump();
}

TEST(RedisClusterTypes, SpecAndStatusSerializeOnTheirOwn) {
  RedisCluster rc = parsed(withUnknownEverywhere(kEverything));
  auto status = parseRedisClusterStatus(toObject(rc.status));
  ASSERT_TRUE(status.ok());
  EXPECT_EQ(toObject(*status)["x-status"]["a"], "b");
  auto spec = parseRedisClusterSpec(toObject(rc.spec));
  ASSERT_TRUE(spec.ok());
  EXPECT_EQ(toObject(*spec)["futureField"]["nested"][2], 3);
}

struct BadType {
  const char* pointer;  // JSON pointer to overwrite
  Object value;
  const char* field;    // expected error field
};

TEST(RedisClusterTypes, WrongTypesAreRejectedWithTheFieldPath) {
  const BadType cases[] = {
      {"/spec/size", "3", "spec.size"},
      {"/spec/size", 3.5, "spec.size"},
      {"/spec/size", 4294967296LL, "spec.size"},
      {"/spec/password", 1234, "spec.password"},
      {"/spec/disablePersistence", "true", "spec.disablePersistence"},
      {"/spec/config", Object{{"hz", 10}}, "spec.config.hz"},
      {"/spec/command", Object::array({"redis-server", 1}), "spec.command[1]"},
      {"/spec/toleRations", Object{{"key", "k"}}, "spec.toleRations"},
      {"/spec/storage", "big", "spec.storage"},
      {"/spec/storage/emptyDir", Object::array(), "spec.storage.emptyDir"},
      {"/spec/exporter/enabled", "yes", "spec.exporter.enabled"},
      {"/spec/sentinel/replicas", "3", "spec.sentinel.replicas"},
      {"/spec/sentinel/customConfig", "down-after-milliseconds 5", "spec.sentinel.customConfig"},
      {"/spec/sentinel/nodeSelector", Object{{"zone", true}}, "spec.sentinel.nodeSelector.zone"},
      {"/status/conditions/0", "Healthy", "status.conditions[0]"},
      {"/status/conditions/0/status", true, "status.conditions[0].status"},
      {"/status/observedGeneration", "7", "status.observedGeneration"},
      {"/spec", Object::array(), "spec"},
  };
  for (const auto& c : cases) {
    Object o = kEverything;
    o[Object::json_pointer(c.pointer)] = c.value;
    auto r = parseRedisCluster(o);
    ASSERT_FALSE(r.ok()) << c.pointer;
    EXPECT_EQ(r.error().reason, Reason::Invalid) << c.pointer;
    EXPECT_EQ(r.error().field, c.field) << c.pointer;
    EXPECT_FALSE(r.error().message.empty()) << c.pointer;
  }
}

TEST(RedisClusterTypes, ParsingASharedObjectDoesNotCopyIt) {
  const auto shared = std::make_shared<const Object>(withUnknownEverywhere(kEverything));
  auto r = parseRedisCluster(shared);
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->original.get(), shared.get());
  EXPECT_EQ(r->spec.original.get(), &(*shared)["spec"]);
  EXPECT_EQ(r->spec.sentinel.original.get(), &(*shared)["spec"]["sentinel"]);
  EXPECT_EQ(r->status.conditions[0].original.get(), &(*shared)["status"]["conditions"][0]);
  // A copy of the struct is independent in its typed fields and serializes the same.
  RedisCluster copy = *r;
  copy.spec.size = 9;
  EXPECT_EQ(r->spec.size, 5);
  EXPECT_EQ(toObject(*r), *shared);
  EXPECT_EQ(toObject(copy)["spec"]["size"], 9);
  EXPECT_EQ(toObject(copy)["spec"]["futureField"], (*shared)["spec"]["futureField"]);
}

TEST(RedisClusterTypes, IntegralFloatsAreAcceptedAsIntegers) {
  Object o = kKunBasic;
  o["spec"]["size"] = 5.0;
  EXPECT_EQ(parsed(o).spec.size, 5);
}

TEST(RedisClusterTypes, NonObjectIsRejected) {
  EXPECT_FALSE(parseRedisCluster(Object::array()).ok());
  EXPECT_FALSE(parseRedisCluster(Object("x")).ok());
}

}  // namespace
}  // namespace kun::api
