#pragma once
// The JSON Patch (RFC 6902) that turns one stored state into another, for the watch
// history's back patches. Cheaper than nlohmann's diff for the store's case — two versions
// of one object that differ in a few fields: equal members cost one comparison, and only
// the path to a difference is built. Objects are descended into; arrays and scalars that
// differ are replaced whole. Apply with Object::patch.
#include "core/api/object.h"

namespace kun::store {

// from.patch(backPatch(from, to)) == to. Both must be JSON objects.
Object backPatch(const Object& from, const Object& to);

}  // namespace kun::store
