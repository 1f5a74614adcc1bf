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

std::string_view labelView(const Object& o, std::string_view key) {
  const Object* m = memberOf(o, "metadata");
  const Object* l = m ? memberOf(*m, "labels") : nullptr;
  const Object* v = l ? memberOf(*l, key) : nullptr;
  return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
}

MetaIdentity identityOf(const Object& o) {
  using namespace std::string_view_literals;
  MetaIdentity id;
  const Object* m = memberOf(o, "metadata");
  if (!m || !m->is_object()) return id;
  for (const auto& [k, v] : m->get_ref<const Object::object_t&>()) {
    if (!v.is_string()) continue;
    const std::string_view text = v.get_ref<const std::string&>();
    if (k == "name"sv) id.name = text;
    else if (k == "namespace"sv) id.ns = text;
    else if (k == "resourceVersion"sv) id.resourceVersion = text;
    else if (k == "uid"sv) id.uid = text;
  }
  return id;
}

}  // namespace kun
