#include "core/controller/owner_enqueue.h"

namespace kun {

std::string_view apiGroupOf(std::string_view apiVersion) {
  const auto slash = apiVersion.find('/');
  return slash == std::string_view::npos ? std::string_view{} : apiVersion.substr(0, slash);
}

bool OwnerKind::matches(const OwnerReference& ref) const {
  return ref.kind == kind && apiGroupOf(ref.apiVersion) == group;
}

OwnerEnqueuer::OwnerEnqueuer(WorkQueue& queue, OwnerKind owner) : queue_(queue), owner_(std::move(owner)) {}

namespace {
std::string keyIn(std::string_view ns, std::string_view name) {
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}
}  // namespace

std::optional<std::string> OwnerEnqueuer::ownerOf(const Object& obj,
                                                  const std::vector<const Informer*>& intermediates) const {
  const std::string ns = meta::namespaceOf(obj);
  if (auto ref = meta::controllerOf(obj)) {
    if (owner_.matches(*ref)) return keyIn(ns, ref->name);
    for (const Informer* inf : intermediates) {
      const Resource& r = inf->resource();
      if (ref->kind != r.kind || apiGroupOf(ref->apiVersion) != r.group) continue;
      ObjectPtr mid = inf->get(ns, ref->name);
      // The uid check keeps a successor of the same name from claiming the old one's pods.
      if (!mid || meta::uid(*mid) != ref->uid) continue;
      if (auto up = meta::controllerOf(*mid); up && owner_.matches(*up)) return keyIn(ns, up->name);
    }
  }
  if (fallback_) return fallback_(obj);
  return std::nullopt;
}

void OwnerEnqueuer::enqueue(const std::optional<std::string>& key) {
  if (!key || (accept_ && !accept_(*key))) return;
  ++enqueued_;
  queue_.add(*key);
}

void OwnerEnqueuer::watch(Informer& owned, std::vector<const Informer*> intermediates) {
  owned.addHandler([this, intermediates = std::move(intermediates)](WatchEventType type, const ObjectPtr& obj,
                                                                   const ObjectPtr& old) {
    if (type == WatchEventType::Bookmark || !obj) return;
    const auto now = ownerOf(*obj, intermediates);
    enqueue(now);
    if (type == WatchEventType::Modified && old) {
      const auto before = ownerOf(*old, intermediates);
      if (before != now) enqueue(before);
    }
  });
}

}  // namespace kun
