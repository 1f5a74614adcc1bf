#include "fakeapi/controllers/status_update.h"

namespace kun::sim {

Result<bool> mutateStatus(KubeClient& client, const Resource& r, std::string_view ns,
                          std::string_view name, std::string_view uid,
                          const std::function<void(Object& status)>& mutate) {
  constexpr int kAttempts = 5;
  Error last = makeError(Reason::Conflict, "status update kept conflicting");
  for (int i = 0; i < kAttempts; ++i) {
    // The stored version itself: only its status is copied to be edited, and the rest
    // once, into the object that is moved into the update.
    auto cur = client.getShared(r, ns, name);
    if (!cur) return cur.error();
    const Object& stored = **cur;
    if (!uid.empty() && meta::uid(stored) != uid) {
      return makeError(Reason::NotFound, "object was replaced by a newer one of the same name");
    }
    const auto before = stored.find("status");
    const bool had = before != stored.end();
    Object status = had ? *before : Object::object();
    mutate(status);
    if (had ? status == *before : status == Object::object()) return false;
    // A status update takes only status from what it is sent, and from metadata the
    // object's identity and the version it was read at: the rest is not copied to be
    // dropped.
    Object obj = Object::object();
    for (const char* f : {"apiVersion", "kind"})
      if (auto v = stored.find(f); v != stored.end()) obj[f] = *v;
    Object& m = obj["metadata"] = Object::object();
    if (auto sm = stored.find("metadata"); sm != stored.end() && sm->is_object())
      for (const char* f : {"name", "namespace", "uid", "resourceVersion"})
        if (auto v = sm->find(f); v != sm->end()) m[f] = *v;
    obj["status"] = std::move(status);
    auto res = client.updateStatusShared(r, std::move(obj));
    if (res) return true;
    if (!res.is(Reason::Conflict)) return res.error();
    last = res.error();
  }
  return last;
}

}  // namespace kun::sim
