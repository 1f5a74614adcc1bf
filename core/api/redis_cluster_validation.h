#pragma once
// What this operator refuses to build, checked on the user's spec before defaults. KUN's own
// rules (name length, minimum sizes) come first; the rest rejects specs that KUN accepts but
// that break the pods, fight the operator for what it manages, or inject lines into the
// generated redis.conf / sentinel.conf. The reasons are next to each rule in the .cpp.
//
// A rejected cluster gets condition Failed naming the field and a Warning Event; the
// reconciler then changes and deletes nothing.
#include <cstddef>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/runtime/result.h"

namespace kun::api {

namespace limits {
// KUN's limit on metadata.name.
inline constexpr std::size_t kKunMaxNameLength = 48;
// The limit enforced here: a StatefulSet's pods carry the label
// controller-revision-hash=<statefulset>-<hash of up to 10 characters>, and a label value
// has at most 63 characters, so a StatefulSet name longer than 52 leaves it unable to create
// pods. The longest derived name is redis-sentinel-<name> (15 + name), hence 37. KUN's 48
// would let names of 38..48 characters through to pods that never start.
inline constexpr std::size_t kMaxNameLength = 37;
inline constexpr std::int32_t kMinSize = 3;              // KUN's minimum
inline constexpr std::int32_t kMinSentinelReplicas = 3;  // KUN's minimum
}  // namespace limits

// Every problem found, in a stable order; empty when the spec is accepted. Each error has
// reason Invalid, field = the wire path ("spec.config.port", "spec.sentinel.customConfig[1]")
// and a message that says what is wrong and, where it helps, what to do instead.
std::vector<Error> validateRedisCluster(const RedisCluster& rc);
// The spec alone (field paths still start with "spec.").
std::vector<Error> validateRedisClusterSpec(const RedisClusterSpec& spec);

// "spec.config.port: is managed by the operator and cannot be set"
std::string formatFieldError(const Error& e);
// All of them joined with "; ", for a condition message or an Event.
std::string formatFieldErrors(const std::vector<Error>& errors);

// The redis.conf parameters users may not set in spec.config, and Sentinel per-master
// options they may set in spec.sentinel.customConfig (exposed for documentation and tests).
const std::vector<std::string_view>& operatorOwnedRedisConfig();
const std::vector<std::string_view>& allowedSentinelOptions();

}  // namespace kun::api
