#pragma once
// The RedisCluster custom resource (redis.kun/v1beta1), wire-compatible with the KUN Redis
// operator (github.com/ucloud/redis-operator): same field names, same JSON spellings
// (including `toleRations` in the spec and `tolerations` in the sentinel section), same
// meaning of zero values (Go's omitempty: "" / 0 / false mean "not set").
//
// Each struct carries `original`, the JSON object it was parsed from (shared, read-only: a
// parse copies the object once at most, and copying a struct copies a pointer). Serializing
// takes the fields it does not model from there and writes the typed ones, so fields this
// operator does not know — newer KUN fields, another tool's extensions — survive
// parse -> modify -> serialize, and an unmodified object serializes to itself.
// Kubernetes structures the operator passes through to pods untouched (resources,
// affinity, securityContext, tolerations, volume sources, pull secrets) stay JSON.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"

namespace kun::api {

inline constexpr std::string_view kGroup = "redis.kun";
inline constexpr std::string_view kVersion = "v1beta1";
inline constexpr std::string_view kApiVersion = "redis.kun/v1beta1";
inline constexpr std::string_view kKind = "RedisCluster";
inline constexpr std::string_view kListKind = "RedisClusterList";
inline constexpr std::string_view kPlural = "redisclusters";
inline constexpr std::string_view kSingular = "rediscluster";
// metadata.annotations key that marks a cluster for the cluster-scoped operator.
inline constexpr std::string_view kScopeAnnotation = "redis.kun/scope";
inline constexpr std::string_view kScopeClusterScoped = "cluster-scoped";

// The JSON a struct was parsed from; null for a struct built in code.
using Original = std::shared_ptr<const Object>;

struct RedisExporter {
  bool enabled = false;
  std::string image;
  std::string imagePullPolicy;
  Original original;
};

struct RedisStorage {
  bool keepAfterDeletion = false;
  Object emptyDir;               // core/v1 EmptyDirVolumeSource; null when not set
  Object persistentVolumeClaim;  // core/v1 PersistentVolumeClaim (template); null when not set
  Original original;
};

struct SentinelSettings {
  std::string image;
  std::string imagePullPolicy;
  Object imagePullSecrets;  // [{name}], null when not set
  std::int32_t replicas = 0;
  Object resources;         // core/v1 ResourceRequirements, null when not set
  // "option value" lines applied with SENTINEL SET <master> option value.
  std::vector<std::string> customConfig;
  std::vector<std::string> command;
  Object affinity;          // core/v1 Affinity
  Object securityContext;   // core/v1 PodSecurityContext
  Object tolerations;       // [core/v1 Toleration]; JSON key "tolerations" here
  std::map<std::string, std::string> nodeSelector;
  std::map<std::string, std::string> annotations;
  Original original;
};

struct RedisClusterSpec {
  std::int32_t size = 0;
  Object resources;         // core/v1 ResourceRequirements
  std::string image;
  std::string imagePullPolicy;
  Object imagePullSecrets;  // [{name}]
  std::vector<std::string> command;
  std::string shutdownConfigMap;
  RedisStorage storage;
  std::string password;
  RedisExporter exporter;
  Object affinity;
  Object securityContext;
  Object tolerations;       // [core/v1 Toleration]; JSON key "toleRations" (sic, as in KUN)
  std::map<std::string, std::string> nodeSelector;
  std::map<std::string, std::string> config;  // redis.conf parameter -> value
  std::map<std::string, std::string> annotations;
  bool disablePersistence = false;
  SentinelSettings sentinel;
  Original original;
};

struct Condition {
  std::string type;    // Creating, Healthy, Updating, Scaling, Recovering, Failed, ...
  std::string status;  // "True", "False", "Unknown"
  std::string lastUpdateTime;       // RFC 3339
  std::string lastTransitionTime;   // RFC 3339
  std::string reason;
  std::string message;
  Original original;
};

struct RedisClusterStatus {
  std::vector<Condition> conditions;
  std::string masterIP;
  std::string sentinelIP;
  std::int64_t observedGeneration = 0;  // not in KUN; added here (Kubernetes convention)
  // Not in KUN: the spec of observedGeneration, as the user wrote it, while it was valid —
  // so that an operator restarted onto an invalid edit keeps running the cluster by it.
  // Null when absent.
  Original acceptedSpec;
  Original original;
};

struct RedisCluster {
  std::string apiVersion{kApiVersion};
  std::string kind{kKind};
  Object metadata = Object::object();  // ObjectMeta, read and written with kun::meta helpers
  RedisClusterSpec spec;
  RedisClusterStatus status;
  Original original;  // the whole object as parsed

  std::string name() const;
  std::string namespaceOf() const;
  std::int64_t generation() const;
};

// Parsing fails (Reason::Invalid, field = the path) only when a known field has the wrong
// JSON type, e.g. spec.size: "3"; what the values mean is checked by validation.
Result<RedisCluster> parseRedisCluster(const Object& o);
// Without copying o: the informer's shared object becomes the original.
Result<RedisCluster> parseRedisCluster(std::shared_ptr<const Object> o);
Result<RedisClusterSpec> parseRedisClusterSpec(const Object& spec);     // path "spec"
Result<RedisClusterStatus> parseRedisClusterStatus(const Object& status);  // path "status"
// The status of a whole stored object, as parseRedisCluster(root) reads it (not copied: its
// originals point into root).
Result<RedisClusterStatus> parseStoredStatus(std::shared_ptr<const Object> root);

Object toObject(const RedisCluster& rc);
Object toObject(const RedisClusterSpec& spec);
Object toObject(const RedisClusterStatus& status);
Object toObject(const Condition& c);

// The condition of that type, or nullptr.
const Condition* findCondition(const RedisClusterStatus& s, std::string_view type);
Condition* findCondition(RedisClusterStatus& s, std::string_view type);

}  // namespace kun::api
