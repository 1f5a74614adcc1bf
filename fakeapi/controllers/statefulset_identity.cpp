#include "fakeapi/controllers/statefulset_identity.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/runtime/random.h"

namespace kun::sim {
namespace {

const Object& at(const Object& o, const char* key) {
  static const Object kNull;
  const Object* v = memberOf(o, key);
  return v ? *v : kNull;
}

}  // namespace

std::string statefulSetPodName(std::string_view set, int ordinal) {
  return fmt::format("{}-{}", set, ordinal);
}

std::optional<int> statefulSetOrdinal(std::string_view set, std::string_view podName) {
  if (podName.size() <= set.size() + 1 || podName.substr(0, set.size()) != set || podName[set.size()] != '-') {
    return std::nullopt;
  }
  const std::string_view digits = podName.substr(set.size() + 1);
  if (digits.size() > 1 && digits[0] == '0') return std::nullopt;
  int n = 0;
  auto [p, ec] = std::from_chars(digits.data(), digits.data() + digits.size(), n);
  if (ec != std::errc() || p != digits.data() + digits.size() || n < 0) return std::nullopt;
  return n;
}

std::string claimName(std::string_view claimTemplate, std::string_view set, int ordinal) {
  return fmt::format("{}-{}-{}", claimTemplate, set, ordinal);
}

std::string templateHash(const Object& podTemplate) {
  static constexpr std::string_view kAlphabet = "bcdfghjklmnpqrstvwxz2456789";
  const auto h = static_cast<std::uint32_t>(fnv1a64(podTemplate.dump()));
  std::string digits = std::to_string(h);
  for (char& c : digits) c = kAlphabet[static_cast<unsigned char>(c) % kAlphabet.size()];
  return digits;
}

std::string revisionName(std::string_view set, std::string_view hash) {
  return fmt::format("{}-{}", set, hash);
}

Object newControllerRevision(const Object& set, const Object& podTemplate, const std::string& hash,
                             std::int64_t number) {
  Object rev = {{"apiVersion", "apps/v1"},
                {"kind", "ControllerRevision"},
                {"metadata",
                 {{"name", revisionName(meta::name(set), hash)}, {"namespace", meta::namespaceOf(set)}}},
                {"revision", number}};
  Object tpl = podTemplate;
  tpl["$patch"] = "replace";
  // Moved into place: an initializer list ({{"template", tpl}}) would copy it again.
  Object spec = Object::object();
  spec["template"] = std::move(tpl);
  Object data = Object::object();
  data["spec"] = std::move(spec);
  rev["data"] = std::move(data);
  for (const auto& [k, v] : meta::labels(podTemplate)) meta::setLabel(rev, k, v);
  meta::setLabel(rev, kRevisionHashLabel, hash);
  meta::addOwnerReference(rev, meta::ownerRefTo(set, true));
  return rev;
}

Object revisionTemplate(const Object& revision) {
  Object tpl = at(at(at(revision, "data"), "spec"), "template");
  if (tpl.is_object()) tpl.erase("$patch");
  return tpl;
}

std::vector<Object> newClaims(const Object& set, int ordinal) {
  std::vector<Object> out;
  const Object& templates = at(at(set, "spec"), "volumeClaimTemplates");
  if (!templates.is_array()) return out;
  const Object& matchLabels = at(at(at(set, "spec"), "selector"), "matchLabels");
  for (const auto& t : templates) {
    Object claim = {{"apiVersion", "v1"}, {"kind", "PersistentVolumeClaim"}};
    claim["metadata"] = Object::object();
    const Object& tm = at(t, "metadata");
    if (tm.is_object()) {
      // As the real controller, which copies the template's whole metadata: owner
      // references written there (KUN ties its claims to the RedisCluster that way) are
      // the claim's, so garbage collection takes the claim with its owner.
      for (const char* k : {"labels", "annotations", "ownerReferences"})
        if (tm.contains(k)) claim["metadata"][k] = tm[k];
    }
    meta::setName(claim, claimName(meta::name(t), meta::name(set), ordinal));
    meta::setNamespace(claim, meta::namespaceOf(set));
    if (matchLabels.is_object()) {
      for (const auto& [k, v] : matchLabels.items())
        if (v.is_string()) meta::setLabel(claim, k, v.get<std::string>());
    }
    claim["spec"] = at(t, "spec").is_object() ? at(t, "spec") : Object::object();
    claim["status"] = {{"phase", "Pending"}};
    out.push_back(std::move(claim));
  }
  return out;
}

Object newStatefulSetPod(const Object& set, const Object& podTemplate, int ordinal,
                         const std::string& revName) {
  const std::string setName = meta::name(set);
  const std::string name = statefulSetPodName(setName, ordinal);
  Object pod = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", Object::object()}};
  const Object& tm = at(podTemplate, "metadata");
  if (tm.is_object()) {
    for (const char* k : {"labels", "annotations"})
      if (tm.contains(k)) pod["metadata"][k] = tm[k];
  }
  meta::setName(pod, name);
  meta::setNamespace(pod, meta::namespaceOf(set));
  meta::setLabel(pod, kRevisionLabel, revName);
  meta::setLabel(pod, kPodNameLabel, name);
  meta::setLabel(pod, kPodIndexLabel, std::to_string(ordinal));
  OwnerReference ref = meta::ownerRefTo(set, true);
  ref.blockOwnerDeletion = true;
  meta::addOwnerReference(pod, ref);
  Object spec = at(podTemplate, "spec").is_object() ? at(podTemplate, "spec") : Object::object();
  spec["hostname"] = name;
  const Object& service = at(at(set, "spec"), "serviceName");
  if (service.is_string() && !service.get<std::string>().empty()) spec["subdomain"] = service;
  const Object& templates = at(at(set, "spec"), "volumeClaimTemplates");
  if (templates.is_array() && !templates.empty()) {
    // As Kubernetes does: the claims first, then the template's other volumes (a template
    // volume named like a claim is replaced by it).
    Object volumes = Object::array();
    std::vector<std::string> claimVolumes;
    for (const auto& t : templates) {
      claimVolumes.push_back(meta::name(t));
      volumes.push_back({{"name", claimVolumes.back()},
                         {"persistentVolumeClaim", {{"claimName", claimName(claimVolumes.back(), setName, ordinal)}}}});
    }
    if (spec.contains("volumes") && spec["volumes"].is_array()) {
      for (const auto& v : spec["volumes"]) {
        const std::string vn = v.value("name", "");
        if (std::find(claimVolumes.begin(), claimVolumes.end(), vn) == claimVolumes.end()) volumes.push_back(v);
      }
    }
    spec["volumes"] = std::move(volumes);
  }
  pod["spec"] = std::move(spec);
  return pod;
}

}  // namespace kun::sim
