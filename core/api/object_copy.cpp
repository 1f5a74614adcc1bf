#include "core/api/object_copy.h"

namespace kun {

Object copyWithout(const Object& o, std::string_view key) {
  Object out = Object::object();
  auto& members = out.get_ref<Object::object_t&>();
  for (const auto& [k, v] : o.get_ref<const Object::object_t&>())
    if (k != key) members.emplace_hint(members.end(), k, v);
  return out;
}

}  // namespace kun
