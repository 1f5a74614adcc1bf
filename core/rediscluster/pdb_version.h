#pragma once
// Which PodDisruptionBudget API the cluster serves: policy/v1 from Kubernetes 1.21 on,
// only policy/v1beta1 before (and v1beta1 is gone from 1.25). Asked once, when the
// operator starts, by listing policy/v1 PDBs: an API server that does not serve a
// resource answers 404 for it, which is the one answer that means "use v1beta1".
#include <string_view>

#include "core/kube/kube_client.h"
#include "core/rediscluster/generate.h"
#include "core/runtime/result.h"

namespace kun::rediscluster {

// V1 when policy/v1 answers a list; V1beta1 when it is NotFound; any other error (the API
// server unreachable, forbidden...) is returned: it says nothing about the version.
Result<PdbVersion> detectPdbVersion(KubeClient& client, std::string_view ns);

}  // namespace kun::rediscluster
