#include "core/api/object_members.h"

#include <string>

namespace kun {

Object copyWithout(const Object& o, std::string_view key) {
  Object out = Object::object();
  auto& members = out.get_ref<Object::object_t&>();
  for (const auto& [k, v] : o.get_ref<const Object::object_t&>())
    if (k != key) members.emplace_hint(members.end(), k, v);
  return out;
}

Object& memberSlot(Object& o, std::string_view key) {
  // o is not const, so neither is the member memberOf found.
  if (const Object* m = memberOf(o, key)) return const_cast<Object&>(*m);
  return o[std::string(key)];
}

}  // namespace kun
