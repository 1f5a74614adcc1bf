#pragma once
// Errors about a place in a YAML file: "FILE:LINE: FIELD: expected WHAT" (reason Invalid,
// field = the path), the one form every scenario-file message takes.
#include <string>
#include <string_view>

#include <yaml-cpp/yaml.h>

#include "core/runtime/result.h"

namespace kun::scenario {

struct YamlPlace {
  std::string file;
  std::string path;  // "steps[2].fault.kind"
  int line = 0;      // 1-based, 0 unknown
  YamlPlace child(std::string_view key, const YAML::Node& at) const;
  YamlPlace item(std::size_t index, const YAML::Node& at) const;
};

int lineOf(const YAML::Node& n);  // 1-based, 0 when the node has no mark
Error yamlError(const YamlPlace& where, std::string_view expected, std::string_view got = {});
// What a node is, for "got ...": "a string \"x\"", "a list", "a mapping", "nothing".
std::string describeNode(const YAML::Node& n);
// Text that is not YAML at all: yaml-cpp's own message in the "FILE:LINE: " form.
Error notYaml(const YAML::Exception& e, const std::string& fileName);
// A whole file's text; NotFound "PATH: cannot be read".
Result<std::string> readFileText(const std::string& path);

}  // namespace kun::scenario
