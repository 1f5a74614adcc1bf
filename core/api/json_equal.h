#pragma once
// Deep equality of JSON values, walking containers with a string compare that needs no
// library call for the short strings most of an object is made of.
//
// equalJson has the meaning of Object's operator== (1, 1u and 1.0 are equal). sameJson
// also holds the types: such values serialise differently and a typed reader may accept
// one and refuse another, so a cache that reuses what it read from one value for another
// asks sameJson.
#include <string>

#include "core/api/object.h"

namespace kun {

bool equalJson(const Object& a, const Object& b);
// Same type at every node, and the same value (a NaN equals nothing).
bool sameJson(const Object& a, const Object& b);
// a == b for strings.
bool sameText(const std::string& a, const std::string& b);

}  // namespace kun
