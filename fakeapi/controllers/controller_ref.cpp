#include "fakeapi/controllers/controller_ref.h"

namespace kun::sim {

const Object* controllerRefOf(const Object& o) {
  if (!o.is_object()) return nullptr;
  auto m = o.find("metadata");
  if (m == o.end() || !m->is_object()) return nullptr;
  auto refs = m->find("ownerReferences");
  if (refs == m->end() || !refs->is_array()) return nullptr;
  for (const auto& r : *refs) {
    if (!r.is_object()) continue;
    auto c = r.find("controller");
    if (c != r.end() && c->is_boolean() && c->get<bool>()) return &r;
  }
  return nullptr;
}

std::string_view refField(const Object& ref, const char* key) {
  auto it = ref.find(key);
  return it != ref.end() && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

bool controlledBy(const Object& o, std::string_view uid) {
  const Object* c = controllerRefOf(o);
  return c && refField(*c, "uid") == uid;
}

}  // namespace kun::sim
