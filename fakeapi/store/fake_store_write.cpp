// FakeStore writes: create, update, updateStatus and patch, with the API server's rules
// for server-owned metadata, optimistic concurrency, the status subresource and generation.
#include <fmt/format.h>

#include "core/api/object_members.h"
#include "core/api/object_ptr.h"
#include "core/runtime/time.h"
#include "fakeapi/store/back_patch.h"
#include "fakeapi/store/fake_store.h"
#include "fakeapi/store/kind_rules.h"
#include "fakeapi/store/object_validation.h"

namespace kun {

using store::ObjectPtr;
using store::sameApiVersion;

namespace {

// Metadata fields only the server sets; an update carries them over from the stored object.
constexpr const char* kServerOwned[] = {"uid", "creationTimestamp", "deletionTimestamp", "deletionGracePeriodSeconds",
                                        "generation", "resourceVersion"};

// Kubernetes serialises empty maps and lists in metadata away (omitempty); doing the same
// keeps "labels: {}" and no labels the same object, so such an update is a no-op.
void normalizeMeta(Object& obj) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return;
  for (auto it = m->begin(); it != m->end();) {
    const bool empty = it->is_null() || ((it->is_object() || it->is_array()) && it->empty()) ||
                       (it->is_string() && it->get_ref<const std::string&>().empty());
    if (empty) it = m->erase(it);
    else ++it;
  }
}

// How two versions differ, read off the back patch between them (one walk of both).
// `content`: a field outside metadata (and status, with the subresource) differs — what
// makes metadata.generation move. For kinds with a spec that is the spec; for kinds
// without one (ConfigMap data, ...) any non-metadata field. `any`: anything differs at all.
struct Difference {
  bool any = false;
  bool content = false;
};

Difference classify(const store::BackPatch& patch, bool statusSubresource) {
  Difference d;
  d.any = !patch.empty();
  for (const auto& op : patch) {
    const std::string_view k = store::topKey(op);
    if (!(k == "metadata" || k == "apiVersion" || k == "kind" || (statusSubresource && k == "status"))) {
      d.content = true;
      break;
    }
  }
  return d;
}

Status checkTypeMeta(const Object& in, const Resource& r, const store::StoredResource& res) {
  if (!in.is_object()) return makeError(Reason::BadRequest, "the object must be a JSON object");
  if (const Object* av = memberOf(in, "apiVersion"); av && !av->is_null()) {
    // Compared piecewise (sameApiVersion): apiVersion() builds "group/version" each call.
    if (!av->is_string() || !sameApiVersion(in, r))
      return makeError(Reason::BadRequest, fmt::format("the API version in the data ({}) does not match the expected "
                                                       "API version ({})",
                                                       av->dump(), r.apiVersion()));
  }
  if (const Object* k = memberOf(in, "kind"); k && !k->is_null()) {
    if (!k->is_string() || k->get_ref<const std::string&>() != res.kind)
      return makeError(Reason::BadRequest,
                       fmt::format("the kind in the data ({}) does not match the expected kind ({})", k->dump(), res.kind));
  }
  if (const Object* m = memberOf(in, "metadata"); m && !m->is_null() && !m->is_object())
    return makeError(Reason::BadRequest, "metadata must be an object");
  return {};
}

std::vector<std::string> finalizerList(const Object& o) { return meta::finalizers(o); }


}  // namespace

Status FakeStore::checkNamespaceUsable(std::string_view ns) const {
  const auto* entry = registry_.find(res::namespaces)->objects.find("", ns);
  if (!entry) return makeError(Reason::NotFound, fmt::format("namespaces \"{}\" not found", ns));
  if (meta::isDeleting(*entry->object))
    return makeError(Reason::Forbidden,
                     fmt::format("unable to create new content in namespace {} because it is being terminated", ns));
  return {};
}

std::string FakeStore::allocateClusterIP() {
  // 10.96.0.0/12, as kubeadm's default service range; sequential, never reused.
  const std::uint64_t n = ++clusterIPs_;
  return fmt::format("10.{}.{}.{}", 96 + ((n >> 16) & 0x0f), (n >> 8) & 0xff, n & 0xff);
}

// --- create ---

Result<ObjectPtr> FakeStore::createCall(const Resource& r, Object obj) {
  bool afterCommit = false;
  auto fault = injectFault(StoreVerb::Create, r, afterCommit);
  if (fault && !afterCommit) return *fault;
  auto t = resolve(r);
  if (!t) return t.error();
  auto created = createObject(*t, std::move(obj));
  if (!created) return created.error();
  if (fault) return *fault;
  return created;
}

Result<Object> FakeStore::create(const Resource& r, const Object& obj) {
  auto created = createCall(r, obj);
  if (!created) return created.error();
  return render(**created, r);
}

Result<ObjectPtr> FakeStore::createShared(const Resource& r, Object obj) {
  auto created = createCall(r, std::move(obj));
  if (!created) return created.error();
  return renderShared(std::move(*created), r);
}

Result<ObjectPtr> FakeStore::createObject(Target t, Object obj) {
  StoredResource& res = *t.res;
  const Resource& r = *t.asked;
  if (auto st = checkTypeMeta(obj, r, res); !st) return st.error();
  if (res.terminating)
    return makeError(Reason::Forbidden, fmt::format("create not allowed while custom resource definition {} is "
                                                    "terminating",
                                                    res.groupResource));
  // Mostly sent as they should be (checked above): then left as they are, not rebuilt.
  if (!sameApiVersion(obj, r)) memberSlot(obj, "apiVersion") = r.apiVersion();
  if (const Object* k = memberOf(obj, "kind"); !k || !k->is_string() || k->get_ref<const std::string&>() != res.kind)
    memberSlot(obj, "kind") = res.kind;
  Object& m = memberSlot(obj, "metadata");
  if (!m.is_object()) m = Object::object();
  if (auto rv = m.find("resourceVersion"); rv != m.end() && rv->is_string() && !rv->get_ref<const std::string&>().empty())
    return makeError(Reason::BadRequest, "resourceVersion should not be set on objects to be created");
  if (!res.namespaced) m.erase("namespace");
  normalizeMeta(obj);
  const MetaIdentity given = identityOf(obj);  // one walk of metadata for both
  const std::string ns = res.namespaced ? std::string(given.ns) : std::string();

  bool generated = false;
  std::string name(given.name);
  if (name.empty()) {
    std::string base = meta::generateName(obj);
    if (!base.empty()) {
      if (base.size() > store::NameGenerator::kMaxGenerateNameBase) base.resize(store::NameGenerator::kMaxGenerateNameBase);
      // Retry a few draws on collision; a persistent clash reports AlreadyExists, as the
      // API server does when a generated name is taken.
      std::string candidate;
      for (int attempt = 0; attempt < 8; ++attempt) {
        candidate = base + names_.suffix();
        if (!res.objects.find(ns, candidate)) break;
      }
      name = candidate;
      obj["metadata"]["name"] = name;
      generated = true;
    }
  }
  if (auto st = store::validateMetadata(res, obj, generated); !st) return st.error();
  const bool isCrd = store::isKind(res, "apiextensions.k8s.io", "customresourcedefinitions");
  if (isCrd) {
    auto spec = store::parseCrd(obj);
    if (!spec) return spec.error();
    if (const StoredResource* existing = registry_.find(spec->group, spec->plural); existing && existing->builtin)
      return makeError(Reason::Invalid, fmt::format("{} is served by the API server itself", spec->groupResource()),
                       "metadata.name");
  }
  if (res.namespaced)
    if (auto st = checkNamespaceUsable(ns); !st) return st.error();
  if (res.objects.find(ns, name)) return makeError(Reason::AlreadyExists, store::describe(res, name) + " already exists");

  Object& md = memberSlot(obj, "metadata");
  std::string uid;
  do uid = names_.uid(); while (uids_.contains(uid));
  memberSlot(md, "uid") = uid;
  memberSlot(md, "creationTimestamp") = nowText_.at(loop_.wallMicros());
  memberSlot(md, "generation") = 1;
  // Looked for before erasing: erase(const char*) builds a key string, and they are
  // almost never there.
  for (const char* f : {"deletionTimestamp", "deletionGracePeriodSeconds"})
    if (memberOf(md, f)) md.erase(f);
  store::CreateContext ctx{loop_.wallMicros(), [this] { return allocateClusterIP(); }};
  if (auto st = store::prepareForCreate(res, r.version, obj, ctx); !st) return st.error();
  return commitPut(res, ObjKey{ns, name}, std::move(obj), nullptr, "create");
}

// --- update, updateStatus, patch ---

Result<ObjectPtr> FakeStore::updateCall(const Resource& r, Object obj, bool statusOnly, StoreVerb verb) {
  bool afterCommit = false;
  auto fault = injectFault(verb, r, afterCommit);
  if (fault && !afterCommit) return *fault;
  auto t = resolve(r);
  if (!t) return t.error();
  auto updated = updateObject(*t, std::move(obj), statusOnly, verb);
  if (!updated) return updated.error();
  if (fault) return *fault;
  return updated;
}

Result<Object> FakeStore::update(const Resource& r, const Object& obj) {
  auto updated = updateCall(r, obj, false, StoreVerb::Update);
  if (!updated) return updated.error();
  return render(**updated, r);
}

Result<ObjectPtr> FakeStore::updateShared(const Resource& r, Object obj) {
  auto updated = updateCall(r, std::move(obj), false, StoreVerb::Update);
  if (!updated) return updated.error();
  return renderShared(std::move(*updated), r);
}

Result<Object> FakeStore::updateStatus(const Resource& r, const Object& obj) {
  auto updated = updateCall(r, obj, true, StoreVerb::UpdateStatus);
  if (!updated) return updated.error();
  return render(**updated, r);
}

Result<ObjectPtr> FakeStore::updateStatusShared(const Resource& r, Object obj) {
  auto updated = updateCall(r, std::move(obj), true, StoreVerb::UpdateStatus);
  if (!updated) return updated.error();
  return renderShared(std::move(*updated), r);
}

Result<Object> FakeStore::patch(const Resource& r, std::string_view ns, std::string_view name,
                                const Object& mergePatch) {
  auto patched = patchCall(r, ns, name, mergePatch);
  if (!patched) return patched.error();
  return render(**patched, r);
}

Result<ObjectPtr> FakeStore::patchShared(const Resource& r, std::string_view ns, std::string_view name,
                                         const Object& mergePatch) {
  auto patched = patchCall(r, ns, name, mergePatch);
  if (!patched) return patched.error();
  return renderShared(std::move(*patched), r);
}

Result<ObjectPtr> FakeStore::patchCall(const Resource& r, std::string_view ns, std::string_view name,
                                       const Object& mergePatch) {
  bool afterCommit = false;
  auto fault = injectFault(StoreVerb::Patch, r, afterCommit);
  if (fault && !afterCommit) return *fault;
  auto t = resolve(r);
  if (!t) return t.error();
  StoredResource& res = *t->res;
  if (!mergePatch.is_object()) return makeError(Reason::BadRequest, "a merge patch must be a JSON object");
  const auto* entry = res.objects.find(res.namespaced ? ns : std::string_view(), name);
  if (!entry) return notFound(res, name);
  Object merged = *entry->object;
  merged.merge_patch(mergePatch);
  if (meta::name(merged) != name || (res.namespaced && meta::namespaceOf(merged) != ns))
    return makeError(Reason::BadRequest, fmt::format("the name of the object ({}) does not match the name on the "
                                                     "URL ({})",
                                                     meta::key(merged), name));
  auto updated = updateObject(*t, std::move(merged), false, StoreVerb::Patch);
  if (!updated) return updated.error();
  if (fault) return *fault;
  return updated;
}

Result<ObjectPtr> FakeStore::updateObject(Target t, Object in, bool statusOnly, StoreVerb verb) {
  StoredResource& res = *t.res;
  const Resource& r = *t.asked;
  const bool statusSub = res.statusSubresource(r.version);
  if (statusOnly && !statusSub)
    return makeError(Reason::NotFound,
                     fmt::format("the server could not find the requested resource ({}/status)", res.groupResource));
  if (auto st = checkTypeMeta(in, r, res); !st) return st.error();
  // The identity and preconditions read in one walk of each metadata (read before `in` is
  // changed or moved from).
  const MetaIdentity given = identityOf(in);
  const std::string name(given.name);
  const std::string ns = res.namespaced ? std::string(given.ns) : std::string();
  if (name.empty())
    return makeError(Reason::Invalid, fmt::format("{}: metadata.name: Required value", res.kind), "metadata.name");
  if (res.namespaced && ns.empty())
    return makeError(Reason::Invalid, fmt::format("{}: metadata.namespace: Required value", res.kind),
                     "metadata.namespace");
  const auto* entry = res.objects.find(ns, name);
  if (!entry) return notFound(res, name);
  const ObjectPtr current = entry->object;
  const Object& cur = *current;

  const MetaIdentity stored = identityOf(cur);
  if (!given.resourceVersion.empty() && given.resourceVersion != stored.resourceVersion)
    return conflict(res, name, "the object has been modified; please apply your changes to the latest version and try again");
  if (!given.uid.empty() && given.uid != stored.uid)
    return conflict(res, name,
                    fmt::format("Precondition failed: UID in precondition: {}, UID in object meta: {}", given.uid,
                                stored.uid));

  Object next;
  if (statusOnly) {
    // Everything but status as stored (status is not copied only to be replaced).
    next = copyWithout(cur, "status");
    if (auto s = in.find("status"); s != in.end()) memberSlot(next, "status") = std::move(*s);
    dismantle(in);  // what is left of it, freed leaves first (see shareObject)
    auto patch = store::backPatchOf(next, cur, "status");
    return applyNext(res, ObjKey{ns, name}, std::move(next), storeVerbName(verb), std::move(patch));
  } else {
    next = std::move(in);
    if (!sameApiVersion(next, r)) next["apiVersion"] = r.apiVersion();
    if (const Object* k = memberOf(next, "kind"); !k || !k->is_string() || k->get_ref<const std::string&>() != res.kind)
      next["kind"] = res.kind;
    Object& m = memberSlot(next, "metadata");
    if (!m.is_object()) m = Object::object();
    // A client usually sends back what it read: comparing first spares the copies.
    // (Members found by memberOf's walk, not nlohmann's find with a literal key.)
    auto keep = [](Object& into, const Object& from, const char* f) {
      const Object* src = memberOf(from, f);
      if (!src) {
        into.erase(f);
        return;
      }
      if (Object& mine = memberSlot(into, f); mine != *src) mine = *src;
    };
    const Object& cm = cur["metadata"];
    for (const char* f : kServerOwned) keep(m, cm, f);
    if (statusSub) keep(next, cur, "status");
    normalizeMeta(next);
    if (auto st = store::validateMetadata(res, next, false, &cur); !st) return st.error();
    if (meta::isDeleting(cur)) {
      const auto before = finalizerList(cur);
      for (const auto& f : finalizerList(next))
        if (std::find(before.begin(), before.end(), f) == before.end())
          return makeError(Reason::Invalid,
                           fmt::format("{} \"{}\" is invalid: metadata.finalizers: Forbidden: no new finalizers can be "
                                       "added if the object is being deleted",
                                       res.kind, name),
                           "metadata.finalizers");
    }
    // The kind's checks look only at content, so a change of metadata alone skips them.
    // The comparison that finds whether anything changed also yields the watch history's
    // patch back to the current version, so the tree is walked once.
    const bool rewrites = store::updateRewrites(res);
    store::BackPatch patch;
    Difference d;
    if (!rewrites) {
      patch = store::backPatch(next, cur);
      d = classify(patch, statusSub);
    }
    if (rewrites || d.content) {
      if (auto st = store::prepareForUpdate(res, next, cur); !st) return st.error();
      if (store::isKind(res, "apiextensions.k8s.io", "customresourcedefinitions"))
        if (auto spec = store::parseCrd(next); !spec) return spec.error();
    }
    if (rewrites) {
      patch = store::backPatch(next, cur);
      d = classify(patch, statusSub);
    }
    if (!d.any) return current;  // nothing changed: nothing committed, as in Kubernetes
    if (d.content) {
      auto g = cm.find("generation");
      store::notePrevious(patch, "/metadata/generation", g == cm.end() ? nullptr : &*g);
      memberSlot(m, "generation") = meta::generation(cur) + 1;
    }
    return applyNext(res, ObjKey{ns, name}, std::move(next), storeVerbName(verb), std::move(patch));
  }
}

ObjectPtr FakeStore::applyNext(StoredResource& res, const ObjKey& key, Object next, std::string_view verb,
                               std::optional<store::BackPatch> patch) {
  const auto* entry = res.objects.find(key.ns, key.name);
  ObjectPtr current = entry->object;
  if (!patch) normalizeMeta(next);
  if (store::readyToRemove(res, next)) return commitRemove(res, key, std::move(next), verb);
  // Nothing changed: nothing committed.
  if (patch ? patch->empty() : next == *current) return current;
  return commitPut(res, key, std::move(next), current, verb, std::move(patch), entry);
}

}  // namespace kun
