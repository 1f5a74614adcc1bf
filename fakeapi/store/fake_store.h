#pragma once
// The fake Kubernetes API server: an in-process object store behind the KubeClient seam,
// following the API conventions the operator depends on.
//
// - One cluster-wide resourceVersion, a decimal counter; every committed change (create,
//   update, status update, patch, deletion mark, removal) takes the next one. An update
//   that changes nothing commits nothing (same version, no event), as in Kubernetes.
// - create assigns uid, creationTimestamp and generation 1 and resolves generateName;
//   metadata is validated (names by the rule of their kind, labels, annotations,
//   finalizers, owner references); Invalid names the field.
// - update/updateStatus/patch/remove with a stale resourceVersion or a failed uid
//   precondition: Conflict, nothing changed. Without a resourceVersion an update is
//   unconditional. Changes outside metadata (and outside status, for resources with the
//   status subresource) bump metadata.generation.
// - Status subresource: updateStatus changes only .status; update and patch keep the
//   stored .status.
// - Deletion: objects with finalizers get deletionTimestamp and stay until an update
//   removes the last finalizer. Pods are deleted gracefully (see remove()). Namespaced
//   objects need their namespace ("default" and "kube-system" exist from the start);
//   deleting a namespace deletes everything in it, then the namespace.
// - Garbage collection by ownerReferences (garbage_collector.h): background, foreground,
//   orphan; transitive; dependents of owners that do not exist are collected.
// - Watches (watch_hub.h): ADDED/MODIFIED/DELETED (BOOKMARK when asked) in version order,
//   delivered through the event loop, from any version in the history window.
// - A custom resource is served once its CustomResourceDefinition is created through the
//   store, and stops being served when the CRD is deleted (after its objects are).
// - faults() (fault_hook.h) makes any call fail, slows or closes watches.
//
// Not thread-safe: call it from the loop's thread. The loop must outlive the store.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/kube_client.h"
#include "core/kube/time_text.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/random.h"
#include "core/runtime/trace.h"
#include "fakeapi/store/back_patch.h"
#include "fakeapi/store/deferred_work.h"
#include "fakeapi/store/fault_hook.h"
#include "fakeapi/store/garbage_collector.h"
#include "fakeapi/store/name_generator.h"
#include "fakeapi/store/resource_registry.h"
#include "fakeapi/store/selector_cache.h"
#include "fakeapi/store/uid_index.h"
#include "fakeapi/store/watch_hub.h"

namespace kun {

struct FakeStoreOptions {
  std::uint64_t seed = 1;             // uids, generated names and fault draws
  std::size_t historyWindow = 10000;  // changes a watch can resume from
  Duration bookmarkInterval = seconds(60);
  // When a pod's grace period ends and nothing (no kubelet) confirmed the deletion, the
  // store removes it itself. Off: the pod stays Terminating until confirmed, as on a dead
  // node.
  bool podGraceTimeout = true;
};

class FakeStore final : public KubeClient, private store::GcHost {
 public:
  explicit FakeStore(EventLoop& loop, Trace* trace = nullptr);
  FakeStore(EventLoop& loop, Trace* trace, FakeStoreOptions options);
  ~FakeStore() override;
  FakeStore(const FakeStore&) = delete;
  FakeStore& operator=(const FakeStore&) = delete;

  // --- KubeClient ---
  Result<Object> get(const Resource& r, std::string_view ns, std::string_view name) override;
  // Items sorted by (namespace, name); resourceVersion is the store's current version.
  Result<ObjectList> list(const Resource& r, std::string_view ns, const ListOptions& opts = {}) override;
  Result<Object> create(const Resource& r, const Object& obj) override;
  Result<Object> update(const Resource& r, const Object& obj) override;
  Result<Object> updateStatus(const Resource& r, const Object& obj) override;
  // JSON merge patch onto the stored object, then the rules of update (main resource). A
  // metadata.resourceVersion in the patch is a precondition.
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name,
                       const Object& mergePatch) override;
  // Pods are deleted gracefully: the grace period is opts.gracePeriodSeconds, else
  // spec.terminationGracePeriodSeconds, else 30 — and 0 for a pod not bound to a node
  // (no spec.nodeName) or already Succeeded/Failed. With a grace period > 0 the pod gets
  // deletionTimestamp = now + grace and deletionGracePeriodSeconds = grace and stays.
  // The kubelet confirms that the containers are gone by deleting again with
  // gracePeriodSeconds = 0 (with preconditionUid, so it never removes a successor of the
  // same name); the pod is then removed (once its finalizers are gone). A later delete
  // may shorten the grace period, never lengthen it. With podGraceTimeout (default), the
  // store removes the pod itself when the grace period ends.
  // Other kinds: removed at once unless finalizers (or Foreground/Orphan propagation,
  // which add foregroundDeletion/orphan) keep them; Conflict on a failed precondition.
  Status remove(const Resource& r, std::string_view ns, std::string_view name,
                const DeleteOptions& opts = {}) override;
  // resourceVersion "" or "0": from now (no replay, no synthetic ADDED events). A version
  // older than the history window: Gone; newer than the store's: Timeout ("too large").
  // A MODIFIED that takes an object into or out of the watch's selectors is delivered as
  // ADDED or DELETED. Bookmarks (allowBookmarks) carry only metadata.resourceVersion and
  // are sent within bookmarkInterval once the store has moved past what the watch saw.
  Result<std::unique_ptr<Watch>> watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                       WatchHandler onEvent, WatchClosedHandler onClosed) override;

  // The stored version itself, no copy (get() copies the whole object); same checks and
  // faults as get(). Only when r is another version of the resource than the object was
  // written with does it return a copy carrying r's apiVersion.
  Result<ObjectPtr> getShared(const Resource& r, std::string_view ns, std::string_view name) override;
  // update()/updateStatus() without the two copies the by-value calls imply (the argument
  // in, the result out): obj is moved in and the stored version comes back shared (a copy
  // only for another version, as getShared). Same rules and faults.
  Result<ObjectPtr> updateShared(const Resource& r, Object obj) override;
  // list() without copies: the stored versions (copies only for another version, as
  // getShared). Same rules and faults.
  Result<std::vector<ObjectPtr>> listShared(const Resource& r, std::string_view ns, const ListOptions& opts = {}) override;
  Result<ObjectPtr> updateStatusShared(const Resource& r, Object obj) override;
  // create()/patch() without the copies of the by-value calls, as updateShared.
  Result<ObjectPtr> createShared(const Resource& r, Object obj) override;
  Result<ObjectPtr> patchShared(const Resource& r, std::string_view ns, std::string_view name,
                                const Object& mergePatch) override;

  // --- beyond the seam ---
  FaultHook& faults() { return faults_; }
  // While a bypass is held, calls skip the fault hook entirely (no injected error, no draw
  // from its random stream): how the harness reads the world without changing the run.
  class FaultBypass {
   public:
    explicit FaultBypass(FakeStore& s) : s_(s) { ++s_.faultBypass_; }
    ~FaultBypass() { --s_.faultBypass_; }
    FaultBypass(const FaultBypass&) = delete;
    FaultBypass& operator=(const FaultBypass&) = delete;

   private:
    FakeStore& s_;
  };
  std::string resourceVersion() const { return std::to_string(rv_); }
  // The same as a number: it changes exactly when something stored changes, so a reader
  // may keep what it derived from the store until it moves.
  std::uint64_t version() const { return rv_; }
  // Every resource version served now (built-ins, then custom resources), for discovery.
  std::vector<Resource> resources() const { return registry_.served(); }
  // Sends a BOOKMARK now to every bookmark watch behind the current version.
  void sendBookmarks() { hub_->sendBookmarks(); }
  void setPodGraceTimeout(bool on) { options_.podGraceTimeout = on; }
  // No garbage collection or namespace/CRD cleanup is waiting.
  bool settled() const { return work_.idle(); }
  std::size_t objectCount() const;
  std::size_t watchCount() const { return hub_->activeWatches(); }
  // Entries the last list() examined: the cost of a selective list.
  std::size_t lastListExaminedForTest() const { return lastListExamined_; }

 private:
  using StoredResource = store::StoredResource;
  using ObjKey = store::ObjKey;

  // A resolved call target: the stored resource and the version the caller speaks.
  struct Target {
    StoredResource* res;
    const Resource* asked;
  };

  Result<Target> resolve(const Resource& r);
  std::optional<Error> injectFault(StoreVerb verb, const Resource& r, bool& afterCommit);
  Object render(const Object& stored, const Resource& asked) const;
  // list/listShared: the matching stored objects, in (namespace, name) order.
  Status select(const Resource& r, std::string_view ns, const ListOptions& opts,
                const std::function<void(const ObjectPtr&)>& each);
  // stored itself when it already speaks asked's version, else a rendered copy.
  ObjectPtr renderShared(ObjectPtr stored, const Resource& asked) const;
  Result<ObjectPtr> createCall(const Resource& r, Object obj);
  Result<ObjectPtr> updateCall(const Resource& r, Object obj, bool statusOnly, StoreVerb verb);
  Result<ObjectPtr> patchCall(const Resource& r, std::string_view ns, std::string_view name, const Object& mergePatch);
  ObjKey keyFor(const StoredResource& res, std::string_view ns, std::string_view name) const;
  Error notFound(const StoredResource& res, std::string_view name) const;
  Error conflict(const StoredResource& res, std::string_view name, std::string_view why) const;

  // Writes.
  Result<ObjectPtr> createObject(Target t, Object obj);
  Result<ObjectPtr> updateObject(Target t, Object in, bool statusOnly, StoreVerb verb);
  // Applies a prepared next state of an existing object: removes it when it is deleting and
  // nothing holds it any more, commits it when it differs, else changes nothing.
  // patch: the caller normalised next and compared it with the stored version, finding
  // this patch back to it (skips the comparison; empty: nothing changed).
  ObjectPtr applyNext(StoredResource& res, const ObjKey& key, Object next, std::string_view verb,
                      std::optional<store::BackPatch> patch = std::nullopt);
  Status deleteObject(StoredResource& res, const ObjKey& key, std::optional<PropagationPolicy> policy,
                      std::optional<std::int64_t> grace, std::string_view verb);
  std::int64_t podGracePeriod(const Object& pod, std::optional<std::int64_t> asked) const;
  void armPodGraceTimer(const Object& pod, std::int64_t grace);

  // Commits: every change of stored state goes through these two.
  // patch: from next back to previous, if the caller found it (resourceVersion aside).
  // at: previous's entry in the table, when the caller has it at hand.
  ObjectPtr commitPut(StoredResource& res, const ObjKey& key, Object next, ObjectPtr previous, std::string_view verb,
                      std::optional<store::BackPatch> patch = std::nullopt,
                      const store::ObjectTable::Entry* at = nullptr);
  ObjectPtr commitRemove(StoredResource& res, const ObjKey& key, std::optional<Object> finalState, std::string_view verb);
  void record(std::string_view verb, const StoredResource& res, const ObjKey& key, std::uint64_t rv);

  // Lifecycles of namespaces and CRDs.
  Status beginNamespaceDeletion(StoredResource& res, const ObjKey& key);
  void cleanNamespace(const std::string& ns);
  void checkNamespaceDone(const std::string& ns);
  void onCrdCommitted(const Object& crd);
  void cleanCrd(const std::string& crdName);
  void checkCrdDone(const std::string& crdName);
  Status checkNamespaceUsable(std::string_view ns) const;
  std::string allocateClusterIP();

  // GcHost.
  std::optional<Found> findByUid(const std::string& uid) const override;
  std::vector<std::string> dependentsOf(const std::string& ownerUid) const override;
  void gcDelete(const std::string& uid, PropagationPolicy policy) override;
  void gcRemoveOwnerRefs(const std::string& uid, const std::set<std::string>& ownerUids) override;
  void gcRemoveFinalizer(const std::string& uid, std::string_view finalizer) override;
  const store::ObjectTable::Entry* entryOf(const std::string& uid, StoredResource** res, const ObjKey** key);

  EventLoop& loop_;
  Trace* trace_;
  FakeStoreOptions options_;
  FaultHook faults_;
  int faultBypass_ = 0;
  store::NameGenerator names_;
  store::ResourceRegistry registry_;
  store::UidIndex uids_;
  std::shared_ptr<store::WatchHub> hub_;
  store::DeferredWork work_;
  store::GarbageCollector gc_;
  std::uint64_t rv_ = 0;
  std::string recordScratch_;  // record()'s line, reused
  std::uint64_t clusterIPs_ = 0;
  Rfc3339Text nowText_;  // creation and deletion timestamps
  std::map<std::string, TimerId> podGraceTimers_;  // by pod uid
  std::size_t lastListExamined_ = 0;
  store::SelectorCache selectors_;  // lists' label selectors, parsed once per text
};

}  // namespace kun
