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
#include <memory>
#include <optional>
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

// What ensure() found on its last clean pass over one cluster's objects: this desired list
// and the cached objects it was compared with, every one up to date. The same list against
// the same cached objects (pointer identity; both are held, so no pointer is reused for
// another object) gives the same answer, so it is not worked out again; nor is the answer
// for each object of the list still cached as the same object when others changed. Any
// create, update or failure clears it.
struct EnsureMemo {
  std::shared_ptr<const std::vector<DesiredObject>> desired;
  std::vector<ObjectPtr> live;
  // LiveObjects::changes() before `live` was read: while it stays, `live` is still what
  // the caches hold, and is not read again.
  std::optional<std::uint64_t> liveChanges;
};

class Ensurer {
 public:
  // Both must outlive the Ensurer.
  Ensurer(KubeClient& client, const LiveObjects& live) : client_(client), live_(live) {}

  EnsureOutcome ensure(const std::vector<DesiredObject>& desired);
  // The same, remembering a clean pass in memo and comparing only the objects that changed
  // since.
  EnsureOutcome ensure(const std::shared_ptr<const std::vector<DesiredObject>>& desired, EnsureMemo& memo);

 private:
  Status checkSynced(const std::vector<DesiredObject>& desired) const;
  ObjectPtr liveOf(const DesiredObject& d) const;
  Status ensureOne(const DesiredObject& d, const ObjectPtr& live, EnsureReport& report);
  Status ownerExists(const DesiredObject& d);

  KubeClient& client_;
  const LiveObjects& live_;
  bool ownerChecked_ = false;  // this pass saw the owner in the API server
};

}  // namespace kun::rediscluster
