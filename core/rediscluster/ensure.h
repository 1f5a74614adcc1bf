#pragma once
// Ensure: make the live objects what generate.h says, writing only what differs.
//
// For each desired object, in order: create it when the cache has none; leave it when it
// is up to date (update_merge.h: recorded hash, controller, spot checks); else update it,
// keeping what others own. A healthy, unchanged cluster costs no write.
//
// Never waits and never retries: the first failure stops the pass and is returned with
// what was done before it; the caller requeues (with backoff). In particular
// - AlreadyExists from create (the cache had not seen the object yet, or someone else's
//   object has the name) and Conflict from update (the cache was stale) are returned;
// - an object controlled by someone else (another owner's controller reference) is never
//   overwritten: AlreadyExists, naming its controller; one without a controller is adopted;
// - an object being deleted is left to go: Conflict, and it is re-created on a later pass;
// - a resource whose cache is not synced: Unavailable, before anything is written.
// Error messages name kinds and objects, never their content (the Secret holds the
// password).
#include <cstdint>
#include <string>
#include <vector>

#include "core/kube/kube_client.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/live_objects.h"
#include "core/runtime/result.h"

namespace kun::rediscluster {

struct EnsureReport {
  std::int32_t created = 0;
  std::int32_t updated = 0;
  std::int32_t unchanged = 0;
  // "create ConfigMap ns/redis-cluster-a", "update StatefulSet ns/redis-cluster-a", in order.
  std::vector<std::string> actions;
  // Immutable fields whose desired value could not be written (update_merge.h).
  std::vector<std::string> immutableKept;
  std::int32_t writes() const { return created + updated; }
};

struct EnsureOutcome {
  EnsureReport report;
  Status status;  // the first failure, or ok
  bool ok() const { return status.ok(); }
};

class Ensurer {
 public:
  // Both must outlive the Ensurer.
  Ensurer(KubeClient& client, const LiveObjects& live) : client_(client), live_(live) {}

  EnsureOutcome ensure(const std::vector<DesiredObject>& desired);

 private:
  Status ensureOne(const DesiredObject& d, EnsureReport& report);

  KubeClient& client_;
  const LiveObjects& live_;
};

}  // namespace kun::rediscluster
