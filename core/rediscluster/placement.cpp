#include "core/rediscluster/placement.h"

namespace kun::rediscluster::placement {

namespace {
Object term(const Labels& selector, std::string_view topologyKey, std::int32_t weight) {
  return Object{{"weight", weight},
                {"podAffinityTerm",
                 {{"labelSelector", {{"matchLabels", selector}}}, {"topologyKey", topologyKey}}}};
}
}  // namespace

Object defaultAffinity(const Labels& selector) {
  return Object{{"podAntiAffinity",
                 {{"preferredDuringSchedulingIgnoredDuringExecution",
                   Object::array({term(selector, kHostnameKey, kHostnameWeight),
                                  term(selector, kZoneKey, kZoneWeight)})}}}};
}

Object affinityFor(const Object& userAffinity, const Labels& selector) {
  if (userAffinity.is_object() && !userAffinity.empty()) return userAffinity;
  return defaultAffinity(selector);
}

}  // namespace kun::rediscluster::placement
