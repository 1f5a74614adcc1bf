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

// Whether c's modelled fields read back from o as they are (each a string equal to the
// field, or absent where the field is empty): then toObject(c) == o when c.original is o,
// the rest of it being carried over from there.
bool conditionReadsBack(const Condition& c, const Object& o);
// Whether toObject(s) == *s.original, told from the fields without building the JSON (a
// status write that would change nothing is asked for on every reconcile pass). False
// also when it cannot be told this way: then build and compare.
bool statusReadsBack(const RedisClusterStatus& s);

}  // namespace kun::api
