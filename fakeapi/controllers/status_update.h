#pragma once
// Read-modify-write of an object's status subresource with optimistic concurrency: get,
// let `mutate` edit a copy of status, and updateStatus only if it changed; a Conflict
// re-reads and tries again. `uid`, when given, guards against writing to a newer object
// that took the same name.
#include <functional>
#include <string_view>

#include "core/kube/kube_client.h"

namespace kun::sim {

// Returns true if it wrote, false if nothing changed; NotFound if the object (with that
// uid) is gone.
Result<bool> mutateStatus(KubeClient& client, const Resource& r, std::string_view ns,
                          std::string_view name, std::string_view uid,
                          const std::function<void(Object& status)>& mutate);

}  // namespace kun::sim
