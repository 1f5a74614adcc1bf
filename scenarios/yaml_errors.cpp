#include "scenarios/yaml_errors.h"

#include <fmt/format.h>

namespace kun::scenario {

int lineOf(const YAML::Node& n) {
  if (!n.IsDefined()) return 0;
  const auto m = n.Mark();
  return m.line < 0 ? 0 : m.line + 1;
}

YamlPlace YamlPlace::child(std::string_view key, const YAML::Node& at) const {
  const int l = lineOf(at);
  return YamlPlace{file, path.empty() ? std::string(key) : path + "." + std::string(key), l ? l : line};
}

YamlPlace YamlPlace::item(std::size_t index, const YAML::Node& at) const {
  const int l = lineOf(at);
  return YamlPlace{file, fmt::format("{}[{}]", path, index), l ? l : line};
}

std::string describeNode(const YAML::Node& n) {
  if (!n.IsDefined() || n.IsNull()) return "nothing";
  if (n.IsSequence()) return "a list";
  if (n.IsMap()) return "a mapping";
  return fmt::format("\"{}\"", n.Scalar());
}

Error yamlError(const YamlPlace& where, std::string_view expected, std::string_view got) {
  std::string msg = fmt::format("{}:{}: {}: expected {}", where.file, where.line, where.path.empty() ? "(top)" : where.path,
                                expected);
  if (!got.empty()) msg += fmt::format(", got {}", got);
  return makeError(Reason::Invalid, std::move(msg), where.path);
}

}  // namespace kun::scenario
