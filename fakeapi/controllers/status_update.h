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

// The same for a writer that computes the whole status from the stored one instead of
// editing a copy of it (current: the stored status, {} when there is none), so the
// stored status is not copied. Nothing is written when compute returns current.
Result<bool> replaceStatus(KubeClient& client, const Resource& r, std::string_view ns, std::string_view name,
                           std::string_view uid, const std::function<Object(const Object& current)>& compute);

}  // namespace kun::sim
