#include "fakeapi/store/garbage_collector.h"

namespace kun::store {
namespace {

bool blocksOwner(const Object& dependent, const std::string& ownerUid) {
  for (const auto& ref : meta::ownerReferences(dependent))
    if (ref.uid == ownerUid) return ref.blockOwnerDeletion;
  return false;
}

}  // namespace

void GarbageCollector::checkOwners(const std::string& uid) {
  work_.add("gc/dependent/" + uid, [this, uid] { attemptToDelete(uid); });
}

void GarbageCollector::ownerRemoved(const std::string& uid) {
  for (const auto& dep : host_.dependentsOf(uid)) checkOwners(dep);
}

void GarbageCollector::processDeleting(const std::string& uid) {
  work_.add("gc/owner/" + uid, [this, uid] { progressDeleting(uid); });
}

void GarbageCollector::attemptToDelete(const std::string& uid) {
  auto item = host_.findByUid(uid);
  if (!item) return;
  const Object& obj = *item->object;
  if (meta::isDeleting(obj)) {
    if (meta::hasFinalizer(obj, kForegroundFinalizer)) processDeleting(uid);
    return;
  }
  const auto refs = meta::ownerReferences(obj);
  if (refs.empty()) return;
  const std::string ns = meta::namespaceOf(obj);

  std::set<std::string> gone, waiting;
  bool solid = false;
  for (const auto& ref : refs) {
    auto owner = host_.findByUid(ref.uid);
    // Kubernetes looks the owner up by name in the dependent's namespace (or cluster-wide)
    // and compares uids: a reference that resolves elsewhere points at nothing.
    const bool reachable = owner && meta::name(*owner->object) == ref.name &&
                           (!owner->namespaced || (item->namespaced && meta::namespaceOf(*owner->object) == ns));
    if (!reachable) gone.insert(ref.uid);
    else if (meta::isDeleting(*owner->object) && meta::hasFinalizer(*owner->object, kForegroundFinalizer))
      waiting.insert(ref.uid);
    else solid = true;
  }
  if (solid) {
    std::set<std::string> drop = gone;
    drop.insert(waiting.begin(), waiting.end());
    if (!drop.empty()) host_.gcRemoveOwnerRefs(uid, drop);
    return;
  }
  // No live owner: delete. Owners waiting in the foreground make the deletion foreground
  // too when this object has dependents of its own, so the wait is transitive.
  const bool foreground = !waiting.empty() && !host_.dependentsOf(uid).empty();
  host_.gcDelete(uid, foreground ? PropagationPolicy::Foreground : PropagationPolicy::Background);
}

void GarbageCollector::progressDeleting(const std::string& uid) {
  auto item = host_.findByUid(uid);
  if (!item || !meta::isDeleting(*item->object)) return;
  const Object& owner = *item->object;
  if (meta::hasFinalizer(owner, kOrphanFinalizer)) {
    for (const auto& dep : host_.dependentsOf(uid)) host_.gcRemoveOwnerRefs(dep, {uid});
    host_.gcRemoveFinalizer(uid, kOrphanFinalizer);
    return;
  }
  if (!meta::hasFinalizer(owner, kForegroundFinalizer)) return;
  bool blocked = false;
  for (const auto& dep : host_.dependentsOf(uid)) {
    auto d = host_.findByUid(dep);
    if (!d) continue;
    if (blocksOwner(*d->object, uid)) blocked = true;
    if (!meta::isDeleting(*d->object)) checkOwners(dep);
  }
  if (!blocked) host_.gcRemoveFinalizer(uid, kForegroundFinalizer);
}

}  // namespace kun::store
