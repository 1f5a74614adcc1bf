#pragma once
// An object's controller ownerReference, read in place: the controllers ask it of every
// pod on every sync and pass, and meta::controllerOf copies every reference's strings.
// Same rule as meta::controllerOf: the first reference whose "controller" is true.
#include <string_view>

#include "core/api/object.h"

namespace kun::sim {

// The controller reference (an object), or nullptr when there is none.
const Object* controllerRefOf(const Object& o);
// A string field of a reference ("" when absent or not a string), as OwnerReference holds it.
std::string_view refField(const Object& ref, const char* key);
// Is o's controller the object with this uid?
bool controlledBy(const Object& o, std::string_view uid);

}  // namespace kun::sim
