#include "fakeapi/store/object_validation.h"

#include <fmt/format.h>

#include "core/api/object_members.h"
#include "core/api/validation.h"

namespace kun::store {
namespace {

constexpr std::size_t kAnnotationsMaxBytes = 256 * 1024;

Error invalid(const StoredResource& r, std::string_view name, std::string field, std::string detail) {
  return makeError(Reason::Invalid,
                   fmt::format("{} \"{}\" is invalid: {}: {}", r.kind, name, field, detail), field);
}

// The members of a metadata object validateMetadata reads, found in one walk of it (a
// lookup each walked metadata once per field, mostly to find it absent).
struct MetaFields {
  const Object* labels = nullptr;
  const Object* annotations = nullptr;
  const Object* finalizers = nullptr;
  const Object* ownerReferences = nullptr;
};

MetaFields metaFields(const Object& m) {
  using namespace std::string_view_literals;
  MetaFields f;
  for (const auto& [k, v] : m.get_ref<const Object::object_t&>()) {
    if (k == "labels"sv) f.labels = &v;
    else if (k == "annotations"sv) f.annotations = &v;
    else if (k == "finalizers"sv) f.finalizers = &v;
    else if (k == "ownerReferences"sv) f.ownerReferences = &v;
  }
  return f;
}

bool isStandardFinalizer(std::string_view f) {
  return f == "kubernetes" || f == "orphan" || f == "foregroundDeletion";
}

}  // namespace

std::string describe(const StoredResource& r, std::string_view name) {
  return fmt::format("{} \"{}\"", r.groupResource, name);
}

NameRule nameRuleFor(const StoredResource& r) {
  if (r.group.empty() && r.plural == "namespaces") return NameRule::Label;
  if (r.group.empty() && r.plural == "services") return NameRule::Dns1035;
  if (r.group == "rbac.authorization.k8s.io") return NameRule::PathSegment;
  return NameRule::Subdomain;
}

std::string checkName(NameRule rule, std::string_view name) {
  switch (rule) {
    case NameRule::Subdomain: return validation::dns1123Subdomain(name);
    case NameRule::Label: return validation::dns1123Label(name);
    case NameRule::Dns1035: return validation::dns1035Label(name);
    case NameRule::PathSegment:
      if (name == "." || name == "..") return fmt::format("may not be '{}'", name);
      if (name.find('/') != std::string_view::npos) return "may not contain '/'";
      if (name.find('%') != std::string_view::npos) return "may not contain '%'";
      if (name.empty()) return "must not be empty";
      return "";
  }
  return "";
}

Status validateMetadata(const StoredResource& r, const Object& obj, bool generated, const Object* current) {
  const Object* mit = memberOf(obj, "metadata");
  if (!mit || !mit->is_object())
    return makeError(Reason::Invalid, fmt::format("{}: metadata: Required value", r.kind), "metadata");
  const Object& m = *mit;
  const MetaIdentity id = identityOf(obj);
  const std::string_view name = id.name;
  const Object* stored = nullptr;
  if (current)
    if (const Object* sm = memberOf(*current, "metadata"); sm && sm->is_object()) stored = sm;
  const MetaFields mine = metaFields(m);
  const MetaFields before = stored ? metaFields(*stored) : MetaFields{};
  // m's field (null: absent), except that a field the same as in the stored version (absent
  // on both sides included) reads as absent: there is nothing new to check.
  auto fieldOf = [&](const Object* it, const Object* was) -> const Object* {
    if (!stored) return it;
    const bool same = !it ? !was : was && *was == *it;
    return same ? nullptr : it;
  };

  if (name.empty()) return invalid(r, name, "metadata.name", "Required value: name or generateName is required");
  // An update's name and namespace are those of the stored version it was found by.
  if (!stored) {
    if (auto e = checkName(nameRuleFor(r), name); !e.empty())
      return invalid(r, name, generated ? "metadata.generateName" : "metadata.name",
                     fmt::format("Invalid value: \"{}\": {}", generated ? meta::generateName(obj) : name, e));
    if (r.namespaced) {
      const std::string_view ns = id.ns;
      if (ns.empty()) return invalid(r, name, "metadata.namespace", "Required value");
      if (auto e = validation::dns1123Label(ns); !e.empty())
        return invalid(r, name, "metadata.namespace", fmt::format("Invalid value: \"{}\": {}", ns, e));
    }
  }

  if (const Object* l = fieldOf(mine.labels, before.labels); l && !l->is_null()) {
    if (!l->is_object()) return invalid(r, name, "metadata.labels", "must be a map of strings");
    for (auto it = l->begin(); it != l->end(); ++it) {
      if (auto e = validation::labelKey(it.key()); !e.empty())
        return invalid(r, name, "metadata.labels", fmt::format("Invalid value: \"{}\": {}", it.key(), e));
      if (!it->is_string()) return invalid(r, name, "metadata.labels", fmt::format("value of \"{}\" must be a string", it.key()));
      if (auto e = validation::labelValue(it->get_ref<const std::string&>()); !e.empty())
        return invalid(r, name, "metadata.labels",
                       fmt::format("Invalid value: \"{}\": {}", it->get_ref<const std::string&>(), e));
    }
  }

  if (const Object* a = fieldOf(mine.annotations, before.annotations); a && !a->is_null()) {
    if (!a->is_object()) return invalid(r, name, "metadata.annotations", "must be a map of strings");
    std::size_t total = 0;
    for (auto it = a->begin(); it != a->end(); ++it) {
      if (auto e = validation::labelKey(it.key()); !e.empty())
        return invalid(r, name, "metadata.annotations", fmt::format("Invalid value: \"{}\": {}", it.key(), e));
      if (!it->is_string())
        return invalid(r, name, "metadata.annotations", fmt::format("value of \"{}\" must be a string", it.key()));
      total += it.key().size() + it->get_ref<const std::string&>().size();
    }
    if (total > kAnnotationsMaxBytes)
      return invalid(r, name, "metadata.annotations", "Too long: must have at most 262144 bytes");
  }

  if (const Object* f = fieldOf(mine.finalizers, before.finalizers); f && !f->is_null()) {
    if (!f->is_array()) return invalid(r, name, "metadata.finalizers", "must be a list of strings");
    bool orphan = false, foreground = false;
    for (const auto& v : *f) {
      if (!v.is_string()) return invalid(r, name, "metadata.finalizers", "must be a list of strings");
      const auto& s = v.get_ref<const std::string&>();
      if (!isStandardFinalizer(s))
        if (auto e = validation::labelKey(s); !e.empty())
          return invalid(r, name, "metadata.finalizers", fmt::format("Invalid value: \"{}\": {}", s, e));
      orphan = orphan || s == "orphan";
      foreground = foreground || s == "foregroundDeletion";
    }
    if (orphan && foreground)
      return invalid(r, name, "metadata.finalizers",
                     "Invalid value: \"foregroundDeletion\": finalizer 'foregroundDeletion' and 'orphan' cannot be both set");
  }

  if (const Object* o = fieldOf(mine.ownerReferences, before.ownerReferences); o && !o->is_null()) {
    if (!o->is_array()) return invalid(r, name, "metadata.ownerReferences", "must be a list");
    int controllers = 0;
    for (const auto& ref : *o) {
      if (!ref.is_object()) return invalid(r, name, "metadata.ownerReferences", "must be a list of objects");
      for (const char* k : {"apiVersion", "kind", "name", "uid"}) {
        auto it = ref.find(k);
        if (it == ref.end() || !it->is_string() || it->get_ref<const std::string&>().empty())
          return invalid(r, name, "metadata.ownerReferences", fmt::format("{}: Required value", k));
      }
      if (auto c = ref.find("controller"); c != ref.end() && c->is_boolean() && c->get<bool>()) ++controllers;
    }
    if (controllers > 1)
      return invalid(r, name, "metadata.ownerReferences", "Only one reference can have Controller set to true");
  }
  return {};
}

}  // namespace kun::store
