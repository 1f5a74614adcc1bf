#include "core/api/redis_cluster_crd.h"

#include <string>
#include <utility>

#include "core/api/redis_cluster_types.h"

namespace kun::api {

namespace {

// Schema builders. Why preserve-unknown-fields sits where it does: see kind/crd.yaml.
Object typed(const char* type) { return Object{{"type", type}}; }
Object str() { return typed("string"); }
Object boolean() { return typed("boolean"); }
Object int32() { return Object{{"type", "integer"}, {"format", "int32"}}; }
Object int64() { return Object{{"type", "integer"}, {"format", "int64"}}; }
Object opaque() { return Object{{"type", "object"}, {"x-kubernetes-preserve-unknown-fields", true}}; }
Object strings() { return Object{{"type", "array"}, {"items", str()}}; }
Object opaqueList() { return Object{{"type", "array"}, {"items", opaque()}}; }
Object stringMap() { return Object{{"type", "object"}, {"additionalProperties", str()}}; }
Object described(Object o, const char* d) {
  o["description"] = d;
  return o;
}
// An object of ours: its listed properties are typed, anything else is kept.
Object open(Object props) {
  Object o = opaque();
  o["properties"] = std::move(props);
  return o;
}

Object sentinelSchema() {
  return open({
      {"image", str()},
      {"imagePullPolicy", str()},
      {"imagePullSecrets", opaqueList()},
      {"replicas", described(int32(), "Sentinels (default 3)")},
      {"resources", opaque()},
      {"customConfig", described(strings(), "\"option value\" entries, applied with SENTINEL SET")},
      {"command", strings()},
      {"affinity", opaque()},
      {"securityContext", opaque()},
      {"tolerations", opaqueList()},
      {"nodeSelector", stringMap()},
      {"annotations", stringMap()},
  });
}

Object specSchema() {
  return open({
      {"size", described(int32(), "Redis nodes, one master and size-1 replicas (default 3)")},
      {"resources", opaque()},
      {"image", str()},
      {"imagePullPolicy", str()},
      {"imagePullSecrets", opaqueList()},
      {"command", strings()},
      {"shutdownConfigMap", str()},
      {"storage", open({{"keepAfterDeletion", boolean()},
                        {"emptyDir", opaque()},
                        {"persistentVolumeClaim", opaque()}})},
      {"password", str()},
      {"exporter", open({{"enabled", boolean()}, {"image", str()}, {"imagePullPolicy", str()}})},
      {"affinity", opaque()},
      {"securityContext", opaque()},
      {"toleRations", opaqueList()},
      {"nodeSelector", stringMap()},
      {"config", described(stringMap(), "redis.conf parameters, applied with CONFIG SET")},
      {"annotations", stringMap()},
      {"disablePersistence", boolean()},
      {"sentinel", sentinelSchema()},
  });
}

Object statusSchema() {
  Object condition = open({
      {"type", str()},
      {"status", described(str(), "True, False or Unknown")},
      {"lastUpdateTime", str()},
      {"lastTransitionTime", str()},
      {"reason", str()},
      {"message", str()},
  });
  condition["required"] = {"type", "status"};
  return open({
      {"conditions", Object{{"type", "array"}, {"items", std::move(condition)}}},
      {"masterIP", str()},
      {"sentinelIP", str()},
      {"observedGeneration", int64()},
      {"acceptedSpec", described(opaque(), "the spec in force (of observedGeneration), kept while an edit is invalid")},
  });
}

Object printerColumn(const char* name, const char* type, const char* path, const char* desc) {
  Object c{{"name", name}, {"type", type}, {"jsonPath", path}};
  if (desc) c["description"] = desc;
  return c;
}

Object buildCrd() {
  Object schema = open({
      {"apiVersion", str()},
      {"kind", str()},
      {"metadata", typed("object")},
      {"spec", specSchema()},
      {"status", statusSchema()},
  });
  Object version{
      {"name", std::string(kVersion)},
      {"served", true},
      {"storage", true},
      {"subresources", {{"status", Object::object()}}},
      {"additionalPrinterColumns",
       {printerColumn("Size", "integer", ".spec.size",
                      "The number of Redis nodes (one master, the rest replicas)"),
        printerColumn("Status", "string", ".status.conditions[0].type",
                      "The most recent condition of the cluster"),
        printerColumn("Age", "date", ".metadata.creationTimestamp", nullptr)}},
      {"schema", {{"openAPIV3Schema", std::move(schema)}}},
  };
  return Object{
      {"apiVersion", "apiextensions.k8s.io/v1"},
      {"kind", "CustomResourceDefinition"},
      {"metadata", {{"name", std::string(kPlural) + "." + std::string(kGroup)}}},
      {"spec",
       {{"group", std::string(kGroup)},
        {"names",
         {{"kind", std::string(kKind)},
          {"listKind", std::string(kListKind)},
          {"plural", std::string(kPlural)},
          {"singular", std::string(kSingular)}}},
        {"scope", "Namespaced"},
        {"versions", Object::array({std::move(version)})}}},
  };
}

}  // namespace

const Object& redisClusterCrd() {
  static const Object crd = buildCrd();
  return crd;
}

}  // namespace kun::api
