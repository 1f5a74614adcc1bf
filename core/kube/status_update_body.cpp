#include "core/kube/status_update_body.h"

namespace kun {

Object statusUpdateBody(const Object& stored, Object status) {
  Object obj = Object::object();
  for (const char* f : {"apiVersion", "kind"})
    if (auto v = stored.find(f); v != stored.end()) obj[f] = *v;
  Object& m = obj["metadata"] = Object::object();
  if (auto sm = stored.find("metadata"); sm != stored.end() && sm->is_object())
    for (const char* f : {"name", "namespace", "uid", "resourceVersion"})
      if (auto v = sm->find(f); v != sm->end()) m[f] = *v;
  obj["status"] = std::move(status);
  return obj;
}

}  // namespace kun
