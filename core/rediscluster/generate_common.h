#pragma once
// Pieces every generated object shares (internal to the generate_*.cpp files).
#include <string>
#include <string_view>

#include "core/api/object.h"
#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/labels.h"

namespace kun::rediscluster::detail {

// {apiVersion, kind, name, uid, controller: true, blockOwnerDeletion: true}.
Object controllerReference(const api::RedisCluster& rc);
// name, namespace, objectLabels(rc, c), ownerReferences [controllerReference].
Object objectMeta(const api::RedisCluster& rc, std::string name, Component c);
// {matchLabels: selectorLabels}.
Object labelSelector(const api::RedisCluster& rc, Component c);
// Sets o[key] = v unless v is null or an empty object/array (Go's omitempty).
void setIfSet(Object& o, const char* key, const Object& v);
// KUN's pullPolicy(): Always when the spec leaves it empty.
std::string pullPolicy(std::string_view p);
// A Kubernetes ResourceList/requirements object: {requests: {cpu, memory}, limits: {...}}.
Object resources(std::string_view reqCpu, std::string_view reqMem, std::string_view limCpu,
                 std::string_view limMem);

}  // namespace kun::rediscluster::detail
