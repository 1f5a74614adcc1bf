#include "core/rediscluster/desired_hash.h"

#include <fmt/format.h>

#include "core/runtime/random.h"

namespace kun::rediscluster {

namespace {
bool hasAnnotation(const Object& obj) {
  auto m = obj.find("metadata");
  if (m == obj.end() || !m->is_object()) return false;
  auto a = m->find("annotations");
  return a != m->end() && a->is_object() && a->contains(kDesiredHashAnnotation);
}
}  // namespace

std::string desiredHash(const Object& obj) {
  if (!hasAnnotation(obj)) return fmt::format("{:016x}", fnv1a64(obj.dump()));
  Object copy = obj;
  Object& ann = copy["metadata"]["annotations"];
  ann.erase(std::string(kDesiredHashAnnotation));
  if (ann.empty()) copy["metadata"].erase("annotations");
  return fmt::format("{:016x}", fnv1a64(copy.dump()));
}

std::string stampDesiredHash(Object& obj) {
  std::string h = desiredHash(obj);
  meta::setAnnotation(obj, kDesiredHashAnnotation, h);
  return h;
}

std::string recordedHash(const Object& live) { return meta::annotation(live, kDesiredHashAnnotation); }

}  // namespace kun::rediscluster
