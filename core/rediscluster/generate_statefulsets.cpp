// The StatefulSets.
//
// redis-cluster-<name>:
// - updateStrategy OnDelete: a template change (image, resources, command...) restarts no
//   pod by itself. The operator replaces pods one at a time, replicas first, each only
//   once the previous one is back in sync, and the master last, after Sentinel has moved
//   the master role away. RollingUpdate (KUN's) restarts pods from the highest ordinal down
//   whatever their role, the master included, and proceeds on readiness alone.
// - podManagementPolicy Parallel: all pods are created (and re-created, e.g. after the
//   StatefulSet was deleted) at once. Every pod boots as a replica of 127.0.0.1 and is not
//   Ready until it follows a master (probe_scripts.h), so OrderedReady would stall on pod 0
//   or push the operator into promoting pod 0 before the others, which may hold newer data
//   on their volumes, exist.
// - the password is in no field: the pods mount the auth Secret, redis.conf includes it,
//   REDISCLI_AUTH and the exporter's REDIS_PASSWORD come from it by secretKeyRef.
//
// redis-sentinel-<name>: RollingUpdate (one sentinel at a time, the next once the
// replacement is Ready, i.e. configured by the operator), Parallel creation.
#include "core/rediscluster/generate.h"
#include "core/rediscluster/generate_common.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/placement.h"

#include "core/api/redis_cluster_defaults.h"

namespace kun::rediscluster {

namespace {

// KUN's exporter and init-container resources.
constexpr std::string_view kExporterRequestCpu = "50m", kExporterRequestMemory = "50Mi",
                           kExporterLimitCpu = "100m", kExporterLimitMemory = "200Mi";
constexpr std::string_view kInitCpu = "10m", kInitMemory = "32Mi";
constexpr std::int32_t kShutdownScriptMode = 0744;

Object execProbe(Object command, std::int32_t initialDelay, std::int32_t period,
                 std::int32_t failureThreshold) {
  return Object{{"exec", {{"command", std::move(command)}}},
                {"initialDelaySeconds", initialDelay},
                {"periodSeconds", period},
                {"timeoutSeconds", 5},
                {"successThreshold", 1},
                {"failureThreshold", failureThreshold}};
}

Object mount(std::string_view volume, std::string_view path, bool readOnly = false) {
  Object m{{"name", volume}, {"mountPath", path}};
  if (readOnly) m["readOnly"] = true;
  return m;
}

Object configMapVolume(std::string_view volume, const std::string& configMap) {
  return Object{{"name", volume}, {"configMap", {{"name", configMap}}}};
}

Object secretKeyEnv(std::string_view env, const std::string& secret, std::string_view key) {
  // optional: the key exists only while the cluster has a password.
  return Object{{"name", env},
                {"valueFrom", {{"secretKeyRef", {{"name", secret}, {"key", key}, {"optional", true}}}}}};
}

Object fieldEnv(std::string_view env, std::string_view fieldPath) {
  return Object{{"name", env}, {"valueFrom", {{"fieldRef", {{"fieldPath", fieldPath}}}}}};
}

Object commandOr(const std::vector<std::string>& user, Object fallback) {
  return user.empty() ? std::move(fallback) : Object(user);
}

std::string dataVolumeName(const api::RedisClusterSpec& spec) {
  const Object& pvc = spec.storage.persistentVolumeClaim;
  if (pvc.is_object()) {
    if (auto md = pvc.find("metadata"); md != pvc.end() && md->is_object())
      if (auto n = md->find("name"); n != md->end() && n->is_string() && !n->get<std::string>().empty())
        return n->get<std::string>();
  }
  return std::string(api::defaults::kDataVolumeName);
}

Object redisContainer(const api::RedisCluster& rc) {
  const auto& spec = rc.spec;
  const std::string cmPath = std::string(layout::kRedisConfigPath);
  Object c{{"name", layout::kRedisContainer},
           {"image", spec.image},
           {"imagePullPolicy", detail::pullPolicy(spec.imagePullPolicy)},
           {"command", commandOr(spec.command, Object::array({"redis-server", cmPath + "/" + std::string(layout::kRedisConfKey)}))},
           {"ports", Object::array({{{"name", layout::kRedisPortName},
                                     {"containerPort", layout::kRedisPort},
                                     {"protocol", "TCP"}}})},
           {"env", Object::array({secretKeyEnv(layout::kRedisCliAuthEnv, names::auth(rc.name()), layout::kPasswordKey),
                                  fieldEnv(layout::kPodIpEnv, "status.podIP")})},
           {"volumeMounts", Object::array({mount(layout::kRedisConfigVolume, layout::kRedisConfigPath, true),
                                           mount(layout::kAuthVolume, layout::kAuthPath, true),
                                           mount(layout::kShutdownVolume, layout::kShutdownPath),
                                           mount(dataVolumeName(spec), layout::kDataPath)})},
           {"readinessProbe", execProbe(Object::array({"sh", cmPath + "/" + std::string(layout::kRedisReadinessKey)}), 5, 5, 3)},
           {"livenessProbe", execProbe(Object::array({"sh", cmPath + "/" + std::string(layout::kRedisLivenessKey)}), 30, 10, 3)},
           {"lifecycle",
            {{"preStop",
              {{"exec", {{"command", Object::array({"/bin/sh", std::string(layout::kShutdownPath) + "/" +
                                                                   std::string(layout::kShutdownKey)})}}}}}}}};
  detail::setIfSet(c, "resources", spec.resources);
  return c;
}

Object exporterContainer(const api::RedisCluster& rc) {
  const auto& ex = rc.spec.exporter;
  return Object{{"name", layout::kExporterContainer},
                {"image", ex.image},
                {"imagePullPolicy", detail::pullPolicy(ex.imagePullPolicy)},
                {"env", Object::array({fieldEnv("REDIS_ALIAS", "metadata.name"),
                                       secretKeyEnv(layout::kExporterPasswordEnv, names::auth(rc.name()),
                                                    layout::kPasswordKey)})},
                {"ports", Object::array({{{"name", layout::kExporterPortName},
                                          {"containerPort", layout::kExporterPort},
                                          {"protocol", "TCP"}}})},
                {"resources", detail::resources(kExporterRequestCpu, kExporterRequestMemory,
                                                kExporterLimitCpu, kExporterLimitMemory)}};
}

Object redisVolumes(const api::RedisCluster& rc) {
  const auto& spec = rc.spec;
  Object shutdown = configMapVolume(layout::kShutdownVolume, names::shutdownConfigMap(rc));
  shutdown["configMap"]["defaultMode"] = kShutdownScriptMode;
  Object vols = Object::array({configMapVolume(layout::kRedisConfigVolume, names::redis(rc.name())),
                               {{"name", layout::kAuthVolume}, {"secret", {{"secretName", names::auth(rc.name())}}}},
                               std::move(shutdown)});
  // With a claim template the data volume comes from it; else an emptyDir (the user's
  // settings, or a plain one).
  if (!spec.storage.persistentVolumeClaim.is_object()) {
    const Object& ed = spec.storage.emptyDir;
    vols.push_back({{"name", dataVolumeName(spec)}, {"emptyDir", ed.is_object() ? ed : Object::object()}});
  }
  return vols;
}

// The pass-through pod settings both components have.
void podSettings(Object& podSpec, const Object& affinity, const Labels& selector, const Object& tolerations,
                 const std::map<std::string, std::string>& nodeSelector, const Object& securityContext,
                 const Object& imagePullSecrets) {
  podSpec["affinity"] = placement::affinityFor(affinity, selector);
  detail::setIfSet(podSpec, "tolerations", tolerations);
  if (!nodeSelector.empty()) podSpec["nodeSelector"] = nodeSelector;
  detail::setIfSet(podSpec, "securityContext", securityContext);
  detail::setIfSet(podSpec, "imagePullSecrets", imagePullSecrets);
}

Object podTemplate(const api::RedisCluster& rc, Component c, const std::map<std::string, std::string>& annotations,
                   Object podSpec) {
  Object md{{"labels", podLabels(rc, c)}};
  if (!annotations.empty()) md["annotations"] = annotations;
  return Object{{"metadata", std::move(md)}, {"spec", std::move(podSpec)}};
}

}  // namespace

Object redisStatefulSet(const api::RedisCluster& rc, const GenerateOptions& opts) {
  const auto& spec = rc.spec;
  const Labels selector = selectorLabels(rc.name(), Component::Redis);

  Object containers = Object::array({redisContainer(rc)});
  if (spec.exporter.enabled) containers.push_back(exporterContainer(rc));
  Object podSpec{{"containers", std::move(containers)}, {"volumes", redisVolumes(rc)}};
  podSettings(podSpec, spec.affinity, selector, spec.tolerations, spec.nodeSelector, spec.securityContext,
              spec.imagePullSecrets);

  Object stsSpec{{"serviceName", names::redis(rc.name())},
                 {"replicas", opts.redisReplicas.value_or(spec.size)},
                 {"podManagementPolicy", "Parallel"},
                 {"updateStrategy", {{"type", "OnDelete"}}},
                 {"selector", detail::labelSelector(rc, Component::Redis)},
                 {"template", podTemplate(rc, Component::Redis, spec.annotations, std::move(podSpec))}};

  if (spec.storage.persistentVolumeClaim.is_object()) {
    Object claim = spec.storage.persistentVolumeClaim;
    // As KUN: the claims go with the cluster unless the user keeps them.
    if (!spec.storage.keepAfterDeletion)
      claim["metadata"]["ownerReferences"] = Object::array({detail::controllerReference(rc)});
    stsSpec["volumeClaimTemplates"] = Object::array({std::move(claim)});
  }

  return Object{{"apiVersion", "apps/v1"},
                {"kind", "StatefulSet"},
                {"metadata", detail::objectMeta(rc, names::redis(rc.name()), Component::Redis)},
                {"spec", std::move(stsSpec)}};
}

Object sentinelStatefulSet(const api::RedisCluster& rc) {
  const auto& s = rc.spec.sentinel;
  const Labels selector = selectorLabels(rc.name(), Component::Sentinel);
  const std::string conf = std::string(layout::kSentinelConfKey);
  const std::string policy = detail::pullPolicy(s.imagePullPolicy);

  Object init{{"name", layout::kSentinelInitContainer},
              {"image", s.image},
              {"imagePullPolicy", policy},
              {"command", Object::array({"cp", std::string(layout::kSentinelConfigPath) + "/" + conf,
                                         std::string(layout::kSentinelWritableInitPath) + "/" + conf})},
              {"volumeMounts", Object::array({mount(layout::kSentinelConfigVolume, layout::kSentinelConfigPath, true),
                                              mount(layout::kSentinelWritableVolume, layout::kSentinelWritableInitPath)})},
              {"resources", detail::resources(kInitCpu, kInitMemory, kInitCpu, kInitMemory)}};

  Object sentinel{
      {"name", layout::kSentinelContainer},
      {"image", s.image},
      {"imagePullPolicy", policy},
      {"command", commandOr(s.command, Object::array({"redis-server",
                                                      std::string(layout::kSentinelWritablePath) + "/" + conf,
                                                      "--sentinel"}))},
      {"ports", Object::array({{{"name", layout::kSentinelPortName},
                                {"containerPort", layout::kSentinelPort},
                                {"protocol", "TCP"}}})},
      {"volumeMounts", Object::array({mount(layout::kSentinelProbeVolume, layout::kSentinelProbePath, true),
                                      mount(layout::kSentinelWritableVolume, layout::kSentinelWritablePath)})},
      {"readinessProbe",
       execProbe(Object::array({"sh", std::string(layout::kSentinelProbePath) + "/" +
                                          std::string(layout::kSentinelReadinessKey)}),
                 5, 10, 3)},
      // Any reply proves the process is alive (redis-cli exits non-zero only when it cannot
      // connect); sentinels have no password.
      {"livenessProbe",
       execProbe(Object::array({"sh", "-c", "redis-cli -h 127.0.0.1 -p " + std::to_string(layout::kSentinelPort) +
                                                " ping"}),
                 30, 10, 3)}};
  detail::setIfSet(sentinel, "resources", s.resources);

  Object podSpec{{"initContainers", Object::array({std::move(init)})},
                 {"containers", Object::array({std::move(sentinel)})},
                 {"volumes", Object::array({configMapVolume(layout::kSentinelConfigVolume, names::sentinel(rc.name())),
                                            configMapVolume(layout::kSentinelProbeVolume,
                                                            names::sentinelReadiness(rc.name())),
                                            {{"name", layout::kSentinelWritableVolume}, {"emptyDir", Object::object()}}})}};
  podSettings(podSpec, s.affinity, selector, s.tolerations, s.nodeSelector, s.securityContext, s.imagePullSecrets);

  Object stsSpec{{"serviceName", names::sentinelHeadless(rc.name())},
                 {"replicas", s.replicas},
                 {"podManagementPolicy", "Parallel"},
                 {"updateStrategy", {{"type", "RollingUpdate"}}},
                 {"selector", detail::labelSelector(rc, Component::Sentinel)},
                 {"template", podTemplate(rc, Component::Sentinel, s.annotations, std::move(podSpec))}};

  return Object{{"apiVersion", "apps/v1"},
                {"kind", "StatefulSet"},
                {"metadata", detail::objectMeta(rc, names::sentinel(rc.name()), Component::Sentinel)},
                {"spec", std::move(stsSpec)}};
}

}  // namespace kun::rediscluster
