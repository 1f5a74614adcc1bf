// The ConfigMaps pods read their configuration and scripts from. Their content changes
// without restarting pods: kubelet refreshes ConfigMap volumes, scripts are read at each
// run, and the operator applies redis.conf changes with CONFIG SET.
#include "core/rediscluster/config_files.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/generate_common.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/probe_scripts.h"

namespace kun::rediscluster {

namespace {
Object configMap(const api::RedisCluster& rc, std::string name, Component c, Object data) {
  return Object{{"apiVersion", "v1"},
                {"kind", "ConfigMap"},
                {"metadata", detail::objectMeta(rc, std::move(name), c)},
                {"data", std::move(data)}};
}
}  // namespace

Object redisConfigMap(const api::RedisCluster& rc) {
  return configMap(rc, names::redis(rc.name()), Component::Redis,
                   Object{{std::string(layout::kRedisConfKey), renderRedisConf(rc.spec)},
                          {std::string(layout::kRedisReadinessKey), redisReadinessScript()},
                          {std::string(layout::kRedisLivenessKey), redisLivenessScript()}});
}

Object sentinelConfigMap(const api::RedisCluster& rc) {
  return configMap(rc, names::sentinel(rc.name()), Component::Sentinel,
                   Object{{std::string(layout::kSentinelConfKey),
                           renderSentinelConf(rc.spec.sentinel.replicas)}});
}

Object sentinelReadinessConfigMap(const api::RedisCluster& rc) {
  // KUN labels this one component=redis; it belongs to the sentinels.
  return configMap(rc, names::sentinelReadiness(rc.name()), Component::Sentinel,
                   Object{{std::string(layout::kSentinelReadinessKey), sentinelReadinessScript()}});
}

Object shutdownConfigMap(const api::RedisCluster& rc) {
  return configMap(rc, names::shutdown(rc.name()), Component::Redis,
                   Object{{std::string(layout::kShutdownKey),
                           shutdownScript(rc.name(), !rc.spec.disablePersistence)}});
}

}  // namespace kun::rediscluster
