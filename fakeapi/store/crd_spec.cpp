#include "fakeapi/store/crd_spec.h"

#include <fmt/format.h>

#include "core/api/validation.h"

namespace kun::store {
namespace {

Error invalid(std::string field, std::string message) {
  return makeError(Reason::Invalid, fmt::format("CustomResourceDefinition: {}: {}", field, message), field);
}

std::string str(const Object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

bool boolean(const Object& o, const char* key, bool dflt) {
  auto it = o.find(key);
  return it != o.end() && it->is_boolean() ? it->get<bool>() : dflt;
}

bool hasStatusSubresource(const Object& holder) {
  auto sub = holder.find("subresources");
  return sub != holder.end() && sub->is_object() && sub->contains("status");
}

}  // namespace

const CrdSpec::Version* CrdSpec::storageVersion() const {
  for (const auto& v : versions)
    if (v.storage) return &v;
  return nullptr;
}

Result<CrdSpec> parseCrd(const Object& crd) {
  static const Object kEmpty = Object::object();
  const Object& spec = crd.contains("spec") && crd["spec"].is_object() ? crd["spec"] : kEmpty;
  const Object& names = spec.contains("names") && spec["names"].is_object() ? spec["names"] : kEmpty;
  CrdSpec out;
  out.group = str(spec, "group");
  out.plural = str(names, "plural");
  out.singular = str(names, "singular");
  out.kind = str(names, "kind");
  out.listKind = str(names, "listKind");

  if (out.group.empty()) return invalid("spec.group", "Required value");
  if (auto e = validation::dns1123Subdomain(out.group); !e.empty()) return invalid("spec.group", e);
  if (out.group.find('.') == std::string::npos)
    return invalid("spec.group", "should be a domain with at least one dot");
  if (out.plural.empty()) return invalid("spec.names.plural", "Required value");
  if (auto e = validation::dns1123Label(out.plural); !e.empty()) return invalid("spec.names.plural", e);
  if (!out.singular.empty())
    if (auto e = validation::dns1123Label(out.singular); !e.empty()) return invalid("spec.names.singular", e);
  if (out.kind.empty()) return invalid("spec.names.kind", "Required value");
  if (out.listKind.empty()) out.listKind = out.kind + "List";

  const std::string scope = str(spec, "scope");
  if (scope == "Namespaced") out.namespaced = true;
  else if (scope == "Cluster") out.namespaced = false;
  else return invalid("spec.scope", fmt::format("Unsupported value: \"{}\": supported values: \"Cluster\", \"Namespaced\"", scope));

  if (auto vs = spec.find("versions"); vs != spec.end() && vs->is_array() && !vs->empty()) {
    for (std::size_t i = 0; i < vs->size(); ++i) {
      const Object& v = (*vs)[i];
      const std::string field = fmt::format("spec.versions[{}]", i);
      if (!v.is_object()) return invalid(field, "must be an object");
      CrdSpec::Version ver{str(v, "name"), boolean(v, "served", false), boolean(v, "storage", false),
                           hasStatusSubresource(v)};
      if (ver.name.empty()) return invalid(field + ".name", "Required value");
      if (auto e = validation::dns1123Label(ver.name); !e.empty()) return invalid(field + ".name", e);
      for (const auto& seen : out.versions)
        if (seen.name == ver.name) return invalid(field + ".name", "must be unique");
      out.versions.push_back(std::move(ver));
    }
  } else if (std::string legacy = str(spec, "version"); !legacy.empty()) {
    out.versions.push_back({legacy, true, true, hasStatusSubresource(spec)});
  } else {
    return invalid("spec.versions", "must have exactly one version marked as storage version");
  }
  int storage = 0;
  for (const auto& v : out.versions) storage += v.storage ? 1 : 0;
  if (storage != 1) return invalid("spec.versions", "must have exactly one version marked as storage version");

  const std::string name = meta::name(crd);
  if (name != out.groupResource())
    return invalid("metadata.name", fmt::format("must be spec.names.plural+\".\"+spec.group (\"{}\")", out.groupResource()));
  return out;
}

}  // namespace kun::store
