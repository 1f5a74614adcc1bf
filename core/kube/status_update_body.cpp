#include "core/kube/status_update_body.h"

#include <string_view>

namespace kun {

Object statusUpdateBody(const Object& stored, Object status) {
  // Every status write builds one: members are found with memberOf and emplaced in key
  // order at the end of each (sorted) map, with no std::string key built for a lookup.
  Object obj = Object::object();
  auto& top = obj.get_ref<Object::object_t&>();
  for (std::string_view f : {"apiVersion", "kind"})
    if (const Object* v = memberOf(stored, f)) top.emplace_hint(top.end(), f, *v);
  auto& m = top.emplace_hint(top.end(), "metadata", Object::object())->second.get_ref<Object::object_t&>();
  // The four in one walk of the stored metadata: they come in its key order, as they go.
  if (const Object* sm = memberOf(stored, "metadata"); sm && sm->is_object()) {
    using namespace std::string_view_literals;
    for (const auto& [k, v] : sm->get_ref<const Object::object_t&>())
      if (k == "name"sv || k == "namespace"sv || k == "resourceVersion"sv || k == "uid"sv) m.emplace_hint(m.end(), k, v);
  }
  top.emplace_hint(top.end(), "status", std::move(status));
  return obj;
}

}  // namespace kun
