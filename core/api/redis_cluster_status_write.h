#pragma once
// A status write (the operator's own, on every phase change) gives the stored cluster a new
// status and resourceVersion and nothing else. Parsing, validating and defaulting the whole
// cluster again for it would read a spec that did not change: instead the parse of the
// version before takes over the new status.
#include <memory>

#include "core/api/redis_cluster_types.h"

namespace kun::api {

// `after` differs from `before` in status and metadata.resourceVersion at most: every other
// member, at every depth, has the same type and value (sameJson).
bool onlyStatusWritten(const Object& before, const Object& after);

// rc, parseRedisCluster(before) or withDefaults of it, becomes the same of `root` when
// onlyStatusWritten(before, *root), given status = parseStoredStatus(root): that status,
// root's metadata.resourceVersion, root as the original. The spec (and the originals inside
// it, which hold the same JSON in before) stays as it is.
void takeStatusWrite(RedisCluster& rc, RedisClusterStatus status, std::shared_ptr<const Object> root);

}  // namespace kun::api
