#pragma once
// Manifests in YAML files: any Kubernetes object of a scenario file, and the RedisCluster
// that `kun-sim prop --cluster FILE` runs its schedules against — a file holding that one
// manifest, checked as the operator takes it, so a mistake is told once, naming the file,
// line and field, rather than by every run.
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "core/api/object.h"
#include "core/runtime/result.h"
#include "scenarios/yaml_errors.h"

namespace kun::scenario {

// A mapping with apiVersion, kind and metadata.name (strings).
Result<Object> parseManifest(const YAML::Node& n, const YamlPlace& where);

// One RedisCluster (apiVersion redis.kun/v1beta1) whose spec the operator accepts;
// metadata.namespace defaults to "default". Errors: "FILE:LINE: FIELD: expected WHAT, got
// X", or "FILE: FIELD: MESSAGE; ..." for what the operator's validation refuses.
Result<Object> parseClusterManifest(std::string_view text, const std::string& fileName);
Result<Object> readClusterManifestFile(const std::string& path);

}  // namespace kun::scenario
