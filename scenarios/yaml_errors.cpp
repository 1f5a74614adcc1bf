#include "scenarios/yaml_errors.h"

#include <fstream>
#include <sstream>

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

Error notYaml(const YAML::Exception& e, const std::string& fileName) {
  return makeError(Reason::Invalid,
                   fmt::format("{}:{}: not valid YAML: {}", fileName, e.mark.line < 0 ? 0 : e.mark.line + 1, e.msg));
}

Result<std::string> readFileText(const std::string& path) {
  std::ifstream in(path, std::ios::binary);
  if (!in) return makeError(Reason::NotFound, path + ": cannot be read");
  std::ostringstream text;
  text << in.rdbuf();
  return text.str();
}

}  // namespace kun::scenario
