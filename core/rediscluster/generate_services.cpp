// The Services: KUN's three. The redis and sentinel-headless ones are headless (no
// virtual IP; they give the StatefulSets' pods DNS names); the sentinel one is the stable
// address clients use to discover the master.
#include "core/rediscluster/generate.h"
#include "core/rediscluster/generate_common.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"

namespace kun::rediscluster {

namespace {

Object port(std::string_view name, std::int32_t number) {
  return Object{{"name", name}, {"port", number}, {"targetPort", number}, {"protocol", "TCP"}};
}

Object service(const api::RedisCluster& rc, std::string name, Component c, Object spec) {
  spec["selector"] = selectorLabels(rc.name(), c);
  return Object{{"apiVersion", "v1"},
                {"kind", "Service"},
                {"metadata", detail::objectMeta(rc, std::move(name), c)},
                {"spec", std::move(spec)}};
}

}  // namespace

Object redisService(const api::RedisCluster& rc) {
  Object ports = Object::array({port(layout::kRedisPortName, layout::kRedisPort)});
  if (rc.spec.exporter.enabled) ports.push_back(port(layout::kExporterPortName, layout::kExporterPort));
  Object svc = service(rc, names::redis(rc.name()), Component::Redis,
                       Object{{"type", "ClusterIP"}, {"clusterIP", "None"}, {"ports", std::move(ports)}});
  if (rc.spec.exporter.enabled) {
    // Prometheus' conventional scrape annotations (KUN's, with the port it names).
    meta::setAnnotation(svc, "prometheus.io/scrape", "true");
    meta::setAnnotation(svc, "prometheus.io/port", std::to_string(layout::kExporterPort));
    meta::setAnnotation(svc, "prometheus.io/path", "/metrics");
  }
  return svc;
}

Object sentinelService(const api::RedisCluster& rc) {
  return service(rc, names::sentinel(rc.name()), Component::Sentinel,
                 Object{{"type", "ClusterIP"},
                        {"ports", Object::array({port(layout::kSentinelPortName, layout::kSentinelPort)})}});
}

Object sentinelHeadlessService(const api::RedisCluster& rc) {
  return service(rc, names::sentinelHeadless(rc.name()), Component::Sentinel,
                 Object{{"type", "ClusterIP"},
                        {"clusterIP", "None"},
                        {"ports", Object::array({port(layout::kSentinelPortName, layout::kSentinelPort)})}});
}

}  // namespace kun::rediscluster
