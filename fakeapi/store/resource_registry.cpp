#include "fakeapi/store/resource_registry.h"

#include <fmt/format.h>

namespace kun::store {

bool sameApiVersion(const Object& o, const Resource& r) {
  const Object* it = memberOf(o, "apiVersion");  // every read of a stored object asks
  if (!it || !it->is_string()) return false;
  const auto& av = it->get_ref<const std::string&>();
  if (r.group.empty()) return av == r.version;
  return av.size() == r.group.size() + 1 + r.version.size() && av.compare(0, r.group.size(), r.group) == 0 &&
         av[r.group.size()] == '/' && av.compare(r.group.size() + 1, std::string::npos, r.version) == 0;
}

const StoredResource::Version* StoredResource::version(std::string_view v) const {
  for (const auto& ver : versions)
    if (ver.name == v) return &ver;
  return nullptr;
}

Resource StoredResource::descriptor(const Version& v) const {
  return Resource{group, v.name, plural, kind, namespaced, v.statusSubresource};
}

bool StoredResource::statusSubresource(std::string_view v) const {
  const Version* ver = version(v);
  return ver ? ver->statusSubresource : false;
}

ResourceRegistry::ResourceRegistry() {
  for (const Resource& r : res::builtins()) {
    StoredResource* s = find(r.group, r.plural);
    if (!s) {
      TableId id = static_cast<TableId>(tables_.size());
      s = &tables_.emplace_back();
      s->table = id;
      s->group = r.group;
      s->plural = r.plural;
      s->kind = r.kind;
      s->groupResource = r.groupResource();
      s->namespaced = r.namespaced;
    }
    s->versions.push_back({r.version, r.statusSubresource});
  }
}

StoredResource* ResourceRegistry::find(std::string_view group, std::string_view plural) {
  // Every call of the store resolves its resource here. A scan of the few tables (the
  // built-ins and the CRDs), where the plural's length settles most of them, costs less
  // than the map's two string compares per level.
  for (StoredResource& s : tables_)
    if (s.plural.size() == plural.size() && s.plural == plural && s.group == group) return &s;
  return nullptr;
}

StoredResource* ResourceRegistry::find(const Resource& r) {
  StoredResource* s = find(r.group, r.plural);
  if (!s || !s->served || !s->version(r.version)) return nullptr;
  return s;
}

Result<TableId> ResourceRegistry::define(const CrdSpec& spec) {
  StoredResource* s = find(spec.group, spec.plural);
  if (s && s->builtin)
    return makeError(Reason::Invalid,
                     fmt::format("{} is a built-in resource and cannot be defined by a CRD", spec.groupResource()),
                     "metadata.name");
  if (!s) {
    TableId id = static_cast<TableId>(tables_.size());
    s = &tables_.emplace_back();
    s->table = id;
    s->group = spec.group;
    s->plural = spec.plural;
    s->groupResource = spec.groupResource();
    s->builtin = false;
  }
  s->kind = spec.kind;
  s->namespaced = spec.namespaced;
  s->served = true;
  s->terminating = false;
  s->versions.clear();
  for (const auto& v : spec.versions)
    if (v.served) s->versions.push_back({v.name, v.statusSubresource});
  return s->table;
}

void ResourceRegistry::retire(TableId id) {
  StoredResource& s = tables_[id];
  s.served = false;
  s.terminating = false;
}

std::vector<Resource> ResourceRegistry::served() const {
  std::vector<Resource> out;
  for (const auto& s : tables_) {
    if (!s.served) continue;
    for (const auto& v : s.versions) out.push_back(s.descriptor(v));
  }
  return out;
}

}  // namespace kun::store
