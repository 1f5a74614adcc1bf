#include "scenarios/object_delete.h"

#include <algorithm>

#include <fmt/format.h>

#include "scenarios/scenario_world.h"

namespace kun::scenario {

namespace {

std::vector<const Resource*> deletable() {
  std::vector<const Resource*> out{&res::redisclusters};
  for (const auto& r : res::builtins())
    if (r.namespaced) out.push_back(&r);
  return out;
}

PropagationPolicy policyOf(DeletePropagation p) {
  switch (p) {
    case DeletePropagation::Foreground: return PropagationPolicy::Foreground;
    case DeletePropagation::Orphan: return PropagationPolicy::Orphan;
    case DeletePropagation::Background: break;
  }
  return PropagationPolicy::Background;
}

}  // namespace

const Resource* resourceOfKind(std::string_view kind) {
  // The first of a kind wins: policy/v1 PodDisruptionBudget before v1beta1, as the
  // operator writes it.
  for (const Resource* r : deletable())
    if (r->kind == kind) return r;
  return nullptr;
}

std::string deletableKinds() {
  std::string out;
  std::vector<std::string> seen;
  for (const Resource* r : deletable()) {
    if (std::find(seen.begin(), seen.end(), r->kind) != seen.end()) continue;
    seen.push_back(r->kind);
    out += (out.empty() ? "" : ", ") + r->kind;
  }
  return out;
}

std::optional<DeletePropagation> deletePropagationFromName(std::string_view name) {
  for (auto p : {DeletePropagation::Background, DeletePropagation::Foreground, DeletePropagation::Orphan})
    if (deletePropagationName(p) == name) return p;
  return std::nullopt;
}

Result<DeleteOutcome> deleteObject(ScenarioWorld& w, const Step& st, const std::string& defaultNs,
                                   const std::string& defaultCluster) {
  const Resource* r = resourceOfKind(st.objectKind);
  if (!r) return makeError(Reason::Invalid, "kind: expected one of " + deletableKinds() + ", got " + st.objectKind, "kind");
  const bool isCluster = *r == res::redisclusters;
  const std::string ns = st.objectNamespace.empty() ? defaultNs : st.objectNamespace;
  const std::string name = st.objectName.empty() && isCluster ? defaultCluster : st.objectName;
  if (name.empty()) return makeError(Reason::Invalid, "name: expected the name of the " + st.objectKind, "name");
  DeleteOutcome out;
  if (isCluster) {
    // Read before it goes: whether its spec keeps the claims decides what may remain.
    auto rc = w.cluster(ns, name);
    if (!rc) return makeError(Reason::NotFound, fmt::format("RedisCluster {}/{} does not exist", ns, name));
    out.cluster = DeletedCluster{ns, name, rc->spec.storage.keepAfterDeletion};
  }
  DeleteOptions opts;
  opts.propagationPolicy = policyOf(st.propagation);
  if (auto s = w.harnessClient().remove(*r, ns, name, opts); !s) return s.error();
  out.detail = fmt::format("{} {}/{} deleted ({})", st.objectKind, ns, name, deletePropagationName(st.propagation));
  return out;
}

}  // namespace kun::scenario
