#pragma once
// Drift detection without comparing objects field by field: the API server and other
// controllers add defaults and fields (a StatefulSet's revisionHistoryLimit, a Service's
// clusterIP, canonicalised quantities...), so a live object never equals the desired one.
// Instead the desired object's hash is written into an annotation when the operator writes
// it; the live object is up to date while its annotation equals the hash of what would be
// written now.
#include <string>
#include <string_view>

#include "core/api/object.h"

namespace kun::rediscluster {

inline constexpr std::string_view kDesiredHashAnnotation = "redis.kun/desired-hash";

// 16 hex digits of FNV-1a 64 over the object's canonical JSON (keys sorted, no spaces),
// ignoring the annotation itself. Stable across runs, builds and processes.
std::string desiredHash(const Object& obj);
// Sets the annotation to desiredHash(obj) and returns it.
std::string stampDesiredHash(Object& obj);
// The live object's annotation ("" when absent).
std::string recordedHash(const Object& live);

}  // namespace kun::rediscluster
