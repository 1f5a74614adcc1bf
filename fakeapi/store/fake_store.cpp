// FakeStore: construction, resolution of resources, reads, watches, commits, and the
// garbage collector's view of the store. Writes are in fake_store_write.cpp, deletion and
// the namespace/CRD lifecycles in fake_store_delete.cpp.
#include "fakeapi/store/fake_store.h"

#include <charconv>

#include <fmt/format.h>

#include "core/api/object_members.h"
#include "fakeapi/store/kind_rules.h"
#include "fakeapi/store/object_validation.h"

namespace kun {

using store::Change;
using store::sameApiVersion;
using store::ObjectPtr;

namespace {

std::optional<std::uint64_t> parseVersion(std::string_view s) {
  std::uint64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

FakeStore::FakeStore(EventLoop& loop, Trace* trace) : FakeStore(loop, trace, FakeStoreOptions{}) {}

FakeStore::FakeStore(EventLoop& loop, Trace* trace, FakeStoreOptions options)
    : loop_(loop),
      trace_(trace),
      options_(options),
      faults_(Random(options.seed).fork("store-faults")),
      names_(Random(options.seed).fork("store")),
      hub_(std::make_shared<store::WatchHub>(loop, options.historyWindow, options.bookmarkInterval)),
      work_(loop),
      gc_(work_, *this) {
  faults_.bindWatchControls([this](Duration d) { hub_->setDelay(d); },
                            [this](const Error& why) { hub_->closeAll(why); });
  for (const char* ns : {"default", "kube-system"}) {
    auto created = createObject(Target{registry_.find(res::namespaces), &res::namespaces},
                                Object{{"metadata", {{"name", ns}}}});
    (void)created;
  }
}

FakeStore::~FakeStore() {
  for (const auto& [uid, timer] : podGraceTimers_) loop_.cancel(timer);
  faults_.bindWatchControls(nullptr, nullptr);
}

std::size_t FakeStore::objectCount() const {
  std::size_t n = 0;
  for (std::size_t i = 0; i < registry_.size(); ++i) n += registry_.at(static_cast<store::TableId>(i)).objects.size();
  return n;
}

// --- helpers ---

Result<FakeStore::Target> FakeStore::resolve(const Resource& r) {
  StoredResource* s = registry_.find(r);
  if (!s)
    return makeError(Reason::NotFound,
                     fmt::format("the server could not find the requested resource ({} {})", r.apiVersion(),
                                 r.plural));
  return Target{s, &r};
}

std::optional<Error> FakeStore::injectFault(StoreVerb verb, const Resource& r, bool& afterCommit) {
  afterCommit = false;
  if (faultBypass_ > 0) return std::nullopt;
  auto d = faults_.onCall(verb, r, loop_.now());
  if (!d) return std::nullopt;
  if (trace_)
    trace_->record(loop_.now(), "store",
                   fmt::format("fault {} {} {}{}", storeVerbName(verb), r.groupResource(), reasonName(d->error.reason),
                               d->afterCommit ? " after-commit" : ""));
  afterCommit = d->afterCommit;
  return d->error;
}

Object FakeStore::render(const Object& stored, const Resource& asked) const {
  Object out = stored;
  if (!sameApiVersion(stored, asked)) out["apiVersion"] = asked.apiVersion();
  return out;
}

ObjectPtr FakeStore::renderShared(ObjectPtr stored, const Resource& asked) const {
  if (sameApiVersion(*stored, asked)) return stored;
  return shareObject(render(*stored, asked));
}

store::ObjKey FakeStore::keyFor(const StoredResource& res, std::string_view ns, std::string_view name) const {
  return ObjKey{res.namespaced ? std::string(ns) : std::string(), std::string(name)};
}

Error FakeStore::notFound(const StoredResource& res, std::string_view name) const {
  return makeError(Reason::NotFound, store::describe(res, name) + " not found");
}

Error FakeStore::conflict(const StoredResource& res, std::string_view name, std::string_view why) const {
  return makeError(Reason::Conflict,
                   fmt::format("Operation cannot be fulfilled on {}: {}", store::describe(res, name), why));
}

// --- reads ---

Result<Object> FakeStore::get(const Resource& r, std::string_view ns, std::string_view name) {
  auto shared = getShared(r, ns, name);
  if (!shared) return shared.error();
  return render(**shared, r);
}

Result<ObjectPtr> FakeStore::getShared(const Resource& r, std::string_view ns, std::string_view name) {
  bool after = false;
  if (auto e = injectFault(StoreVerb::Get, r, after)) return *e;
  auto t = resolve(r);
  if (!t) return t.error();
  const StoredResource& res = *t->res;
  const auto* entry = res.objects.find(res.namespaced ? ns : std::string_view(), name);
  if (!entry) return notFound(res, name);
  return renderShared(entry->object, r);
}

Status FakeStore::select(const Resource& r, std::string_view ns, const ListOptions& opts,
                         const std::function<void(const ObjectPtr&)>& each) {
  bool after = false;
  if (auto e = injectFault(StoreVerb::List, r, after)) return *e;
  auto t = resolve(r);
  if (!t) return t.error();
  const auto& labels = selectors_.get(opts.labelSelector);
  if (!labels.selector) return labels.selector.error();
  auto fields = FieldSelector::parse(opts.fieldSelector);
  if (!fields) return fields.error();
  const StoredResource& res = *t->res;
  lastListExamined_ = res.objects.select(
      res.namespaced ? ns : std::string_view(), *labels.selector, labels.required,
      [&](const store::ObjKey&, const store::ObjectTable::Entry& e) {
        if (fields->empty() || fields->matches(*e.object)) each(e.object);
      });
  return {};
}

Result<ObjectList> FakeStore::list(const Resource& r, std::string_view ns, const ListOptions& opts) {
  ObjectList out;
  auto st = select(r, ns, opts, [&](const ObjectPtr& o) { out.items.push_back(render(*o, r)); });
  if (!st) return st.error();
  out.resourceVersion = std::to_string(rv_);
  return out;
}

Result<std::vector<ObjectPtr>> FakeStore::listShared(const Resource& r, std::string_view ns, const ListOptions& opts) {
  std::vector<ObjectPtr> out;
  auto st = select(r, ns, opts, [&](const ObjectPtr& o) { out.push_back(renderShared(o, r)); });
  if (!st) return st.error();
  return out;
}

Result<std::unique_ptr<Watch>> FakeStore::watch(const Resource& r, std::string_view ns, const WatchOptions& opts,
                                                WatchHandler onEvent, WatchClosedHandler onClosed) {
  bool after = false;
  if (auto e = injectFault(StoreVerb::Watch, r, after)) return *e;
  auto t = resolve(r);
  if (!t) return t.error();
  auto labels = LabelSelector::parse(opts.labelSelector);
  if (!labels) return labels.error();
  auto fields = FieldSelector::parse(opts.fieldSelector);
  if (!fields) return fields.error();

  std::uint64_t from = rv_;
  if (!opts.resourceVersion.empty() && opts.resourceVersion != "0") {
    auto v = parseVersion(opts.resourceVersion);
    if (!v)
      return makeError(Reason::BadRequest, fmt::format("invalid resourceVersion \"{}\"", opts.resourceVersion),
                       "resourceVersion");
    if (*v < hub_->compactedRv())
      return makeError(Reason::Gone, fmt::format("too old resource version: {} ({})", *v, hub_->compactedRv() + 1));
    if (*v > rv_)
      return makeError(Reason::Timeout, fmt::format("Too large resource version: {}, current: {}", *v, rv_));
    from = *v;
  }
  const StoredResource& res = *t->res;
  store::WatchSpec spec{res.table, r.apiVersion(), res.kind,
                        store::WatchFilter{res.namespaced ? std::string(ns) : std::string(), std::move(*labels),
                                           std::move(*fields)},
                        from, opts.allowBookmarks};
  return hub_->open(std::move(spec), std::move(onEvent), std::move(onClosed));
}

// --- commits ---

void FakeStore::record(std::string_view verb, const StoredResource& res, const ObjKey& key, std::uint64_t rv) {
  if (!trace_) return;
  // "VERB GROUP/RESOURCE [NS/]NAME rv=N", appended into a kept buffer: one line per
  // commit, and formatting it through fmt was most of what recording cost.
  std::string& line = recordScratch_;
  line.clear();
  line.append(verb).append(1, ' ').append(res.groupResource).append(1, ' ');
  if (!key.ns.empty()) line.append(key.ns).append(1, '/');
  line.append(key.name).append(" rv=");
  char digits[24];
  const auto end = std::to_chars(digits, digits + sizeof digits, rv).ptr;
  line.append(digits, end);
  trace_->record(loop_.now(), "store", line);
}

ObjectPtr FakeStore::commitPut(StoredResource& res, const ObjKey& key, Object next, ObjectPtr previous,
                               std::string_view verb, std::optional<store::BackPatch> patch,
                               const store::ObjectTable::Entry* at) {
  const std::uint64_t rv = ++rv_;
  Object& m = memberSlot(next, "metadata");
  if (patch && previous) {
    const Object* pm = memberOf(*previous, "metadata");
    const Object* old = pm ? memberOf(*pm, "resourceVersion") : nullptr;
    store::notePrevious(*patch, "/metadata/resourceVersion", old);
  }
  memberSlot(m, "resourceVersion") = std::to_string(rv);

  static const Object kNone;
  auto refsOf = [](const Object& o) -> const Object& {
    const Object* mm = memberOf(o, "metadata");
    const Object* refs = mm ? memberOf(*mm, "ownerReferences") : nullptr;
    return refs ? *refs : kNone;
  };
  // A writer's patch lists every difference from the previous state (the resourceVersion
  // aside): without an op on the owner references (or the labels) they stand as they were,
  // and are not compared (a status write copies them unchanged).
  auto patchTouches = [&](std::string_view member) {
    for (const auto& op : *patch) {
      const std::string_view p(op.path);
      if (p == "/metadata" || p.starts_with(member)) return true;
    }
    return false;
  };
  const bool ownersChanged = !previous                                           ? !refsOf(next).is_null()
                             : patch && !patchTouches("/metadata/ownerReferences") ? false
                                                                                    : refsOf(*previous) != refsOf(next);
  const bool labelsKept = previous && at && patch && !patchTouches("/metadata/labels");
  std::vector<std::string> ownersBefore, ownersAfter;
  if (ownersChanged) {
    if (previous) ownersBefore = store::ownerUidsOf(*previous);
    ownersAfter = store::ownerUidsOf(next);
  }

  auto ptr = shareObject(std::move(next));
  if (labelsKept) res.objects.replaceSameLabels(*at, ptr);
  else res.objects.put(key, ptr);
  const bool modified = previous != nullptr;
  const bool deleting = meta::isDeleting(*ptr);
  // Only creations, owner changes and deletions need the uid (a copy).
  const std::string uid = !modified || ownersChanged || deleting ? meta::uid(*ptr) : std::string();
  if (!modified) uids_.add(uid, store::ObjRef{res.table, key});
  if (ownersChanged) uids_.setOwners(uid, ownersBefore, ownersAfter);
  hub_->publish(Change{rv, res.table, modified ? WatchEventType::Modified : WatchEventType::Added, ptr,
                       std::move(previous), modified ? std::move(patch) : std::nullopt});
  record(verb, res, key, rv);

  // Follow-ups, run later through the loop.
  if (ownersChanged) {
    if (!ownersAfter.empty()) gc_.checkOwners(uid);
    for (const auto* owners : {&ownersBefore, &ownersAfter})
      for (const auto& o : *owners)
        if (auto f = findByUid(o); f && meta::isDeleting(*f->object)) gc_.processDeleting(o);
  }
  if (deleting &&
      (meta::hasFinalizer(*ptr, store::kForegroundFinalizer) || meta::hasFinalizer(*ptr, store::kOrphanFinalizer)))
    gc_.processDeleting(uid);
  if (store::isKind(res, "apiextensions.k8s.io", "customresourcedefinitions")) onCrdCommitted(*ptr);
  return ptr;
}

ObjectPtr FakeStore::commitRemove(StoredResource& res, const ObjKey& key, std::optional<Object> finalState,
                                  std::string_view verb) {
  const auto* entry = res.objects.find(key.ns, key.name);
  ObjectPtr current = entry->object;
  Object last = finalState ? std::move(*finalState) : *current;
  const std::uint64_t rv = ++rv_;
  last["metadata"]["resourceVersion"] = std::to_string(rv);
  auto ptr = shareObject(std::move(last));

  const std::string uid = meta::uid(*current);
  const auto owners = store::ownerUidsOf(*current);
  res.objects.erase(key);
  uids_.remove(uid);
  uids_.setOwners(uid, owners, {});
  if (auto t = podGraceTimers_.find(uid); t != podGraceTimers_.end()) {
    loop_.cancel(t->second);
    podGraceTimers_.erase(t);
  }
  hub_->publish(Change{rv, res.table, WatchEventType::Deleted, ptr, nullptr, std::nullopt});
  record(verb, res, key, rv);

  // Follow-ups, run later through the loop.
  if (uids_.hasDependents(uid)) gc_.ownerRemoved(uid);
  for (const auto& o : owners)
    if (auto f = findByUid(o); f && meta::isDeleting(*f->object)) gc_.processDeleting(o);
  if (res.namespaced) {
    const auto* ns = registry_.find("", "namespaces")->objects.find("", key.ns);
    if (ns && meta::isDeleting(*ns->object)) {
      std::string name = key.ns;
      work_.add("ns/done/" + name, [this, name] { checkNamespaceDone(name); });
    }
  }
  if (!res.builtin && res.terminating) {
    std::string crd = res.groupResource;
    work_.add("crd/done/" + crd, [this, crd] { checkCrdDone(crd); });
  }
  if (store::isKind(res, "apiextensions.k8s.io", "customresourcedefinitions")) {
    if (auto spec = store::parseCrd(*ptr); spec.ok()) {
      if (StoredResource* defined = registry_.find(spec->group, spec->plural); defined && !defined->builtin) {
        registry_.retire(defined->table);
        hub_->closeTable(defined->table,
                         makeError(Reason::NotFound, fmt::format("the server could not find the requested resource "
                                                                 "({} was deleted)", defined->groupResource)));
      }
    }
  }
  return ptr;
}

// --- the garbage collector's view ---

const store::ObjectTable::Entry* FakeStore::entryOf(const std::string& uid, StoredResource** res, const ObjKey** key) {
  const store::ObjRef* ref = uids_.find(uid);
  if (!ref) return nullptr;
  StoredResource& r = registry_.at(ref->table);
  const auto* entry = r.objects.find(ref->key.ns, ref->key.name);
  if (!entry) return nullptr;
  *res = &r;
  *key = &ref->key;
  return entry;
}

std::optional<store::GcHost::Found> FakeStore::findByUid(const std::string& uid) const {
  const store::ObjRef* ref = uids_.find(uid);
  if (!ref) return std::nullopt;
  const StoredResource& r = registry_.at(ref->table);
  const auto* entry = r.objects.find(ref->key.ns, ref->key.name);
  if (!entry) return std::nullopt;
  return Found{entry->object, r.namespaced};
}

std::vector<std::string> FakeStore::dependentsOf(const std::string& ownerUid) const {
  return uids_.dependentsOf(ownerUid);
}

void FakeStore::gcDelete(const std::string& uid, PropagationPolicy policy) {
  StoredResource* res = nullptr;
  const ObjKey* key = nullptr;
  if (!entryOf(uid, &res, &key)) return;
  const ObjKey k = *key;  // the index entry may go with the object
  (void)deleteObject(*res, k, policy, std::nullopt, "gc-delete");
}

void FakeStore::gcRemoveOwnerRefs(const std::string& uid, const std::set<std::string>& ownerUids) {
  StoredResource* res = nullptr;
  const ObjKey* key = nullptr;
  const auto* entry = entryOf(uid, &res, &key);
  if (!entry) return;
  const ObjKey k = *key;
  Object next = *entry->object;
  Object& m = next["metadata"];
  Object kept = Object::array();
  for (const auto& ref : m.value("ownerReferences", Object::array()))
    if (!ref.is_object() || !ownerUids.count(ref.value("uid", std::string()))) kept.push_back(ref);
  m["ownerReferences"] = std::move(kept);
  applyNext(*res, k, std::move(next), "gc-orphan");
}

void FakeStore::gcRemoveFinalizer(const std::string& uid, std::string_view finalizer) {
  StoredResource* res = nullptr;
  const ObjKey* key = nullptr;
  const auto* entry = entryOf(uid, &res, &key);
  if (!entry || !meta::hasFinalizer(*entry->object, finalizer)) return;
  const ObjKey k = *key;
  Object next = *entry->object;
  meta::removeFinalizer(next, finalizer);
  applyNext(*res, k, std::move(next), "gc-finalize");
}

}  // namespace kun
