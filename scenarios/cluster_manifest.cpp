#include "scenarios/cluster_manifest.h"

#include <fmt/format.h>

#include "core/api/redis_cluster_types.h"
#include "core/api/redis_cluster_validation.h"
#include "scenarios/yaml_json.h"

namespace kun::scenario {

Result<Object> parseManifest(const YAML::Node& n, const YamlPlace& where) {
  if (!n.IsMap()) return yamlError(where, "a Kubernetes object (a mapping)", describeNode(n));
  Object obj = yamlToJson(n);
  for (const char* key : {"apiVersion", "kind"})
    if (!obj.contains(key) || !obj[key].is_string())
      return yamlError(where.child(key, n[key]), "a string", describeNode(n[key]));
  if (!obj["metadata"].is_object() || !obj["metadata"].contains("name") || !obj["metadata"]["name"].is_string())
    return yamlError(where.child("metadata.name", n["metadata"]), "the object's name", "nothing");
  return obj;
}

Result<Object> parseClusterManifest(std::string_view text, const std::string& fileName) {
  YAML::Node root;
  try {
    root = YAML::Load(std::string(text));
  } catch (const YAML::Exception& e) {
    return notYaml(e, fileName);
  }
  const YamlPlace top{fileName, "", lineOf(root)};
  auto obj = parseManifest(root, top);
  if (!obj) return obj.error();
  if ((*obj)["kind"] != api::kKind)
    return yamlError(top.child("kind", root["kind"]), std::string(api::kKind), describeNode(root["kind"]));
  if ((*obj)["apiVersion"] != api::kApiVersion)
    return yamlError(top.child("apiVersion", root["apiVersion"]), std::string(api::kApiVersion),
                     describeNode(root["apiVersion"]));
  Object& meta = (*obj)["metadata"];
  if (!meta.contains("namespace")) meta["namespace"] = "default";
  const auto rc = api::parseRedisCluster(*obj);
  if (!rc) return makeError(Reason::Invalid, fmt::format("{}: {}", fileName, api::formatFieldError(rc.error())));
  if (const auto refused = api::validateRedisCluster(*rc); !refused.empty())
    return makeError(Reason::Invalid,
                     fmt::format("{}: the operator would refuse this cluster: {}", fileName, api::formatFieldErrors(refused)));
  return obj;
}

Result<Object> readClusterManifestFile(const std::string& path) {
  auto text = readFileText(path);
  if (!text) return text.error();
  return parseClusterManifest(*text, path);
}

}  // namespace kun::scenario
