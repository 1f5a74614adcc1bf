#include "core/kube/status_update_body.h"

namespace kun {

Object statusUpdateBody(const Object& stored, Object status) {
  // Built member by member in key order at the end of each map, the members found by
  // memberOf's walk: every status write (the operator's, every simulated controller's)
  // builds one, where operator[] searched and made a null member for each.
  auto append = [](Object::object_t& to, const char* key, Object v) { to.emplace_hint(to.end(), key, std::move(v)); };
  Object obj = Object::object();
  auto& top = obj.get_ref<Object::object_t&>();
  for (const char* f : {"apiVersion", "kind"})
    if (const Object* v = memberOf(stored, f)) append(top, f, *v);
  Object m = Object::object();
  if (const Object* sm = memberOf(stored, "metadata"); sm && sm->is_object())
    for (const char* f : {"name", "namespace", "resourceVersion", "uid"})
      if (const Object* v = memberOf(*sm, f)) append(m.get_ref<Object::object_t&>(), f, *v);
  append(top, "metadata", std::move(m));
  append(top, "status", std::move(status));
  return obj;
}

}  // namespace kun
