#include "scenarios/yaml_fields.h"

#include <algorithm>
#include <charconv>

#include "chaos/faults/duration_text.h"

namespace kun::scenario {

namespace {

// The scalar under key, or an error if it is there but not a scalar.
Result<std::optional<YAML::Node>> scalarAt(const YAML::Node& map, std::string_view key, const YamlPlace& where,
                                           std::string_view what) {
  const auto n = map[std::string(key)];
  if (!n.IsDefined() || n.IsNull()) return std::optional<YAML::Node>{};
  if (!n.IsScalar()) return yamlError(where.child(key, n), what, describeNode(n));
  return std::optional<YAML::Node>{n};
}

}  // namespace

Status expectMap(const YAML::Node& n, const YamlPlace& where) {
  if (!n.IsMap()) return yamlError(where, "a mapping", describeNode(n));
  return {};
}

Status onlyKeys(const YAML::Node& n, const YamlPlace& where, const std::vector<std::string_view>& allowed) {
  for (const auto& kv : n) {
    const auto key = kv.first.as<std::string>();
    if (std::find(allowed.begin(), allowed.end(), key) != allowed.end()) continue;
    std::string list;
    for (auto a : allowed) list += (list.empty() ? "" : ", ") + std::string(a);
    return yamlError(where.child(key, kv.first), "one of the fields " + list, "an unknown field");
  }
  return {};
}

Result<std::optional<std::string>> optString(const YAML::Node& map, std::string_view key, const YamlPlace& where) {
  auto n = scalarAt(map, key, where, "a string");
  if (!n) return n.error();
  if (!*n) return std::optional<std::string>{};
  return std::optional<std::string>{(*n)->Scalar()};
}

Result<std::optional<std::int64_t>> optInt(const YAML::Node& map, std::string_view key, const YamlPlace& where,
                                           std::int64_t min, std::int64_t max) {
  const std::string what = "an integer in [" + std::to_string(min) + ", " + std::to_string(max) + "]";
  auto n = scalarAt(map, key, where, what);
  if (!n) return n.error();
  if (!*n) return std::optional<std::int64_t>{};
  const auto& s = (*n)->Scalar();
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size() || v < min || v > max)
    return yamlError(where.child(key, **n), what, describeNode(**n));
  return std::optional<std::int64_t>{v};
}

Result<std::optional<std::uint64_t>> optSeed(const YAML::Node& map, std::string_view key, const YamlPlace& where) {
  constexpr std::string_view what = "a seed: an integer in [0, 18446744073709551615]";
  auto n = scalarAt(map, key, where, what);
  if (!n) return n.error();
  if (!*n) return std::optional<std::uint64_t>{};
  const auto& s = (*n)->Scalar();
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc{} || p != s.data() + s.size()) return yamlError(where.child(key, **n), what, describeNode(**n));
  return std::optional<std::uint64_t>{v};
}

Result<std::optional<bool>> optBool(const YAML::Node& map, std::string_view key, const YamlPlace& where) {
  auto n = scalarAt(map, key, where, "true or false");
  if (!n) return n.error();
  if (!*n) return std::optional<bool>{};
  const auto& s = (*n)->Scalar();
  if (s == "true") return std::optional<bool>{true};
  if (s == "false") return std::optional<bool>{false};
  return yamlError(where.child(key, **n), "true or false", describeNode(**n));
}

Result<std::optional<Duration>> optDuration(const YAML::Node& map, std::string_view key, const YamlPlace& where) {
  constexpr std::string_view what = "a duration such as 500ms, 30s, 2m or 1h";
  auto n = scalarAt(map, key, where, what);
  if (!n) return n.error();
  if (!*n) return std::optional<Duration>{};
  auto d = chaos::parseDuration((*n)->Scalar());
  if (!d) return yamlError(where.child(key, **n), what, describeNode(**n));
  return std::optional<Duration>{*d};
}

Result<std::optional<std::pair<std::uint64_t, std::uint64_t>>> optRate(const YAML::Node& map, std::string_view key,
                                                                       const YamlPlace& where) {
  using Rate = std::pair<std::uint64_t, std::uint64_t>;
  constexpr std::string_view what = "a rate such as 1/10 or 25%, above 0 and at most 1";
  auto n = scalarAt(map, key, where, what);
  if (!n) return n.error();
  if (!*n) return std::optional<Rate>{};
  const std::string s = (*n)->Scalar();
  auto number = [](std::string_view t, std::uint64_t& out) {
    auto [p, ec] = std::from_chars(t.data(), t.data() + t.size(), out);
    return ec == std::errc{} && p == t.data() + t.size();
  };
  Rate r{0, 0};
  bool ok = false;
  if (auto slash = s.find('/'); slash != std::string::npos) {
    ok = number(std::string_view(s).substr(0, slash), r.first) && number(std::string_view(s).substr(slash + 1), r.second);
  } else if (!s.empty() && s.back() == '%') {
    ok = number(std::string_view(s).substr(0, s.size() - 1), r.first);
    r.second = 100;
  }
  if (!ok || r.first == 0 || r.second == 0 || r.first > r.second)
    return yamlError(where.child(key, **n), what, describeNode(**n));
  return std::optional<Rate>{r};
}

}  // namespace kun::scenario
