#include "fakeapi/store/uid_index.h"

namespace kun::store {

std::vector<std::string> ownerUidsOf(const Object& o) {
  std::vector<std::string> out;
  const Object* m = memberOf(o, "metadata");
  const Object* refs = m ? memberOf(*m, "ownerReferences") : nullptr;
  if (!refs || !refs->is_array()) return out;
  for (const auto& r : *refs)
    if (r.is_object())
      if (auto u = r.find("uid"); u != r.end() && u->is_string()) out.push_back(u->get<std::string>());
  return out;
}

}  // namespace kun::store
