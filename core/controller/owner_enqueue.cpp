#include "core/controller/owner_enqueue.h"

namespace kun {

std::string_view apiGroupOf(std::string_view apiVersion) {
  const auto slash = apiVersion.find('/');
  return slash == std::string_view::npos ? std::string_view{} : apiVersion.substr(0, slash);
}

bool OwnerKind::matches(std::string_view refKind, std::string_view refApiVersion) const {
  return refKind == kind && apiGroupOf(refApiVersion) == group;
}

OwnerEnqueuer::OwnerEnqueuer(WorkQueue& queue, OwnerKind owner) : queue_(queue), owner_(std::move(owner)) {}

namespace {
std::string keyIn(std::string_view ns, std::string_view name) {
  return ns.empty() ? std::string(name) : std::string(ns) + "/" + std::string(name);
}
}  // namespace

std::optional<std::string> OwnerEnqueuer::ownerOf(const Object& obj,
                                                  const std::vector<const Informer*>& intermediates) const {
  // Read in place: every watch event of an owned kind asks this, twice for a Modified.
  if (const Object* ref = meta::controllerRef(obj)) {
    const std::string ns = meta::namespaceOf(obj);
    const std::string_view kind = meta::refField(*ref, "kind"), apiVersion = meta::refField(*ref, "apiVersion"),
                           name = meta::refField(*ref, "name");
    if (owner_.matches(kind, apiVersion)) return keyIn(ns, name);
    for (const Informer* inf : intermediates) {
      const Resource& r = inf->resource();
      if (kind != r.kind || apiGroupOf(apiVersion) != r.group) continue;
      ObjectPtr mid = inf->get(ns, name);
      // The uid check keeps a successor of the same name from claiming the old one's pods.
      if (!mid || meta::uid(*mid) != meta::refField(*ref, "uid")) continue;
      const Object* up = meta::controllerRef(*mid);
      if (up && owner_.matches(meta::refField(*up, "kind"), meta::refField(*up, "apiVersion")))
        return keyIn(ns, meta::refField(*up, "name"));
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
