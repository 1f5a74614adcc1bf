#pragma once
// YAML <-> JSON for manifests and fault values. Plain scalars take the JSON type YAML 1.2's
// core schema gives them (true/false, null/~, integers, floats); quoted scalars stay
// strings. The writer quotes exactly the strings that would otherwise read back as
// another type, so write-then-read is the identity on JSON values.
#include <string>

#include <yaml-cpp/yaml.h>

#include "core/api/object.h"

namespace kun::scenario {

Object yamlToJson(const YAML::Node& node);
// Emits v as the current value of the emitter (block style for maps and lists).
void emitJson(YAML::Emitter& out, const Object& v);
// A scalar as YAML reads it unquoted ("3" -> 3, "yes" stays a string).
Object plainScalar(const std::string& text);

}  // namespace kun::scenario
