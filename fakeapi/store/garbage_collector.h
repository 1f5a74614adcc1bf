#pragma once
// Garbage collection by metadata.ownerReferences, following the Kubernetes garbage
// collector's rules:
// - an object whose owners are all gone (no object with the referenced uid, or one with a
//   different name or out of reach of its namespace) is deleted (background);
// - an object with at least one live owner loses only its references to gone owners and
//   to owners being deleted in the foreground;
// - an owner deleted in the foreground (finalizer foregroundDeletion) has its dependents
//   deleted and keeps its finalizer until no dependent with blockOwnerDeletion remains;
// - an owner deleted with orphan propagation (finalizer orphan) has the references to it
//   removed from its dependents, then loses the finalizer.
// All of it runs through DeferredWork, one cascade level per loop turn.
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/kube_client.h"
#include "fakeapi/store/deferred_work.h"
#include "fakeapi/store/store_types.h"

namespace kun::store {

inline constexpr std::string_view kForegroundFinalizer = "foregroundDeletion";
inline constexpr std::string_view kOrphanFinalizer = "orphan";

// What the collector needs from the store: find objects by uid and act on them through the
// store's own write paths.
class GcHost {
 public:
  struct Found {
    ObjectPtr object;
    bool namespaced = true;
  };
  virtual ~GcHost() = default;
  virtual std::optional<Found> findByUid(const std::string& uid) const = 0;
  virtual std::vector<std::string> dependentsOf(const std::string& ownerUid) const = 0;
  virtual void gcDelete(const std::string& uid, PropagationPolicy policy) = 0;
  virtual void gcRemoveOwnerRefs(const std::string& uid, const std::set<std::string>& ownerUids) = 0;
  virtual void gcRemoveFinalizer(const std::string& uid, std::string_view finalizer) = 0;
};

class GarbageCollector {
 public:
  GarbageCollector(DeferredWork& work, GcHost& host) : work_(work), host_(host) {}

  // The object's owner references are new or changed: check that its owners exist.
  void checkOwners(const std::string& uid);
  // The object is gone: its dependents may have lost their last owner.
  void ownerRemoved(const std::string& uid);
  // The object carries foregroundDeletion or orphan and is being deleted (or one of its
  // dependents changed): make progress on it.
  void processDeleting(const std::string& uid);

 private:
  void attemptToDelete(const std::string& uid);
  void progressDeleting(const std::string& uid);

  DeferredWork& work_;
  GcHost& host_;
};

}  // namespace kun::store
