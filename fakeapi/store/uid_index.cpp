#include "fakeapi/store/uid_index.h"

namespace kun::store {

std::vector<std::string> ownerUidsOf(const Object& o) {
  std::vector<std::string> out;
  auto m = o.find("metadata");
  if (m == o.end() || !m->is_object()) return out;
  auto refs = m->find("ownerReferences");
  if (refs == m->end() || !refs->is_array()) return out;
  for (const auto& r : *refs)
    if (r.is_object())
      if (auto u = r.find("uid"); u != r.end() && u->is_string()) out.push_back(u->get<std::string>());
  return out;
}

}  // namespace kun::store
