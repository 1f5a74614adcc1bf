#include "scenarios/yaml_json.h"

#include <cerrno>
#include <cstdlib>
#include <regex>

namespace kun::scenario {

Object plainScalar(const std::string& s) {
  if (s == "true" || s == "True" || s == "TRUE") return true;
  if (s == "false" || s == "False" || s == "FALSE") return false;
  if (s.empty() || s == "~" || s == "null" || s == "Null" || s == "NULL") return nullptr;
  static const std::regex integer("[-+]?[0-9]+");
  static const std::regex real(R"([-+]?(\.[0-9]+|[0-9]+(\.[0-9]*)?)([eE][-+]?[0-9]+)?)");
  if (std::regex_match(s, integer)) {
    errno = 0;
    const long long v = std::strtoll(s.c_str(), nullptr, 10);
    if (errno == 0) return v;
  }
  if (std::regex_match(s, real)) return std::strtod(s.c_str(), nullptr);
  return s;
}

Object yamlToJson(const YAML::Node& node) {
  switch (node.Type()) {
    case YAML::NodeType::Null:
    case YAML::NodeType::Undefined:
      return nullptr;
    case YAML::NodeType::Scalar:
      // "!" is the tag of a quoted (non-plain) scalar: always a string.
      if (node.Tag() == "!") return node.Scalar();
      return plainScalar(node.Scalar());
    case YAML::NodeType::Sequence: {
      Object out = Object::array();
      for (const auto& item : node) out.push_back(yamlToJson(item));
      return out;
    }
    case YAML::NodeType::Map: {
      Object out = Object::object();
      for (const auto& kv : node) out[kv.first.as<std::string>()] = yamlToJson(kv.second);
      return out;
    }
  }
  return nullptr;
}

void emitJson(YAML::Emitter& out, const Object& v) {
  if (v.is_object()) {
    out << YAML::BeginMap;
    for (const auto& [k, child] : v.items()) {
      out << YAML::Key << k << YAML::Value;
      emitJson(out, child);
    }
    out << YAML::EndMap;
  } else if (v.is_array()) {
    out << YAML::BeginSeq;
    for (const auto& child : v) emitJson(out, child);
    out << YAML::EndSeq;
  } else if (v.is_string()) {
    const auto& s = v.get_ref<const std::string&>();
    if (!plainScalar(s).is_string()) out << YAML::DoubleQuoted;
    out << s;
  } else if (v.is_boolean()) {
    out << (v.get<bool>() ? "true" : "false");
  } else if (v.is_null()) {
    out << YAML::Null;
  } else if (v.is_number_integer()) {
    out << v.dump();
  } else {
    out << v.dump();  // JSON's shortest round-trip form is valid YAML
  }
}

}  // namespace kun::scenario
