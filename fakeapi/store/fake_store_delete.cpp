// FakeStore deletion: preconditions, finalizers and deletionTimestamp, graceful pod
// deletion, propagation policies, and the lifecycles of namespaces and CRDs (which delete
// their contents before they go).
#include <fmt/format.h>

#include "core/runtime/time.h"
#include "fakeapi/store/fake_store.h"
#include "fakeapi/store/kind_rules.h"
#include "fakeapi/store/object_validation.h"

namespace kun {

namespace {

constexpr std::int64_t kDefaultPodGraceSeconds = 30;

bool isCrd(const store::StoredResource& res) {
  return store::isKind(res, "apiextensions.k8s.io", "customresourcedefinitions");
}

std::string_view finalizerFor(std::optional<PropagationPolicy> policy) {
  if (policy == PropagationPolicy::Foreground) return store::kForegroundFinalizer;
  if (policy == PropagationPolicy::Orphan) return store::kOrphanFinalizer;
  return {};
}

}  // namespace

Status FakeStore::remove(const Resource& r, std::string_view ns, std::string_view name, const DeleteOptions& opts) {
  bool afterCommit = false;
  auto fault = injectFault(StoreVerb::Delete, r, afterCommit);
  if (fault && !afterCommit) return *fault;
  auto t = resolve(r);
  if (!t) return t.error();
  StoredResource& res = *t->res;
  const ObjKey key = keyFor(res, ns, name);
  const auto* entry = res.objects.find(key.ns, key.name);
  if (!entry) return notFound(res, name);
  const Object& cur = *entry->object;
  if (opts.preconditionUid && *opts.preconditionUid != meta::uid(cur))
    return conflict(res, name,
                    fmt::format("Precondition failed: UID in precondition: {}, UID in object meta: {}",
                                *opts.preconditionUid, meta::uid(cur)));
  if (opts.preconditionResourceVersion && *opts.preconditionResourceVersion != meta::resourceVersion(cur))
    return conflict(res, name,
                    fmt::format("Precondition failed: ResourceVersion in precondition: {}, ResourceVersion in "
                                "object meta: {}",
                                *opts.preconditionResourceVersion, meta::resourceVersion(cur)));
  if (auto st = deleteObject(res, key, opts.propagationPolicy, opts.gracePeriodSeconds, "delete"); !st) return st;
  if (fault) return *fault;
  return {};
}

std::int64_t FakeStore::podGracePeriod(const Object& pod, std::optional<std::int64_t> asked) const {
  const Object* spec = memberOf(pod, "spec");  // read in place, not copied
  const std::string phase = pod.contains("status") ? pod["status"].value("phase", std::string()) : std::string();
  // As the pod strategy: unbound or finished pods go at once; negative means 1.
  if (!spec || !spec->is_object() || spec->value("nodeName", std::string()).empty()) return 0;
  if (phase == "Succeeded" || phase == "Failed") return 0;
  std::int64_t g = asked ? *asked : spec->value("terminationGracePeriodSeconds", kDefaultPodGraceSeconds);
  return g < 0 ? 1 : g;
}

void FakeStore::armPodGraceTimer(const Object& pod, std::int64_t grace) {
  const std::string uid = meta::uid(pod);
  if (auto t = podGraceTimers_.find(uid); t != podGraceTimers_.end()) loop_.cancel(t->second);
  podGraceTimers_[uid] = loop_.runAfter(seconds(grace), [this, uid] {
    podGraceTimers_.erase(uid);
    if (!options_.podGraceTimeout) return;
    StoredResource* res = nullptr;
    const ObjKey* key = nullptr;
    const auto* entry = entryOf(uid, &res, &key);
    if (!entry || !meta::isDeleting(*entry->object)) return;
    const ObjKey k = *key;
    (void)deleteObject(*res, k, std::nullopt, 0, "grace-expired");
  });
}

Status FakeStore::deleteObject(StoredResource& res, const ObjKey& key, std::optional<PropagationPolicy> policy,
                               std::optional<std::int64_t> grace, std::string_view verb) {
  const auto* entry = res.objects.find(key.ns, key.name);
  if (!entry) return notFound(res, key.name);
  if (store::isKind(res, "", "namespaces")) return beginNamespaceDeletion(res, key);
  const store::ObjectPtr current = entry->object;
  const Object& cur = *current;
  const bool pod = store::isKind(res, "", "pods");
  const std::int64_t g = pod ? podGracePeriod(cur, grace) : 0;
  const std::string_view want = finalizerFor(policy);
  const bool deleting = meta::isDeleting(cur);
  // Removed at once: nothing to mark, so the object is not copied.
  if (!deleting && g == 0 && want.empty() && meta::finalizers(cur).empty()) {
    commitRemove(res, key, std::nullopt, verb);
    return {};
  }

  Object next = cur;
  Object& m = next["metadata"];
  auto markGrace = [&] {
    m["deletionTimestamp"] = formatRfc3339(loop_.wallMicros() + g * 1000000);
    m["deletionGracePeriodSeconds"] = g;
  };
  auto addPolicyFinalizer = [&] {
    if (!want.empty() && !meta::hasFinalizer(next, store::kForegroundFinalizer) &&
        !meta::hasFinalizer(next, store::kOrphanFinalizer))
      meta::addFinalizer(next, want);
  };

  if (deleting) {
    // Deleting again: may shorten a pod's grace period, and may ask for a propagation the
    // first deletion did not.
    bool regraced = false;
    if (pod && g < meta::deletionGracePeriodSeconds(cur).value_or(0)) {
      markGrace();
      regraced = true;
    }
    addPolicyFinalizer();
    auto after = applyNext(res, key, std::move(next), verb);
    if (regraced && g > 0 && res.objects.find(key.ns, key.name)) armPodGraceTimer(*after, g);
    return {};
  }

  markGrace();
  addPolicyFinalizer();
  auto after = applyNext(res, key, std::move(next), verb);
  if (pod && g > 0) armPodGraceTimer(*after, g);
  if (isCrd(res) && res.objects.find(key.ns, key.name)) {
    // No new objects from now on; the cleanup that deletes the existing ones runs later.
    if (auto spec = store::parseCrd(*after); spec.ok())
      if (StoredResource* cr = registry_.find(spec->group, spec->plural); cr && !cr->builtin) cr->terminating = true;
    std::string crd = key.name;
    work_.add("crd/clean/" + crd, [this, crd] { cleanCrd(crd); });
  }
  return {};
}

// --- namespaces ---

Status FakeStore::beginNamespaceDeletion(StoredResource& res, const ObjKey& key) {
  if (key.name == "default" || key.name == "kube-system")
    return makeError(Reason::Forbidden,
                     fmt::format("namespaces \"{}\" is forbidden: this namespace may not be deleted", key.name));
  const auto* entry = res.objects.find(key.ns, key.name);
  if (meta::isDeleting(*entry->object)) return {};
  Object next = *entry->object;
  next["metadata"]["deletionTimestamp"] = nowText_.at(loop_.wallMicros());
  next["metadata"]["deletionGracePeriodSeconds"] = 0;
  next["status"]["phase"] = "Terminating";
  applyNext(res, key, std::move(next), "delete");
  std::string ns = key.name;
  work_.add("ns/clean/" + ns, [this, ns] { cleanNamespace(ns); });
  return {};
}

void FakeStore::cleanNamespace(const std::string& ns) {
  // As the namespace controller: delete every object in it (pods gracefully), then wait
  // for them to be gone; finalizers and grace periods are honoured.
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    StoredResource& res = registry_.at(static_cast<store::TableId>(i));
    if (!res.namespaced) continue;
    for (const auto& key : res.objects.keysIn(ns)) {
      const auto* entry = res.objects.find(key.ns, key.name);
      if (entry && !meta::isDeleting(*entry->object))
        (void)deleteObject(res, key, PropagationPolicy::Background, std::nullopt, "ns-delete");
    }
  }
  checkNamespaceDone(ns);
}

void FakeStore::checkNamespaceDone(const std::string& ns) {
  StoredResource& nsRes = *registry_.find("", "namespaces");
  const auto* entry = nsRes.objects.find("", ns);
  if (!entry || !meta::isDeleting(*entry->object)) return;
  for (std::size_t i = 0; i < registry_.size(); ++i) {
    const StoredResource& res = registry_.at(static_cast<store::TableId>(i));
    if (res.namespaced && res.objects.countIn(ns) > 0) return;
  }
  Object next = *entry->object;
  if (next.contains("spec") && next["spec"].is_object()) next["spec"].erase("finalizers");
  if (next.contains("spec") && next["spec"].empty()) next.erase("spec");
  applyNext(nsRes, ObjKey{"", ns}, std::move(next), "ns-finalize");
}

// --- CRDs ---

void FakeStore::onCrdCommitted(const Object& crd) {
  if (meta::isDeleting(crd)) return;
  auto spec = store::parseCrd(crd);
  if (!spec) return;  // validated before the commit
  (void)registry_.define(*spec);
}

void FakeStore::cleanCrd(const std::string& crdName) {
  StoredResource& crdRes = *registry_.find("apiextensions.k8s.io", "customresourcedefinitions");
  const auto* entry = crdRes.objects.find("", crdName);
  if (!entry || !meta::isDeleting(*entry->object)) return;
  auto spec = store::parseCrd(*entry->object);
  if (!spec) return;
  StoredResource* res = registry_.find(spec->group, spec->plural);
  if (res && !res->builtin) {
    res->terminating = true;
    for (const auto& key : res->objects.keysIn("")) {
      const auto* e = res->objects.find(key.ns, key.name);
      if (e && !meta::isDeleting(*e->object))
        (void)deleteObject(*res, key, PropagationPolicy::Background, std::nullopt, "crd-delete");
    }
  }
  checkCrdDone(crdName);
}

void FakeStore::checkCrdDone(const std::string& crdName) {
  StoredResource& crdRes = *registry_.find("apiextensions.k8s.io", "customresourcedefinitions");
  const auto* entry = crdRes.objects.find("", crdName);
  if (!entry || !meta::isDeleting(*entry->object)) return;
  auto spec = store::parseCrd(*entry->object);
  if (!spec) return;
  if (const StoredResource* res = registry_.find(spec->group, spec->plural); res && res->objects.size() > 0) return;
  Object next = *entry->object;
  meta::removeFinalizer(next, store::kCrdCleanupFinalizer);
  applyNext(crdRes, ObjKey{"", crdName}, std::move(next), "crd-finalize");
}

}  // namespace kun
