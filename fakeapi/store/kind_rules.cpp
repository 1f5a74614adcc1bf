#include "fakeapi/store/kind_rules.h"

#include <initializer_list>
#include <optional>

#include <fmt/format.h>

#include "core/runtime/time.h"

namespace kun::store {
namespace {

Error forbidden(const StoredResource& r, const Object& obj, std::string field, std::string detail) {
  return makeError(Reason::Invalid,
                   fmt::format("{} \"{}\" is invalid: {}: Forbidden: {}", r.kind, meta::name(obj), field, detail),
                   std::move(field));
}

const Object* child(const Object& o, const char* key) { return memberOf(o, key); }

std::string stringAt(const Object& o, const char* a, const char* b) {
  const Object* x = child(o, a);
  const Object* y = x ? child(*x, b) : nullptr;
  return y && y->is_string() ? y->get<std::string>() : std::string();
}

const Object& specOf(const Object& o) {
  static const Object kEmpty = Object::object();
  const Object* s = child(o, "spec");
  return s ? *s : kEmpty;
}

bool skipped(const std::string& key, std::initializer_list<std::string_view> skip) {
  for (auto k : skip)
    if (key == k) return true;
  return false;
}

// Whether two objects are equal apart from the skipped keys; `field` compares a key's
// values when given (returns nullopt to fall back to ==). No copies: this runs on every
// update of a pod or a StatefulSet.
template <class F>
bool equalExcept(const Object& a, const Object& b, std::initializer_list<std::string_view> skip, F&& field) {
  if (!a.is_object() || !b.is_object()) return a == b;
  for (auto it = a.begin(); it != a.end(); ++it) {
    if (skipped(it.key(), skip)) continue;
    auto jt = b.find(it.key());
    if (jt == b.end()) return false;
    std::optional<bool> same = field(it.key(), *it, *jt);
    if (!(same ? *same : *it == *jt)) return false;
  }
  for (auto it = b.begin(); it != b.end(); ++it)
    if (!skipped(it.key(), skip) && !a.contains(it.key())) return false;
  return true;
}

auto plainCompare = [](const std::string&, const Object&, const Object&) -> std::optional<bool> { return std::nullopt; };

// Container lists equal apart from each container's image.
bool containersEqualButImages(const Object& a, const Object& b) {
  if (!a.is_array() || !b.is_array() || a.size() != b.size()) return a == b;
  for (std::size_t i = 0; i < a.size(); ++i)
    if (!equalExcept(a[i], b[i], {"image"}, plainCompare)) return false;
  return true;
}

Status podUpdate(const StoredResource& r, const Object& next, const Object& current) {
  const std::string oldNode = stringAt(current, "spec", "nodeName");
  const std::string newNode = stringAt(next, "spec", "nodeName");
  if (!oldNode.empty() && newNode != oldNode)
    return forbidden(r, next, "spec.nodeName", "a pod's node cannot be changed once bound");
  // nodeName is checked above: settable once, from empty.
  const bool same = equalExcept(
      specOf(next), specOf(current),
      {"activeDeadlineSeconds", "tolerations", "terminationGracePeriodSeconds", "nodeName"},
      [](const std::string& key, const Object& a, const Object& b) -> std::optional<bool> {
        if (key == "containers" || key == "initContainers") return containersEqualButImages(a, b);
        return std::nullopt;
      });
  if (!same)
    return forbidden(r, next, "spec",
                     "pod updates may not change fields other than `spec.containers[*].image`, "
                     "`spec.initContainers[*].image`, `spec.activeDeadlineSeconds`, `spec.tolerations`, "
                     "`spec.terminationGracePeriodSeconds` and an unset `spec.nodeName`");
  return {};
}

bool statefulSetSpecsEqualButMutable(const Object& a, const Object& b) {
  return equalExcept(specOf(a), specOf(b),
                     {"replicas", "ordinals", "template", "updateStrategy", "persistentVolumeClaimRetentionPolicy",
                      "minReadySeconds"},
                     plainCompare);
}

Status serviceCreate(Object& obj, CreateContext& ctx) {
  Object& spec = obj["spec"];
  if (!spec.is_object()) spec = Object::object();
  std::string ip = spec.value("clusterIP", std::string());
  const std::string type = spec.value("type", std::string("ClusterIP"));
  if (type == "ExternalName") return {};
  if (ip.empty() && ctx.allocateClusterIP) ip = ctx.allocateClusterIP();
  spec["clusterIP"] = ip;
  spec["clusterIPs"] = Object::array({ip});
  if (!spec.contains("type")) spec["type"] = "ClusterIP";
  return {};
}

Status serviceUpdate(const StoredResource& r, Object& next, const Object& current) {
  const std::string oldIp = stringAt(current, "spec", "clusterIP");
  if (oldIp.empty()) return {};
  Object& spec = next["spec"];
  if (!spec.is_object()) spec = Object::object();
  const std::string newIp = spec.value("clusterIP", std::string());
  if (newIp.empty()) {
    // Clients that rebuild a Service from scratch leave clusterIP out; keep the allocated one.
    spec["clusterIP"] = oldIp;
    if (current["spec"].contains("clusterIPs")) spec["clusterIPs"] = current["spec"]["clusterIPs"];
    return {};
  }
  if (newIp != oldIp) return forbidden(r, next, "spec.clusterIP", "field is immutable");
  return {};
}

Object crdStatus(const Object& crd, std::int64_t nowMicros) {
  const std::string ts = formatRfc3339(nowMicros);
  Object names = crd.contains("spec") && crd["spec"].contains("names") ? crd["spec"]["names"] : Object::object();
  Object stored = Object::array();
  if (auto vs = crd["spec"].find("versions"); vs != crd["spec"].end() && vs->is_array()) {
    for (const auto& v : *vs)
      if (v.value("storage", false)) stored.push_back(v.value("name", std::string()));
  } else if (crd["spec"].contains("version")) {
    stored.push_back(crd["spec"]["version"]);
  }
  auto cond = [&](const char* type, const char* reason, const char* message) {
    return Object{{"type", type}, {"status", "True"}, {"lastTransitionTime", ts}, {"reason", reason}, {"message", message}};
  };
  return Object{{"acceptedNames", names},
                {"storedVersions", stored},
                {"conditions", Object::array({cond("NamesAccepted", "NoConflicts", "no conflicts found"),
                                              cond("Established", "InitialNamesAccepted",
                                                   "the initial names have been accepted")})}};
}

}  // namespace

bool isKind(const StoredResource& r, std::string_view group, std::string_view plural) {
  return r.group == group && r.plural == plural;
}

Status prepareForCreate(const StoredResource& r, const std::string& version, Object& obj, CreateContext& ctx) {
  const bool isNode = isKind(r, "", "nodes");
  if (r.statusSubresource(version) && !isNode) obj.erase("status");

  if (isKind(r, "", "pods")) {
    obj["status"] = Object{{"phase", "Pending"}};
  } else if (isKind(r, "", "persistentvolumeclaims")) {
    obj["status"] = Object{{"phase", "Pending"}};
  } else if (isKind(r, "", "namespaces")) {
    obj["status"] = Object{{"phase", "Active"}};
    obj["spec"] = Object{{"finalizers", Object::array({std::string(kNamespaceFinalizer)})}};
  } else if (isKind(r, "", "services")) {
    return serviceCreate(obj, ctx);
  } else if (isKind(r, "apiextensions.k8s.io", "customresourcedefinitions")) {
    meta::addFinalizer(obj, kCrdCleanupFinalizer);
    obj["status"] = crdStatus(obj, ctx.nowMicros);
  }
  return {};
}

Status prepareForUpdate(const StoredResource& r, Object& next, const Object& current) {
  if (isKind(r, "", "pods")) return podUpdate(r, next, current);
  if (isKind(r, "apps", "statefulsets")) {
    if (!statefulSetSpecsEqualButMutable(next, current))
      return forbidden(r, next, "spec",
                       "updates to statefulset spec for fields other than 'replicas', 'ordinals', 'template', "
                       "'updateStrategy', 'persistentVolumeClaimRetentionPolicy' and 'minReadySeconds' are forbidden");
    return {};
  }
  if (isKind(r, "", "services")) return serviceUpdate(r, next, current);
  if (isKind(r, "", "namespaces")) {
    // spec.finalizers belongs to the namespace lifecycle (the /finalize subresource).
    if (current.contains("spec")) next["spec"] = current["spec"];
    else next.erase("spec");
    return {};
  }
  if (isKind(r, "apiextensions.k8s.io", "customresourcedefinitions")) {
    if (stringAt(next, "spec", "scope") != stringAt(current, "spec", "scope"))
      return forbidden(r, next, "spec.scope", "field is immutable");
    return {};
  }
  return {};
}

bool updateRewrites(const StoredResource& r) { return isKind(r, "", "services") || isKind(r, "", "namespaces"); }

bool readyToRemove(const StoredResource& r, const Object& obj) {
  if (!meta::isDeleting(obj)) return false;
  if (!meta::finalizers(obj).empty()) return false;
  if (auto g = meta::deletionGracePeriodSeconds(obj); g && *g > 0) return false;
  if (isKind(r, "", "namespaces")) {
    const Object* spec = child(obj, "spec");
    const Object* fins = spec ? child(*spec, "finalizers") : nullptr;
    if (fins && fins->is_array() && !fins->empty()) return false;
  }
  return true;
}

}  // namespace kun::store
