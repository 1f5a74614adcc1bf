#include "core/api/object.h"

#include <algorithm>

namespace kun {

const Object* memberOf(const Object& o, std::string_view key) {
  if (!o.is_object()) return nullptr;
  const auto& members = o.get_ref<const Object::object_t&>();
  // Objects are mostly small (metadata, a container): a walk that compares lengths first
  // makes one memcmp where the tree search makes one per level.
  if (members.size() > 16) {
    auto it = members.find(key);
    return it == members.end() ? nullptr : &it->second;
  }
  // The first bytes are compared inline before the memcmp call: keys of one length mostly
  // differ there ("status" and "labels"), so most mismatches cost no call.
  auto same = [key](const std::string& k) {
    return k.size() == key.size() &&
           (key.empty() || (k[0] == key[0] && std::char_traits<char>::compare(k.data(), key.data(), key.size()) == 0));
  };
  // The members are in key order, and what is asked for most past "n" sits at the end
  // (metadata's ownerReferences, resourceVersion and uid; spec and status): those are walked
  // from the end, and stop at the first key that sorts before theirs.
  const auto first = static_cast<unsigned char>(key.empty() ? 0 : key.front());
  if (first > 'n') {
    for (auto it = members.rbegin(); it != members.rend(); ++it) {
      if (same(it->first)) return &it->second;
      if (static_cast<unsigned char>(it->first[0]) < first) return nullptr;  // [0] of "" is '\0'
    }
    return nullptr;
  }
  for (const auto& [k, v] : members)
    if (same(k)) return &v;
  return nullptr;
}

namespace meta {
namespace {

// metadata.<field>, or nullptr when metadata or the field is absent. Objects that came off
// the wire may carry anything, so every step checks the type instead of trusting it.
const Object* field(const Object& o, std::string_view name) {
  const Object* m = memberOf(o, "metadata");
  return m ? memberOf(*m, name) : nullptr;
}

std::string stringField(const Object& o, std::string_view name) { return std::string(fieldView(o, name)); }

std::map<std::string, std::string> stringMap(const Object& o, std::string_view name) {
  std::map<std::string, std::string> out;
  const Object* f = field(o, name);
  if (!f || !f->is_object()) return out;
  for (auto it = f->begin(); it != f->end(); ++it)
    if (it->is_string()) out.emplace(it.key(), it->get<std::string>());
  return out;
}

std::string stringEntry(const Object& o, std::string_view map, std::string_view key) {
  const Object* f = field(o, map);
  if (!f || !f->is_object()) return {};
  auto it = f->find(key);
  return it != f->end() && it->is_string() ? it->get<std::string>() : std::string();
}

// metadata, made an object if it is absent or not one.
Object& mutableMeta(Object& o) {
  if (!o.is_object()) o = Object::object();
  Object& m = o["metadata"];
  if (!m.is_object()) m = Object::object();
  return m;
}

Object& mutableChild(Object& parent, std::string_view name, Object init) {
  Object& c = parent[std::string(name)];
  if (c.type() != init.type()) c = std::move(init);
  return c;
}

// Kubernetes omits empty strings (omitempty), so an empty value removes the field: an
// object built here compares equal to the same object read back from the API server.
void setOrErase(Object& o, std::string_view name, std::string_view v) {
  if (v.empty()) {
    if (const Object* f = field(o, name); f) mutableMeta(o).erase(std::string(name));
    return;
  }
  mutableMeta(o)[std::string(name)] = std::string(v);
}

OwnerReference parseOwnerRef(const Object& r) {
  OwnerReference ref;
  if (!r.is_object()) return ref;
  auto str = [&](const char* k) { return std::string(refField(r, k)); };
  auto flag = [&](const char* k) {
    auto it = r.find(k);
    return it != r.end() && it->is_boolean() && it->get<bool>();
  };
  ref.apiVersion = str("apiVersion");
  ref.kind = str("kind");
  ref.name = str("name");
  ref.uid = str("uid");
  ref.controller = flag("controller");
  ref.blockOwnerDeletion = flag("blockOwnerDeletion");
  return ref;
}

Object ownerRefJson(const OwnerReference& ref) {
  return Object{{"apiVersion", ref.apiVersion},
                {"kind", ref.kind},
                {"name", ref.name},
                {"uid", ref.uid},
                {"controller", ref.controller},
                {"blockOwnerDeletion", ref.blockOwnerDeletion}};
}

}  // namespace

std::string_view fieldView(const Object& o, std::string_view name) {
  const Object* f = field(o, name);
  return f && f->is_string() ? std::string_view(f->get_ref<const std::string&>()) : std::string_view();
}

std::string name(const Object& o) { return stringField(o, "name"); }
std::string namespaceOf(const Object& o) { return stringField(o, "namespace"); }
std::string generateName(const Object& o) { return stringField(o, "generateName"); }
std::string uid(const Object& o) { return stringField(o, "uid"); }
std::string resourceVersion(const Object& o) { return stringField(o, "resourceVersion"); }
std::string creationTimestamp(const Object& o) { return stringField(o, "creationTimestamp"); }
std::string deletionTimestamp(const Object& o) { return stringField(o, "deletionTimestamp"); }
bool isDeleting(const Object& o) {
  // Asked of nearly every object on every controller pass, and nearly always absent: the
  // walk stops at the first key that sorts past its initial (members are in key order)
  // where memberOf's would go through every member of metadata to find it missing.
  const Object* m = memberOf(o, "metadata");
  if (!m || !m->is_object()) return false;
  constexpr std::string_view kKey = "deletionTimestamp";
  for (const auto& [k, v] : m->get_ref<const Object::object_t&>()) {
    const auto first = static_cast<unsigned char>(k.empty() ? 0 : k[0]);
    if (first > static_cast<unsigned char>(kKey[0])) break;
    if (k == kKey) return v.is_string() && !v.get_ref<const std::string&>().empty();
  }
  return false;
}

std::int64_t generation(const Object& o) {
  const Object* f = field(o, "generation");
  return f && f->is_number_integer() ? f->get<std::int64_t>() : 0;
}

std::optional<std::int64_t> deletionGracePeriodSeconds(const Object& o) {
  const Object* f = field(o, "deletionGracePeriodSeconds");
  if (!f || !f->is_number_integer()) return std::nullopt;
  return f->get<std::int64_t>();
}

std::map<std::string, std::string> labels(const Object& o) { return stringMap(o, "labels"); }
std::map<std::string, std::string> annotations(const Object& o) { return stringMap(o, "annotations"); }
std::string label(const Object& o, std::string_view key) { return stringEntry(o, "labels", key); }
std::string annotation(const Object& o, std::string_view key) {
  return stringEntry(o, "annotations", key);
}

std::vector<OwnerReference> ownerReferences(const Object& o) {
  std::vector<OwnerReference> out;
  const Object* f = field(o, "ownerReferences");
  if (!f || !f->is_array()) return out;
  out.reserve(f->size());
  for (const auto& r : *f) out.push_back(parseOwnerRef(r));
  return out;
}

const Object* controllerRef(const Object& o) {
  const Object* f = field(o, "ownerReferences");
  if (!f || !f->is_array()) return nullptr;
  for (const auto& r : *f) {
    const Object* c = memberOf(r, "controller");  // null for a non-object
    if (c && c->is_boolean() && c->get<bool>()) return &r;
  }
  return nullptr;
}

std::string_view refField(const Object& ref, const char* key) {
  const Object* v = memberOf(ref, key);  // an owner reference is a handful of fields: walked
  return v && v->is_string() ? std::string_view(v->get_ref<const std::string&>()) : std::string_view();
}

bool controlledBy(const Object& o, std::string_view uid) {
  const Object* c = controllerRef(o);
  return c && refField(*c, "uid") == uid;
}

std::optional<OwnerReference> controllerOf(const Object& o) {
  if (const Object* r = controllerRef(o)) return parseOwnerRef(*r);
  return std::nullopt;
}

std::vector<std::string> finalizers(const Object& o) {
  std::vector<std::string> out;
  const Object* f = field(o, "finalizers");
  if (!f || !f->is_array()) return out;
  for (const auto& v : *f)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

bool hasFinalizer(const Object& o, std::string_view fin) {
  const Object* f = field(o, "finalizers");
  if (!f || !f->is_array()) return false;
  return std::any_of(f->begin(), f->end(),
                     [&](const Object& v) { return v.is_string() && v.get_ref<const std::string&>() == fin; });
}

void setName(Object& o, std::string_view v) { setOrErase(o, "name", v); }
void setNamespace(Object& o, std::string_view v) { setOrErase(o, "namespace", v); }
void setResourceVersion(Object& o, std::string_view v) { setOrErase(o, "resourceVersion", v); }

void setLabel(Object& o, std::string_view key, std::string_view value) {
  mutableChild(mutableMeta(o), "labels", Object::object())[std::string(key)] = std::string(value);
}

void setAnnotation(Object& o, std::string_view key, std::string_view value) {
  mutableChild(mutableMeta(o), "annotations", Object::object())[std::string(key)] = std::string(value);
}

void addOwnerReference(Object& o, const OwnerReference& ref) {
  Object& refs = mutableChild(mutableMeta(o), "ownerReferences", Object::array());
  for (auto& r : refs) {
    if (parseOwnerRef(r).uid == ref.uid) {
      r = ownerRefJson(ref);  // in place: the order of references is kept
      return;
    }
  }
  refs.push_back(ownerRefJson(ref));
}

void addFinalizer(Object& o, std::string_view f) {
  if (hasFinalizer(o, f)) return;
  mutableChild(mutableMeta(o), "finalizers", Object::array()).push_back(std::string(f));
}

bool removeFinalizer(Object& o, std::string_view f) {
  if (!hasFinalizer(o, f)) return false;
  Object& m = mutableMeta(o);
  Object& fins = m["finalizers"];
  Object kept = Object::array();
  for (auto& v : fins)
    if (!(v.is_string() && v.get_ref<const std::string&>() == f)) kept.push_back(std::move(v));
  if (kept.empty()) {
    m.erase("finalizers");  // omitempty, as the API server stores it
  } else {
    fins = std::move(kept);
  }
  return true;
}

OwnerReference ownerRefTo(const Object& owner, bool controller) {
  OwnerReference ref;
  if (owner.is_object()) {
    if (auto it = owner.find("apiVersion"); it != owner.end() && it->is_string()) ref.apiVersion = it->get<std::string>();
    if (auto it = owner.find("kind"); it != owner.end() && it->is_string()) ref.kind = it->get<std::string>();
  }
  ref.name = name(owner);
  ref.uid = uid(owner);
  ref.controller = controller;
  ref.blockOwnerDeletion = true;
  return ref;
}

std::string key(const Object& o) {
  std::string ns = namespaceOf(o);
  if (ns.empty()) return name(o);
  ns += '/';
  ns += name(o);
  return ns;
}

}  // namespace meta
}  // namespace kun
