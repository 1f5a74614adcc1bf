#include "fakeapi/controllers/status_update.h"

#include "core/kube/status_update_body.h"

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
    // Only status and the object's identity and version: see statusUpdateBody.
    Object obj = statusUpdateBody(stored, std::move(status));
    auto res = client.updateStatusShared(r, std::move(obj));
    if (res) return true;
    if (!res.is(Reason::Conflict)) return res.error();
    last = res.error();
  }
  return last;
}

}  // namespace kun::sim
