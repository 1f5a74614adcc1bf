// The CRD: kind/crd.yaml and the C++ object are the same, the schema is structural (every
// opaque node preserves unknown fields), and it describes every field the types write.
#include <gtest/gtest.h>

#include <filesystem>
#include <fstream>
#include <regex>
#include <sstream>

#include <yaml-cpp/yaml.h>

#include "core/api/redis_cluster_crd.h"
#include "core/api/redis_cluster_types.h"
#include "core/kube/resource.h"

namespace kun::api {
namespace {

// YAML 1.2 core-schema resolution of plain scalars; quoted scalars stay strings.
Object yamlToJson(const YAML::Node& n) {
  switch (n.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Sequence: {
      Object a = Object::array();
      for (const auto& e : n) a.push_back(yamlToJson(e));
      return a;
    }
    case YAML::NodeType::Map: {
      Object o = Object::object();
      for (const auto& kv : n) o[kv.first.as<std::string>()] = yamlToJson(kv.second);
      return o;
    }
    case YAML::NodeType::Scalar: {
      const std::string s = n.Scalar();
      if (n.Tag() == "?") {
        if (s == "true") return true;
        if (s == "false") return false;
        if (s == "null" || s == "~") return nullptr;
        if (std::regex_match(s, std::regex("-?[0-9]+"))) return std::stoll(s);
      }
      return s;
    }
  }
  return nullptr;
}

Object loadCrdYaml() {
  const auto path = std::filesystem::path(__FILE__).parent_path() / "../../../kind/crd.yaml";
  std::ifstream in(path);
  EXPECT_TRUE(in.good()) << path;
  std::stringstream ss;
  ss << in.rdbuf();
  return yamlToJson(YAML::Load(ss.str()));
}

const Object& schema() {
  return redisClusterCrd()["spec"]["versions"][0]["schema"]["openAPIV3Schema"];
}

TEST(RedisClusterCrd, YamlManifestEqualsTheCppObject) {
  const Object yaml = loadCrdYaml();
  EXPECT_EQ(yaml, redisClusterCrd()) << Object::diff(redisClusterCrd(), yaml).dump(2);
}

TEST(RedisClusterCrd, NamesMatchTheResourceDescriptor) {
  const Object& crd = redisClusterCrd();
  EXPECT_EQ(crd["apiVersion"], "apiextensions.k8s.io/v1");
  EXPECT_EQ(crd["metadata"]["name"], "redisclusters.redis.kun");
  EXPECT_EQ(crd["spec"]["group"], res::redisclusters.group);
  EXPECT_EQ(crd["spec"]["names"]["plural"], res::redisclusters.plural);
  EXPECT_EQ(crd["spec"]["names"]["kind"], res::redisclusters.kind);
  EXPECT_EQ(crd["spec"]["scope"], "Namespaced");
  const Object& v = crd["spec"]["versions"][0];
  EXPECT_EQ(v["name"], res::redisclusters.version);
  EXPECT_TRUE(v["served"].get<bool>());
  EXPECT_TRUE(v["storage"].get<bool>());
  EXPECT_TRUE(v["subresources"].contains("status"));
  EXPECT_TRUE(res::redisclusters.statusSubresource);
}

// Structural-schema rules the API server enforces for v1 CRDs, and our rule that nothing
// is pruned: every node is typed; an object without a property list preserves its fields.
void checkStructural(const Object& node, const std::string& path) {
  ASSERT_TRUE(node.contains("type")) << path;
  const std::string type = node["type"];
  if (type == "object") {
    const bool props = node.contains("properties");
    const bool addl = node.contains("additionalProperties");
    EXPECT_FALSE(props && addl) << path;
    const bool preserve = node.value("x-kubernetes-preserve-unknown-fields", false);
    if (path != ".metadata") {
      EXPECT_TRUE(props ? preserve : (addl || preserve)) << path;
    }
    if (props)
      for (const auto& [k, v] : node["properties"].items()) checkStructural(v, path + "." + k);
    if (addl) checkStructural(node["additionalProperties"], path + ".*");
  } else if (type == "array") {
    ASSERT_TRUE(node.contains("items")) << path;
    checkStructural(node["items"], path + "[]");
  }
}

TEST(RedisClusterCrd, SchemaIsStructuralAndPrunesNothing) { checkStructural(schema(), ""); }

// Every value the typed model writes is described by the schema with a matching type.
void checkDescribed(const Object& value, const Object& node, const std::string& path) {
  if (value.is_null()) return;
  const std::string type = node.value("type", "");
  if (type == "string") {
    EXPECT_TRUE(value.is_string()) << path;
  } else if (type == "boolean") {
    EXPECT_TRUE(value.is_boolean()) << path;
  } else if (type == "integer") {
    EXPECT_TRUE(value.is_number_integer()) << path;
  } else if (type == "array") {
    ASSERT_TRUE(value.is_array()) << path;
    for (const auto& e : value) checkDescribed(e, node["items"], path + "[]");
  } else if (type == "object") {
    ASSERT_TRUE(value.is_object()) << path;
    if (node.contains("additionalProperties")) {
      for (const auto& [k, v] : value.items()) checkDescribed(v, node["additionalProperties"], path + "." + k);
    } else if (node.contains("properties")) {
      for (const auto& [k, v] : value.items()) {
        ASSERT_TRUE(node["properties"].contains(k)) << "not in the schema: " << path << "." << k;
        checkDescribed(v, node["properties"][k], path + "." + k);
      }
    }
  } else {
    ADD_FAILURE() << "untyped schema node at " << path;
  }
}

TEST(RedisClusterCrd, DescribesEveryFieldTheTypesWrite) {
  RedisCluster rc;
  rc.metadata["name"] = "c";
  RedisClusterSpec& s = rc.spec;
  s.size = 3;
  s.resources = Object::object();
  s.image = s.imagePullPolicy = s.shutdownConfigMap = s.password = "x";
  s.imagePullSecrets = Object::array({{{"name", "r"}}});
  s.command = {"a"};
  s.storage.keepAfterDeletion = true;
  s.storage.emptyDir = Object::object();
  s.storage.persistentVolumeClaim = Object::object();
  s.exporter.enabled = true;
  s.exporter.image = s.exporter.imagePullPolicy = "x";
  s.affinity = s.securityContext = Object::object();
  s.tolerations = Object::array({Object::object()});
  s.nodeSelector = s.config = s.annotations = {{"k", "v"}};
  s.disablePersistence = true;
  SentinelSettings& t = s.sentinel;
  t.image = t.imagePullPolicy = "x";
  t.imagePullSecrets = Object::array({{{"name", "r"}}});
  t.replicas = 3;
  t.resources = t.affinity = t.securityContext = Object::object();
  t.customConfig = t.command = {"a b"};
  t.tolerations = Object::array({Object::object()});
  t.nodeSelector = t.annotations = {{"k", "v"}};
  Condition c;
  c.type = c.status = c.lastUpdateTime = c.lastTransitionTime = c.reason = c.message = "x";
  rc.status.conditions = {c};
  rc.status.masterIP = rc.status.sentinelIP = "x";
  rc.status.observedGeneration = 1;

  const Object o = toObject(rc);
  // Every modelled field is really written (so the walk below covers them all).
  EXPECT_EQ(o["spec"].size(), 18u);
  EXPECT_EQ(o["spec"]["sentinel"].size(), 12u);
  EXPECT_EQ(o["status"].size(), 4u);
  checkDescribed(o, schema(), "");
}

}  // namespace
}  // namespace kun::api
