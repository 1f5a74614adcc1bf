#pragma once
// How a desired object is written over the live one, and when it need not be.
//
// An update starts from the live object and replaces only the fields the operator owns, so
// what others own survives: the API server's allocations and defaults (a Service's
// clusterIP, a StatefulSet's revisionHistoryLimit), other controllers' labels, annotations,
// owner references and finalizers, and status. resourceVersion stays the live one: the
// write is optimistic and fails with Conflict if the cache was stale.
//
// Owned, per kind: ConfigMap and Secret data; Service ports, selector and type; StatefulSet
// replicas, template and updateStrategy; PodDisruptionBudget minAvailable and selector;
// the labels and annotations the operator sets; its controller reference. Fields that
// Kubernetes makes immutable (Service clusterIP; StatefulSet selector, serviceName,
// podManagementPolicy, volumeClaimTemplates) keep their live value; when the desired one
// differs, the field is named in `immutableKept` so the caller can say that the change
// needs the object re-created.
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/rediscluster/generate.h"

namespace kun::rediscluster {

// The live object is what would be written: its recorded hash is the desired one, the
// cluster still controls it, and the cheap spot checks for edits by others hold (labels
// present, ConfigMap/Secret data equal, StatefulSet replicas equal).
bool upToDate(const DesiredObject& desired, const Object& live);

// The uid of o's controller reference, read in place ("" when it has none). Runs for every
// owned object of every reconcile, so it builds nothing.
std::string_view controllerUidIn(const Object& o);

// The object to send with update(): live, with the owned fields taken from desired.
Object mergeForUpdate(const DesiredObject& desired, const Object& live, std::vector<std::string>* immutableKept);

// Every field of want is in have with the same value (arrays: same length, element-wise);
// have may have more. What "the live object still has what was asked for" means when the
// server adds defaults.
bool containsFields(const Object& want, const Object& have);

}  // namespace kun::rediscluster
