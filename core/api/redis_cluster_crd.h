#pragma once
// The RedisCluster CustomResourceDefinition (apiextensions.k8s.io/v1), as the object the
// fake API server registers and the operator can create. kind/crd.yaml is the same object
// for kubectl; a unit test keeps the two equal.
#include "core/api/object.h"

namespace kun::api {

const Object& redisClusterCrd();

}  // namespace kun::api
