#include "core/rediscluster/generate_common.h"

namespace kun::rediscluster::detail {

namespace {
std::string uidOf(const api::RedisCluster& rc) {
  auto it = rc.metadata.find("uid");
  return it != rc.metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}
}  // namespace

Object controllerReference(const api::RedisCluster& rc) {
  return Object{{"apiVersion", rc.apiVersion.empty() ? std::string(api::kApiVersion) : rc.apiVersion},
                {"kind", rc.kind.empty() ? std::string(api::kKind) : rc.kind},
                {"name", rc.name()},
                {"uid", uidOf(rc)},
                {"controller", true},
                {"blockOwnerDeletion", true}};
}

Object objectMeta(const api::RedisCluster& rc, std::string name, Component c) {
  return Object{{"name", std::move(name)},
                {"namespace", rc.namespaceOf()},
                {"labels", objectLabels(rc, c)},
                {"ownerReferences", Object::array({controllerReference(rc)})}};
}

Object labelSelector(const api::RedisCluster& rc, Component c) {
  return Object{{"matchLabels", selectorLabels(rc.name(), c)}};
}

void setIfSet(Object& o, const char* key, const Object& v) {
  if (v.is_null()) return;
  if ((v.is_object() || v.is_array()) && v.empty()) return;
  o[key] = v;
}

std::string pullPolicy(std::string_view p) { return p.empty() ? "Always" : std::string(p); }

Object resources(std::string_view reqCpu, std::string_view reqMem, std::string_view limCpu,
                 std::string_view limMem) {
  return Object{{"requests", {{"cpu", reqCpu}, {"memory", reqMem}}},
                {"limits", {{"cpu", limCpu}, {"memory", limMem}}}};
}

}  // namespace kun::rediscluster::detail
