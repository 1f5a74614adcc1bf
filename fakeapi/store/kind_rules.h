#pragma once
// What particular kinds do on the server beyond the generic rules (the "strategies" of the
// Kubernetes API server): the status a new object starts with, the defaults the server
// assigns, and the fields an update may not change. Only what this project relies on or
// could trip over. Not modelled: API defaulting (a pod's spec is stored as sent; the grace
// period falls back to 30 s when unset), admission plugins, quotas, event TTLs, PVC spec
// immutability, ClusterIP conflicts (addresses are handed out in order).
#include <cstdint>
#include <functional>
#include <string>

#include "core/api/object.h"
#include "core/runtime/result.h"
#include "fakeapi/store/resource_registry.h"

namespace kun::store {

struct CreateContext {
  std::int64_t nowMicros = 0;                     // wall time, for timestamps
  std::function<std::string()> allocateClusterIP;  // Services
};

// For a resource with a status subresource, the status a client sends on create is
// dropped (nodes excepted, as in Kubernetes) and replaced by the kind's initial status:
// pods and PVCs Pending, namespaces Active (and spec.finalizers ["kubernetes"]), CRDs
// Established. Services get a spec.clusterIP unless headless or given one.
Status prepareForCreate(const StoredResource& r, const std::string& version, Object& obj, CreateContext& ctx);

// On a main-resource update: pods may change only container images, activeDeadlineSeconds,
// tolerations, terminationGracePeriodSeconds and (once, from empty) spec.nodeName — the
// binding this interface has no subresource for; StatefulSets only replicas, template,
// updateStrategy, persistentVolumeClaimRetentionPolicy, minReadySeconds and ordinals;
// a Service keeps its clusterIP; a namespace keeps spec.finalizers; a CRD keeps its scope.
Status prepareForUpdate(const StoredResource& r, Object& next, const Object& current);
// Whether prepareForUpdate may rewrite next (services, namespaces). For every other kind
// it only checks fields outside metadata and status, so an update that changes none of
// them needs no check.
bool updateRewrites(const StoredResource& r);

// Whether a deleting object may now be removed from storage: no finalizers left, no grace
// period pending (pods), and for namespaces no spec.finalizers left.
bool readyToRemove(const StoredResource& r, const Object& obj);

inline constexpr std::string_view kNamespaceFinalizer = "kubernetes";
inline constexpr std::string_view kCrdCleanupFinalizer = "customresourcecleanup.apiextensions.k8s.io";

bool isKind(const StoredResource& r, std::string_view group, std::string_view plural);

}  // namespace kun::store
