#include "fakeapi/controllers/status_update.h"

#include "core/kube/status_update_body.h"

namespace kun::sim {

Result<bool> replaceStatus(KubeClient& client, const Resource& r, std::string_view ns, std::string_view name,
                           std::string_view uid, const std::function<Object(const Object& current)>& compute) {
  static const Object kEmpty = Object::object();
  constexpr int kAttempts = 5;
  Error last = makeError(Reason::Conflict, "status update kept conflicting");
  for (int i = 0; i < kAttempts; ++i) {
    // The stored version itself: its status is read in place, and the rest copied once,
    // into the object that is moved into the update.
    auto cur = client.getShared(r, ns, name);
    if (!cur) return cur.error();
    const Object& stored = **cur;
    if (!uid.empty() && meta::fieldView(stored, "uid") != uid) {
      return makeError(Reason::NotFound, "object was replaced by a newer one of the same name");
    }
    const Object* before = memberOf(stored, "status");
    const Object& current = before ? *before : kEmpty;
    Object status = compute(current);
    if (status == current) return false;
    // Only status and the object's identity and version: see statusUpdateBody.
    Object obj = statusUpdateBody(stored, std::move(status));
    auto res = client.updateStatusShared(r, std::move(obj));
    if (res) return true;
    if (!res.is(Reason::Conflict)) return res.error();
    last = res.error();
  }
  return last;
}

Result<bool> mutateStatus(KubeClient& client, const Resource& r, std::string_view ns,
                          std::string_view name, std::string_view uid,
                          const std::function<void(Object& status)>& mutate) {
  return replaceStatus(client, r, ns, name, uid, [&](const Object& current) {
    Object status = current;
    mutate(status);
    return status;
  });
}

}  // namespace kun::sim
