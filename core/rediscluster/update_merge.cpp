#include "core/rediscluster/update_merge.h"

#include <initializer_list>
#include <string_view>

#include "core/rediscluster/desired_hash.h"

namespace kun::rediscluster {

namespace {

const Object& at(const Object& o, std::string_view key) {
  static const Object kNull;
  const Object* v = memberOf(o, key);  // a walk of metadata, labels, an owner reference
  return v ? *v : kNull;
}

const Object& metaField(const Object& o, std::string_view key) { return at(at(o, "metadata"), key); }

std::string kindOf(const Object& o) {
  const Object& k = at(o, "kind");
  return k.is_string() ? k.get<std::string>() : std::string();
}


// data of a ConfigMap or Secret, absent and {} alike.
bool sameData(const Object& desired, const Object& live) {
  const Object& a = at(desired, "data");
  const Object& b = at(live, "data");
  const bool aEmpty = a.is_null() || a.empty();
  const bool bEmpty = b.is_null() || b.empty();
  return (aEmpty && bEmpty) || a == b;
}

// Replaces (or removes, when desired lacks it) next.spec[key].
void takeSpecField(Object& next, const Object& desired, std::string_view key) {
  const Object& want = at(at(desired, "spec"), key);
  Object& spec = next["spec"];
  if (!spec.is_object()) spec = Object::object();
  if (want.is_null())
    spec.erase(std::string(key));
  else
    spec[std::string(key)] = want;
}

void keepImmutable(const Object& desired, const Object& live, std::initializer_list<std::string_view> keys,
                   std::vector<std::string>* kept) {
  for (std::string_view k : keys) {
    const Object& want = at(at(desired, "spec"), k);
    if (want.is_null()) continue;
    if (!containsFields(want, at(at(live, "spec"), k)) && kept)
      kept->push_back(kindOf(desired) + " " + meta::name(desired) + ": spec." + std::string(k));
  }
}

void mergeMetadata(Object& next, const Object& desired) {
  for (const auto& [k, v] : meta::labels(desired)) meta::setLabel(next, k, v);
  for (const auto& [k, v] : meta::annotations(desired)) meta::setAnnotation(next, k, v);
  // The cluster's reference replaces any other controller reference (the cluster only
  // writes objects it controls or that have no controller: see Ensurer).
  Object refs = Object::array();
  const Object& liveRefs = metaField(next, "ownerReferences");
  const Object& want = metaField(desired, "ownerReferences");
  std::string wantUid;
  if (want.is_array() && !want.empty()) wantUid = at(want[0], "uid").is_string() ? want[0]["uid"].get<std::string>() : "";
  if (liveRefs.is_array())
    for (const auto& r : liveRefs) {
      const bool isController = at(r, "controller").is_boolean() && r["controller"].get<bool>();
      const bool same = at(r, "uid").is_string() && r["uid"].get<std::string>() == wantUid;
      if (!isController && !same) refs.push_back(r);
    }
  if (want.is_array())
    for (const auto& r : want) refs.push_back(r);
  next["metadata"]["ownerReferences"] = std::move(refs);
}

// The annotation's value in place ("" when absent).
std::string_view recordedHashIn(const Object& live) {
  const Object& v = at(metaField(live, "annotations"), kDesiredHashAnnotation);
  return v.is_string() ? std::string_view(v.get_ref<const std::string&>()) : std::string_view();
}

}  // namespace

std::string_view controllerUidIn(const Object& o) {
  const Object& refs = metaField(o, "ownerReferences");
  if (!refs.is_array()) return {};
  for (const auto& r : refs) {
    const Object& c = at(r, "controller");
    if (!c.is_boolean() || !c.get<bool>()) continue;
    const Object& uid = at(r, "uid");
    return uid.is_string() ? std::string_view(uid.get_ref<const std::string&>()) : std::string_view();
  }
  return {};
}

bool containsFields(const Object& want, const Object& have) {
  if (want.is_object()) {
    if (!have.is_object()) return false;
    for (auto it = want.begin(); it != want.end(); ++it) {
      const Object* h = memberOf(have, it.key());
      if (!h) {
        if (!it->is_null()) return false;
        continue;
      }
      if (!containsFields(*it, *h)) return false;
    }
    return true;
  }
  if (want.is_array()) {
    if (!have.is_array() || have.size() != want.size()) return false;
    for (std::size_t i = 0; i < want.size(); ++i)
      if (!containsFields(want[i], have[i])) return false;
    return true;
  }
  return want == have;
}

bool upToDate(const DesiredObject& desired, const Object& live) {
  if (recordedHashIn(live) != desired.hash) return false;
  if (controllerUidIn(live) != controllerUidIn(desired.object)) return false;
  if (!containsFields(metaField(desired.object, "labels"), metaField(live, "labels"))) return false;
  const std::string kind = kindOf(desired.object);
  if (kind == "ConfigMap" || kind == "Secret") return sameData(desired.object, live);
  if (kind == "StatefulSet") return at(at(desired.object, "spec"), "replicas") == at(at(live, "spec"), "replicas");
  return true;
}

Object mergeForUpdate(const DesiredObject& desired, const Object& live, std::vector<std::string>* immutableKept) {
  const Object& d = desired.object;
  Object next = live;
  mergeMetadata(next, d);
  const std::string kind = kindOf(d);
  if (kind == "ConfigMap" || kind == "Secret") {
    next["data"] = at(d, "data").is_null() ? Object::object() : d["data"];
  } else if (kind == "Service") {
    for (std::string_view k : {"ports", "selector", "type"}) takeSpecField(next, d, k);
    const Object& want = at(at(d, "spec"), "clusterIP");
    if (!want.is_null() && want != at(at(live, "spec"), "clusterIP") && immutableKept)
      immutableKept->push_back(kind + " " + meta::name(d) + ": spec.clusterIP");
  } else if (kind == "StatefulSet") {
    for (std::string_view k : {"replicas", "template", "updateStrategy"}) takeSpecField(next, d, k);
    keepImmutable(d, live, {"selector", "serviceName", "podManagementPolicy", "volumeClaimTemplates"}, immutableKept);
  } else if (kind == "PodDisruptionBudget") {
    for (std::string_view k : {"minAvailable", "maxUnavailable", "selector"}) takeSpecField(next, d, k);
  } else {
    for (auto it = d.begin(); it != d.end(); ++it)
      if (it.key() != "metadata" && it.key() != "status") next[it.key()] = *it;
  }
  return next;
}

}  // namespace kun::rediscluster
