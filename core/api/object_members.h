#pragma once
// Member access for writers on hot paths: partial copies (for writers that replace one
// member anyway: copying it only to overwrite and free it was a large part of their cost),
// and member slots found without building a std::string key.
#include <string_view>

#include "core/api/object.h"

namespace kun {

// o without its member `key`: every other member copied, straight into place at the end
// of the (sorted) map, so no lookup per member. o must be a JSON object.
Object copyWithout(const Object& o, std::string_view key);

// o[key]: the member, inserted as null when absent (a null o becomes an object, as with
// operator[]). Found by memberOf's walk; nlohmann's operator[] builds a std::string key
// (a heap allocation past 15 characters) and compares it at every tree level.
Object& memberSlot(Object& o, std::string_view key);

// An object's metadata.name, namespace, resourceVersion and uid as views, found in one walk
// of metadata ("" when absent or not a string, as meta:: reads them): for readers that need
// several, where each meta:: getter would walk metadata again.
struct MetaIdentity {
  std::string_view name, ns, resourceVersion, uid;
};
MetaIdentity identityOf(const Object& o);
// metadata.labels[key] as a view, "" when absent or not a string (as meta::label reads it,
// without the copy).
std::string_view labelView(const Object& o, std::string_view key);

}  // namespace kun
