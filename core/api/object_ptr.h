#pragma once
// Shared, immutable objects: what the store keeps, watches deliver and informers cache.
// Make them with shareObject, which frees the tree bottom-up when the last reference
// goes. nlohmann's own destructor first moves every member of every container onto a
// heap-allocated stack (so a hostile nesting depth cannot overflow the call stack), which
// made freeing a 2 KB pod cost as much as copying it.
#include <memory>

#include "core/api/object.h"

namespace kun {

using ObjectPtr = std::shared_ptr<const Object>;

ObjectPtr shareObject(Object o);

// Empties o's containers from the leaves up, so that destroying what remains never takes
// nlohmann's flattening path. Below a nesting depth of 64 the rest is left to it.
void dismantle(Object& o);

}  // namespace kun
