#pragma once
// A StatefulSet's stable identities, as the Kubernetes StatefulSet controller derives them:
// pod names <set>-<ordinal>, claim names <claim>-<set>-<ordinal>, and revisions named
// <set>-<hash of the pod template> (a ControllerRevision object holding the template).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"

namespace kun::sim {

inline constexpr const char* kRevisionLabel = "controller-revision-hash";
inline constexpr const char* kPodNameLabel = "statefulset.kubernetes.io/pod-name";
inline constexpr const char* kPodIndexLabel = "apps.kubernetes.io/pod-index";
inline constexpr const char* kRevisionHashLabel = "controller.kubernetes.io/hash";

std::string statefulSetPodName(std::string_view set, int ordinal);
// The ordinal in "<set>-<n>", or nullopt if podName is not one of set's pod names.
std::optional<int> statefulSetOrdinal(std::string_view set, std::string_view podName);
std::string claimName(std::string_view claimTemplate, std::string_view set, int ordinal);

// A stable hash of the pod template, encoded like Kubernetes' (digits mapped onto a
// consonant/digit alphabet, so it never spells words): "5c4d8b7f9".
std::string templateHash(const Object& podTemplate);
std::string revisionName(std::string_view set, std::string_view hash);

// The ControllerRevision for set's template, with revision number `number`.
Object newControllerRevision(const Object& set, const Object& podTemplate, const std::string& hash,
                             std::int64_t number);
// The pod template a ControllerRevision holds (null if it holds none).
Object revisionTemplate(const Object& revision);

// The PVCs for one ordinal (metadata.name set; no owner: they outlive the pod), in the
// order of spec.volumeClaimTemplates.
std::vector<Object> newClaims(const Object& set, int ordinal);
// The pod for ordinal from podTemplate at revision revName: template labels plus the
// revision, pod-name and pod-index labels, a controller reference to set, hostname and
// subdomain, and its claims mounted in place of same-named volumes.
Object newStatefulSetPod(const Object& set, const Object& podTemplate, int ordinal,
                         const std::string& revName);

}  // namespace kun::sim
