#include "fakeapi/controllers/status_update.h"

namespace kun::sim {

Result<bool> mutateStatus(KubeClient& client, const Resource& r, std::string_view ns,
                          std::string_view name, std::string_view uid,
                          const std::function<void(Object& status)>& mutate) {
  constexpr int kAttempts = 5;
  Error last = makeError(Reason::Conflict, "status update kept conflicting");
  for (int i = 0; i < kAttempts; ++i) {
    auto cur = client.get(r, ns, name);
    if (!cur) return cur.error();
    if (!uid.empty() && meta::uid(*cur) != uid) {
      return makeError(Reason::NotFound, "object was replaced by a newer one of the same name");
    }
    Object obj = std::move(cur.value());
    Object status = obj.contains("status") ? obj["status"] : Object::object();
    const Object before = status;
    mutate(status);
    if (status == before) return false;
    obj["status"] = std::move(status);
    auto res = client.updateStatus(r, obj);
    if (res) return true;
    if (!res.is(Reason::Conflict)) return res.error();
    last = res.error();
  }
  return last;
}

}  // namespace kun::sim
