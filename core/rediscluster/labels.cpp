#include "core/rediscluster/labels.h"

#include <fmt/format.h>

#include "core/runtime/random.h"

namespace kun::rediscluster {

std::string_view componentName(Component c) {
  return c == Component::Redis ? labels::kRedisComponent : labels::kSentinelComponent;
}

Labels selectorLabels(std::string_view cluster, Component c) {
  return Labels{
      {std::string(labels::kPartOf), std::string(labels::kPartOfValue)},
      {std::string(labels::kComponent), std::string(componentName(c))},
      {std::string(labels::kName), std::string(cluster)},
  };
}

std::string selectorString(std::string_view cluster, Component c) {
  std::string out;
  for (const auto& [k, v] : selectorLabels(cluster, c)) {
    if (!out.empty()) out += ',';
    out += k + "=" + v;
  }
  return out;
}

std::string instanceLabelValue(std::string_view ns, std::string_view name) {
  constexpr std::size_t kMax = 63;
  std::string v = fmt::format("{}_{}", ns, name);
  if (v.size() <= kMax) return v;
  // 46 + 1 + 16 = 63. Namespaces and names end in an alphanumeric, and so do hex digits.
  const std::string digest = fmt::format("{:016x}", fnv1a64(v));
  return v.substr(0, kMax - 1 - digest.size()) + "-" + digest;
}

Labels podLabels(const api::RedisCluster& rc, Component c) {
  Labels out = selectorLabels(rc.name(), c);
  out[std::string(labels::kManagedBy)] = labels::kManagedByValue;
  out[std::string(labels::kInstance)] = instanceLabelValue(rc.namespaceOf(), rc.name());
  return out;
}

Labels objectLabels(const api::RedisCluster& rc, Component c) {
  Labels out;
  if (rc.metadata.is_object()) {
    if (auto it = rc.metadata.find("labels"); it != rc.metadata.end() && it->is_object())
      for (auto l = it->begin(); l != it->end(); ++l)
        if (l->is_string()) out[l.key()] = l->get<std::string>();
  }
  for (auto& [k, v] : podLabels(rc, c)) out[k] = std::move(v);
  return out;
}

}  // namespace kun::rediscluster
