#pragma once
// Builders and checks the controller tests share.
#include <algorithm>
#include <optional>
#include <string>
#include <vector>

#include "core/kube/kube_client.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/statefulset_identity.h"

namespace kun::simtest {

struct SetOptions {
  int replicas = 3;
  std::string policy = "OrderedReady";  // or Parallel
  std::string strategy = "RollingUpdate";  // or OnDelete
  std::optional<int> partition;
  bool claims = false;  // one volumeClaimTemplate "data"
  std::string image = "redis:7.2";
  Object affinity;  // spec.template.spec.affinity
  std::optional<int> grace;  // terminationGracePeriodSeconds
};

inline Object statefulSet(const std::string& name, const SetOptions& o = {}) {
  Object container = {{"name", "redis"}, {"image", o.image}};
  Object podSpec = {{"containers", Object::array({container})}};
  if (!o.affinity.is_null()) podSpec["affinity"] = o.affinity;
  if (o.grace) podSpec["terminationGracePeriodSeconds"] = *o.grace;
  Object set = {
      {"apiVersion", "apps/v1"},
      {"kind", "StatefulSet"},
      {"metadata", {{"name", name}, {"namespace", "default"}}},
      {"spec",
       {{"replicas", o.replicas},
        {"serviceName", name},
        {"podManagementPolicy", o.policy},
        {"selector", {{"matchLabels", {{"app", name}}}}},
        {"template", {{"metadata", {{"labels", {{"app", name}}}}}, {"spec", podSpec}}},
        {"updateStrategy", {{"type", o.strategy}}}}},
  };
  if (o.partition) set["spec"]["updateStrategy"]["rollingUpdate"] = {{"partition", *o.partition}};
  if (o.claims) {
    set["spec"]["volumeClaimTemplates"] = Object::array(
        {{{"metadata", {{"name", "data"}}},
          {"spec", {{"accessModes", Object::array({"ReadWriteOnce"})},
                    {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}}});
  }
  return set;
}

// The set's pods (by controller reference and name), sorted by ordinal.
inline std::vector<Object> podsOf(KubeClient& c, const std::string& ns, const std::string& set) {
  std::vector<Object> out;
  auto l = c.list(res::pods, ns);
  if (!l) return out;
  for (auto& p : l->items) {
    auto ref = meta::controllerOf(p);
    if (ref && ref->kind == "StatefulSet" && ref->name == set && sim::statefulSetOrdinal(set, meta::name(p))) {
      out.push_back(std::move(p));
    }
  }
  std::sort(out.begin(), out.end(), [&](const Object& a, const Object& b) {
    return *sim::statefulSetOrdinal(set, meta::name(a)) < *sim::statefulSetOrdinal(set, meta::name(b));
  });
  return out;
}

// Exactly pods set-0..n-1 exist, each Running and Ready and not being deleted.
inline bool converged(KubeClient& c, const std::string& ns, const std::string& set, int n) {
  const auto pods = podsOf(c, ns, set);
  if (static_cast<int>(pods.size()) != n) return false;
  for (int i = 0; i < n; ++i) {
    if (meta::name(pods[static_cast<std::size_t>(i)]) != sim::statefulSetPodName(set, i)) return false;
    if (!sim::isRunningAndReady(pods[static_cast<std::size_t>(i)])) return false;
  }
  return true;
}

inline Status scale(KubeClient& c, const std::string& ns, const std::string& set, int n) {
  auto r = c.patch(res::statefulsets, ns, set, Object{{"spec", {{"replicas", n}}}});
  if (!r) return r.error();
  return {};
}

inline Status deletePod(KubeClient& c, const std::string& ns, const std::string& name) {
  return c.remove(res::pods, ns, name);
}

}  // namespace kun::simtest
