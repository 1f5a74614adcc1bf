#pragma once
// Typed fields of a YAML mapping, each failure a yamlError naming the field, its line and
// what was expected. An absent optional field is nullopt; present but wrong is an error.
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/time.h"
#include "scenarios/yaml_errors.h"

namespace kun::scenario {

Status expectMap(const YAML::Node& n, const YamlPlace& where);
// Every key of the mapping is one of `allowed` (listed in the message otherwise).
Status onlyKeys(const YAML::Node& n, const YamlPlace& where, const std::vector<std::string_view>& allowed);

Result<std::optional<std::string>> optString(const YAML::Node& map, std::string_view key, const YamlPlace& where);
Result<std::optional<std::int64_t>> optInt(const YAML::Node& map, std::string_view key, const YamlPlace& where,
                                           std::int64_t min, std::int64_t max);
// A 64-bit unsigned seed.
Result<std::optional<std::uint64_t>> optSeed(const YAML::Node& map, std::string_view key, const YamlPlace& where);
Result<std::optional<bool>> optBool(const YAML::Node& map, std::string_view key, const YamlPlace& where);
Result<std::optional<Duration>> optDuration(const YAML::Node& map, std::string_view key, const YamlPlace& where);
// "1/10" or "10%" as num/den.
Result<std::optional<std::pair<std::uint64_t, std::uint64_t>>> optRate(const YAML::Node& map, std::string_view key,
                                                                       const YamlPlace& where);

// A required field: "field: expected <what>" when it is missing.
template <class T>
Result<T> required(Result<std::optional<T>> r, const YamlPlace& mapPlace, std::string_view key, std::string_view what) {
  if (!r) return r.error();
  if (!*r) return yamlError(mapPlace.child(key, YAML::Node()), what, "nothing");
  return **r;
}

}  // namespace kun::scenario
