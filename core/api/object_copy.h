#pragma once
// Partial copies of objects, for writers that replace one member of an object anyway:
// copying that member only to overwrite (and free) it was a large part of their cost.
#include <string_view>

#include "core/api/object.h"

namespace kun {

// o without its member `key`: every other member copied, straight into place at the end
// of the (sorted) map, so no lookup per member. o must be a JSON object.
Object copyWithout(const Object& o, std::string_view key);

}  // namespace kun
