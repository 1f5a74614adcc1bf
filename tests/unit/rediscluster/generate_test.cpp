#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/rediscluster/base64.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/layout.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

const Object& find(const std::vector<DesiredObject>& objs, std::string_view kind, std::string_view name) {
  for (const auto& d : objs)
    if (d.object["kind"] == kind && meta::name(d.object) == name) return d.object;
  static const Object none;
  ADD_FAILURE() << "no " << kind << " " << name;
  return none;
}

const Object& container(const Object& sts, std::string_view name) {
  for (const auto& c : sts["spec"]["template"]["spec"]["containers"])
    if (c["name"] == name) return c;
  static const Object none;
  return none;
}

bool hasVolume(const Object& sts, std::string_view name) {
  for (const auto& v : sts["spec"]["template"]["spec"]["volumes"])
    if (v["name"] == name) return true;
  return false;
}

TEST(DesiredObjects, KunsObjectsInEnsureOrderAllOwnedAndLabelled) {
  const auto objs = desiredObjects(test::cluster());
  std::vector<std::string> got;
  for (const auto& d : objs) got.push_back(d.resource.kind + "/" + d.name());
  EXPECT_EQ(got, (std::vector<std::string>{
                     "Secret/redis-auth-test", "ConfigMap/redis-cluster-test", "ConfigMap/redis-sentinel-test",
                     "ConfigMap/redis-sentinel-readiness-test", "ConfigMap/redisr-s-test",
                     "Service/redis-cluster-test", "Service/redis-sentinel-test",
                     "Service/redis-sentinel-headless-test", "PodDisruptionBudget/redis-cluster-test",
                     "PodDisruptionBudget/redis-sentinel-test", "StatefulSet/redis-cluster-test",
                     "StatefulSet/redis-sentinel-test"}));
  for (const auto& d : objs) {
    SCOPED_TRACE(d.name());
    EXPECT_EQ(d.object["kind"], d.resource.kind);
    EXPECT_EQ(d.object["apiVersion"], d.resource.apiVersion());
    EXPECT_EQ(meta::namespaceOf(d.object), "default");
    auto owner = meta::controllerOf(d.object);
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(owner->uid, "uid-test");
    EXPECT_EQ(owner->kind, "RedisCluster");
    EXPECT_EQ(owner->apiVersion, "redis.kun/v1beta1");
    EXPECT_TRUE(owner->blockOwnerDeletion);
    EXPECT_EQ(meta::label(d.object, "app.kubernetes.io/managed-by"), "redis-operator");
    EXPECT_EQ(meta::label(d.object, "app.kubernetes.io/part-of"), "redis-cluster");
    EXPECT_EQ(meta::label(d.object, "app.kubernetes.io/name"), "test");
    EXPECT_EQ(meta::label(d.object, "redis.kun/v1beta1"), "default_test");
    const bool sentinel = d.name().find("sentinel") != std::string::npos;
    EXPECT_EQ(meta::label(d.object, "app.kubernetes.io/component"), sentinel ? "sentinel" : "redis");
    EXPECT_EQ(meta::annotation(d.object, "redis.kun/desired-hash"), d.hash);
  }
}

TEST(DesiredObjects, SelectorsUseOnlyTheSelectorLabels) {
  const auto objs = desiredObjects(test::cluster());
  const Object redisSel{{"app.kubernetes.io/component", "redis"},
                        {"app.kubernetes.io/name", "test"},
                        {"app.kubernetes.io/part-of", "redis-cluster"}};
  EXPECT_EQ(find(objs, "Service", "redis-cluster-test")["spec"]["selector"], redisSel);
  EXPECT_EQ(find(objs, "StatefulSet", "redis-cluster-test")["spec"]["selector"]["matchLabels"], redisSel);
  EXPECT_EQ(find(objs, "PodDisruptionBudget", "redis-cluster-test")["spec"]["selector"]["matchLabels"], redisSel);
  const Object& tmpl = find(objs, "StatefulSet", "redis-cluster-test")["spec"]["template"];
  for (const auto& [k, v] : redisSel.items()) EXPECT_EQ(tmpl["metadata"]["labels"][k], v);
  EXPECT_EQ(find(objs, "Service", "redis-sentinel-test")["spec"]["selector"]["app.kubernetes.io/component"], "sentinel");
}

TEST(DesiredObjects, ServicesAndPorts) {
  const auto objs = desiredObjects(test::cluster());
  const Object& redis = find(objs, "Service", "redis-cluster-test");
  EXPECT_EQ(redis["spec"]["clusterIP"], "None");
  EXPECT_EQ(redis["spec"]["ports"][0]["port"], 6379);
  EXPECT_EQ(redis["spec"]["ports"][0]["name"], "redis");
  const Object& sentinel = find(objs, "Service", "redis-sentinel-test");
  EXPECT_FALSE(sentinel["spec"].contains("clusterIP"));
  EXPECT_EQ(sentinel["spec"]["ports"][0]["port"], 26379);
  EXPECT_EQ(find(objs, "Service", "redis-sentinel-headless-test")["spec"]["clusterIP"], "None");
  EXPECT_EQ(find(objs, "StatefulSet", "redis-sentinel-test")["spec"]["serviceName"], "redis-sentinel-headless-test");
  EXPECT_EQ(find(objs, "StatefulSet", "redis-cluster-test")["spec"]["serviceName"], "redis-cluster-test");
}

// Every string in the object, recursively, with base64-decoded copies not needed: the
// password is searched for both plain and base64-encoded.
bool mentions(const Object& o, const std::string& password) {
  const std::string dump = o.dump();
  return dump.find(password) != std::string::npos || dump.find(base64Encode(password)) != std::string::npos;
}

TEST(DesiredObjects, PasswordIsOnlyInTheSecret) {
  const std::string pw = "Tr0ub4dor&3-horse";
  const auto objs = desiredObjects(test::cluster({{"password", pw}, {"exporter", {{"enabled", true}}}}));
  for (const auto& d : objs) {
    if (d.resource.kind == "Secret") continue;
    EXPECT_FALSE(mentions(d.object, pw)) << d.name();
  }
  const Object& secret = find(objs, "Secret", "redis-auth-test");
  EXPECT_EQ(secret["data"]["password"], base64Encode(pw));
  EXPECT_EQ(secret["data"]["auth.conf"], base64Encode("masterauth " + pw + "\nrequirepass " + pw + "\n"));
  // Probes and the exporter get it from the Secret by reference.
  const Object& sts = find(objs, "StatefulSet", "redis-cluster-test");
  const Object& redis = container(sts, "redis");
  EXPECT_EQ(redis["env"][0]["name"], "REDISCLI_AUTH");
  EXPECT_EQ(redis["env"][0]["valueFrom"]["secretKeyRef"]["name"], "redis-auth-test");
  EXPECT_EQ(redis["readinessProbe"]["exec"]["command"], Object::array({"sh", "/redis/readiness.sh"}));
  const Object& exporter = container(sts, "redis-exporter");
  EXPECT_EQ(exporter["env"][1]["name"], "REDIS_PASSWORD");
  EXPECT_EQ(exporter["env"][1]["valueFrom"]["secretKeyRef"]["key"], "password");
}

RC_GTEST_PROP(DesiredObjects, NoPasswordLeaksOutOfTheSecret, ()) {
  // Long enough that it cannot occur in the generated text by chance.
  const std::string pw = *rc::gen::container<std::string>(
      *rc::gen::inRange<std::size_t>(16, 40), rc::gen::elementOf(std::string("abcdefghijklmnopqrstuvwxyzABCDEFGHIJKLMNOPQRSTUVWXYZ0123456789!#%&*+-./:;<=>?@^_~ \"'\\")));
  const auto objs = desiredObjects(test::cluster({{"password", pw}}));
  for (const auto& d : objs)
    if (d.resource.kind != "Secret") RC_ASSERT(!mentions(d.object, pw));
}

TEST(DesiredObjects, WithoutPasswordTheSecretHasNoPasswordKeyAndPodsAreTheSame) {
  const auto without = desiredObjects(test::cluster());
  const auto with = desiredObjects(test::cluster({{"password", "abcdefgh12345"}}));
  EXPECT_FALSE(find(without, "Secret", "redis-auth-test")["data"].contains("password"));
  // Setting a password changes the Secret only: no pod template, no config file changes.
  ASSERT_EQ(with.size(), without.size());
  for (std::size_t i = 0; i < with.size(); ++i) {
    if (with[i].resource.kind == "Secret") {
      EXPECT_NE(with[i].hash, without[i].hash);
    } else {
      EXPECT_EQ(with[i].hash, without[i].hash) << with[i].name();
    }
  }
}

TEST(DesiredObjects, ConfigKeysAreInRedisConf) {
  const auto objs = desiredObjects(test::cluster({{"config", {{"maxmemory", "1gb"}, {"maxmemory-policy", "allkeys-lru"}}}}));
  const std::string conf = find(objs, "ConfigMap", "redis-cluster-test")["data"]["redis.conf"];
  EXPECT_NE(conf.find("\nmaxmemory 1gb\n"), std::string::npos);
  EXPECT_NE(conf.find("\nmaxmemory-policy allkeys-lru\n"), std::string::npos);
  EXPECT_NE(conf.find("\nreplicaof 127.0.0.1 6379\n"), std::string::npos);
  const Object& redis = container(find(objs, "StatefulSet", "redis-cluster-test"), "redis");
  EXPECT_EQ(redis["command"], Object::array({"redis-server", "/redis/redis.conf"}));
}

TEST(DesiredObjects, DefaultPlacementSpreadsOverNodesAndZones) {
  const auto objs = desiredObjects(test::cluster());
  for (const char* name : {"redis-cluster-test", "redis-sentinel-test"}) {
    SCOPED_TRACE(name);
    const Object& sts = find(objs, "StatefulSet", name);
    const Object& terms =
        sts["spec"]["template"]["spec"]["affinity"]["podAntiAffinity"]["preferredDuringSchedulingIgnoredDuringExecution"];
    ASSERT_EQ(terms.size(), 2u);
    EXPECT_EQ(terms[0]["podAffinityTerm"]["topologyKey"], "kubernetes.io/hostname");
    EXPECT_EQ(terms[1]["podAffinityTerm"]["topologyKey"], "topology.kubernetes.io/zone");
    EXPECT_EQ(terms[0]["weight"], 100);
    EXPECT_EQ(terms[1]["weight"], 100);
    for (const auto& t : terms)
      EXPECT_EQ(t["podAffinityTerm"]["labelSelector"]["matchLabels"], sts["spec"]["selector"]["matchLabels"]);
    EXPECT_FALSE(sts["spec"]["template"]["spec"]["affinity"].contains("podAffinity"));
  }
}

TEST(DesiredObjects, UserAffinityReplacesTheDefault) {
  const Object mine{{"nodeAffinity",
                     {{"requiredDuringSchedulingIgnoredDuringExecution",
                       {{"nodeSelectorTerms", Object::array({{{"matchExpressions",
                                                               Object::array({{{"key", "disk"}, {"operator", "In"},
                                                                               {"values", Object::array({"ssd"})}}})}}})}}}}}};
  const auto objs = desiredObjects(test::cluster({{"affinity", mine}}));
  EXPECT_EQ(find(objs, "StatefulSet", "redis-cluster-test")["spec"]["template"]["spec"]["affinity"], mine);
  // The sentinels keep their default until spec.sentinel.affinity is given.
  EXPECT_TRUE(find(objs, "StatefulSet", "redis-sentinel-test")["spec"]["template"]["spec"]["affinity"].contains(
      "podAntiAffinity"));
  const auto objs2 = desiredObjects(test::cluster({{"sentinel", {{"affinity", mine}}}}));
  EXPECT_EQ(find(objs2, "StatefulSet", "redis-sentinel-test")["spec"]["template"]["spec"]["affinity"], mine);
}

Object claim(std::string name = "") {
  Object c{{"spec", {{"accessModes", Object::array({"ReadWriteOnce"})}, {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}};
  if (!name.empty()) c["metadata"] = {{"name", name}};
  return c;
}

TEST(DesiredObjects, ClaimTemplateOwnedByTheClusterUnlessKept) {
  const auto objs = desiredObjects(test::cluster({{"storage", {{"persistentVolumeClaim", claim()}}}}));
  const Object& sts = find(objs, "StatefulSet", "redis-cluster-test");
  const Object& vct = sts["spec"]["volumeClaimTemplates"];
  ASSERT_EQ(vct.size(), 1u);
  EXPECT_EQ(vct[0]["metadata"]["name"], "redis-data");
  EXPECT_EQ(vct[0]["metadata"]["ownerReferences"][0]["uid"], "uid-test");
  EXPECT_EQ(vct[0]["metadata"]["ownerReferences"][0]["controller"], true);
  EXPECT_EQ(vct[0]["spec"]["resources"]["requests"]["storage"], "1Gi");
  EXPECT_FALSE(hasVolume(sts, "redis-data"));  // the claim is the data volume
  EXPECT_EQ(container(sts, "redis")["volumeMounts"][3], (Object{{"name", "redis-data"}, {"mountPath", "/data"}}));

  const auto kept = desiredObjects(
      test::cluster({{"storage", {{"keepAfterDeletion", true}, {"persistentVolumeClaim", claim("mydata")}}}}));
  const Object& sts2 = find(kept, "StatefulSet", "redis-cluster-test");
  EXPECT_FALSE(sts2["spec"]["volumeClaimTemplates"][0]["metadata"].contains("ownerReferences"));
  EXPECT_EQ(container(sts2, "redis")["volumeMounts"][3]["name"], "mydata");
}

TEST(DesiredObjects, EmptyDirByDefaultOrTheUsers) {
  const auto objs = desiredObjects(test::cluster());
  const Object& sts = find(objs, "StatefulSet", "redis-cluster-test");
  EXPECT_FALSE(sts["spec"].contains("volumeClaimTemplates"));
  bool found = false;
  for (const auto& v : sts["spec"]["template"]["spec"]["volumes"])
    if (v["name"] == "redis-data") {
      found = true;
      EXPECT_EQ(v["emptyDir"], Object::object());
    }
  EXPECT_TRUE(found);
  const auto memObjs = desiredObjects(test::cluster({{"storage", {{"emptyDir", {{"medium", "Memory"}}}}}}));
  const Object& mem = find(memObjs, "StatefulSet", "redis-cluster-test");
  EXPECT_EQ(mem["spec"]["template"]["spec"]["volumes"][3]["emptyDir"]["medium"], "Memory");
}

TEST(DesiredObjects, DisablePersistence) {
  const auto objs = desiredObjects(test::cluster({{"disablePersistence", true}}));
  const std::string conf = find(objs, "ConfigMap", "redis-cluster-test")["data"]["redis.conf"];
  EXPECT_NE(conf.find("\nsave \"\"\n"), std::string::npos);
  EXPECT_NE(conf.find("\nappendonly no\n"), std::string::npos);
  EXPECT_EQ(conf.find("appendonly yes"), std::string::npos);
  const std::string shutdown = find(objs, "ConfigMap", "redisr-s-test")["data"]["shutdown.sh"];
  EXPECT_EQ(shutdown.find("SAVE"), std::string::npos);
  const auto persistentObjs = desiredObjects(test::cluster());
  const std::string persistent = find(persistentObjs, "ConfigMap", "redisr-s-test")["data"]["shutdown.sh"];
  EXPECT_NE(persistent.find("SAVE"), std::string::npos);
}

TEST(DesiredObjects, ExporterOnlyWhenEnabled) {
  const auto off = desiredObjects(test::cluster());
  EXPECT_TRUE(container(find(off, "StatefulSet", "redis-cluster-test"), "redis-exporter").is_null());
  EXPECT_EQ(find(off, "Service", "redis-cluster-test")["spec"]["ports"].size(), 1u);
  const auto on = desiredObjects(test::cluster({{"exporter", {{"enabled", true}, {"image", "exp:1"}}}}));
  const Object& ex = container(find(on, "StatefulSet", "redis-cluster-test"), "redis-exporter");
  EXPECT_EQ(ex["image"], "exp:1");
  EXPECT_EQ(ex["ports"][0]["containerPort"], 9121);
  EXPECT_EQ(ex["imagePullPolicy"], "Always");
  const Object& svc = find(on, "Service", "redis-cluster-test");
  EXPECT_EQ(svc["spec"]["ports"][1]["port"], 9121);
  EXPECT_EQ(meta::annotation(svc, "prometheus.io/scrape"), "true");
}

TEST(DesiredObjects, PodSettingsPassThrough) {
  const Object tol = Object::array({{{"key", "dedicated"}, {"operator", "Equal"}, {"value", "redis"}, {"effect", "NoSchedule"}}});
  const Object sec{{"runAsUser", 999}, {"fsGroup", 999}};
  const Object res{{"requests", {{"cpu", "1"}, {"memory", "1Gi"}}}};
  const Object pull = Object::array({{{"name", "regcred"}}});
  const auto objs = desiredObjects(test::cluster(
      {{"image", "redis:7.0"}, {"imagePullPolicy", "IfNotPresent"}, {"imagePullSecrets", pull},
       {"command", Object::array({"redis-server", "/etc/my.conf"})}, {"resources", res}, {"toleRations", tol},
       {"nodeSelector", {{"pool", "redis"}}}, {"securityContext", sec}, {"annotations", {{"team/owner", "x"}}},
       {"sentinel",
        {{"image", "redis:7.0-s"}, {"tolerations", tol}, {"nodeSelector", {{"pool", "s"}}},
         {"annotations", {{"s/a", "b"}}}, {"command", Object::array({"redis-sentinel", "/x"})},
         {"imagePullSecrets", pull}, {"securityContext", sec}, {"replicas", 5}}}}));
  const Object& rs = find(objs, "StatefulSet", "redis-cluster-test")["spec"]["template"];
  EXPECT_EQ(rs["spec"]["tolerations"], tol);
  EXPECT_EQ(rs["spec"]["nodeSelector"], (Object{{"pool", "redis"}}));
  EXPECT_EQ(rs["spec"]["securityContext"], sec);
  EXPECT_EQ(rs["spec"]["imagePullSecrets"], pull);
  EXPECT_EQ(rs["metadata"]["annotations"], (Object{{"team/owner", "x"}}));
  const Object& redis = container(find(objs, "StatefulSet", "redis-cluster-test"), "redis");
  EXPECT_EQ(redis["image"], "redis:7.0");
  EXPECT_EQ(redis["imagePullPolicy"], "IfNotPresent");
  EXPECT_EQ(redis["command"], Object::array({"redis-server", "/etc/my.conf"}));
  EXPECT_EQ(redis["resources"], res);
  const Object& ss = find(objs, "StatefulSet", "redis-sentinel-test");
  EXPECT_EQ(ss["spec"]["replicas"], 5);
  EXPECT_EQ(ss["spec"]["template"]["spec"]["tolerations"], tol);
  EXPECT_EQ(ss["spec"]["template"]["spec"]["nodeSelector"], (Object{{"pool", "s"}}));
  EXPECT_EQ(ss["spec"]["template"]["metadata"]["annotations"], (Object{{"s/a", "b"}}));
  EXPECT_EQ(ss["spec"]["template"]["spec"]["imagePullSecrets"], pull);
  EXPECT_EQ(container(ss, "sentinel")["command"], Object::array({"redis-sentinel", "/x"}));
  EXPECT_EQ(container(ss, "sentinel")["image"], "redis:7.0-s");
  EXPECT_EQ(ss["spec"]["template"]["spec"]["initContainers"][0]["image"], "redis:7.0-s");
  // KUN's default sentinel resources come with the defaults.
  EXPECT_EQ(container(ss, "sentinel")["resources"]["limits"]["memory"], "60Mi");
  EXPECT_EQ(find(objs, "PodDisruptionBudget", "redis-sentinel-test")["spec"]["minAvailable"], 3);
}

TEST(DesiredObjects, DefaultsWhenUnset) {
  const auto objs = desiredObjects(test::cluster());
  const Object& sts = find(objs, "StatefulSet", "redis-cluster-test");
  EXPECT_EQ(sts["spec"]["replicas"], 3);
  EXPECT_EQ(container(sts, "redis")["image"], "redis:5.0.4-alpine");
  EXPECT_EQ(container(sts, "redis")["imagePullPolicy"], "Always");
  EXPECT_FALSE(container(sts, "redis").contains("resources"));
  EXPECT_FALSE(sts["spec"]["template"]["spec"].contains("tolerations"));
  EXPECT_FALSE(sts["spec"]["template"]["spec"].contains("nodeSelector"));
  EXPECT_FALSE(sts["spec"]["template"]["metadata"].contains("annotations"));
}

TEST(DesiredObjects, TheOperatorControlsRedisRestarts) {
  const auto objs = desiredObjects(test::cluster({{"size", 5}}));
  const Object& rs = find(objs, "StatefulSet", "redis-cluster-test");
  EXPECT_EQ(rs["spec"]["updateStrategy"]["type"], "OnDelete");
  EXPECT_EQ(rs["spec"]["podManagementPolicy"], "Parallel");
  EXPECT_EQ(rs["spec"]["replicas"], 5);
  EXPECT_EQ(find(objs, "StatefulSet", "redis-sentinel-test")["spec"]["updateStrategy"]["type"], "RollingUpdate");
  EXPECT_EQ(find(objs, "PodDisruptionBudget", "redis-cluster-test")["spec"]["minAvailable"], 4);
  GenerateOptions hold;
  hold.redisReplicas = 4;
  EXPECT_EQ(find(desiredObjects(test::cluster({{"size", 3}}), hold), "StatefulSet", "redis-cluster-test")["spec"]["replicas"], 4);
}

TEST(DesiredObjects, PdbVersionIsAParameter) {
  GenerateOptions old;
  old.pdbVersion = PdbVersion::V1beta1;
  for (const auto& d : desiredObjects(test::cluster(), old))
    if (d.resource.kind == "PodDisruptionBudget") {
      EXPECT_EQ(d.object["apiVersion"], "policy/v1beta1");
      EXPECT_EQ(d.resource.version, "v1beta1");
    }
  for (const auto& d : desiredObjects(test::cluster()))
    if (d.resource.kind == "PodDisruptionBudget") {
      EXPECT_EQ(d.object["apiVersion"], "policy/v1");
    }
  EXPECT_EQ(ownedResources(old)[3], res::poddisruptionbudgetsV1beta1);
}

TEST(DesiredObjects, UsersShutdownConfigMapIsUsedNotGenerated) {
  const auto objs = desiredObjects(test::cluster({{"shutdownConfigMap", "my-shutdown"}}));
  for (const auto& d : objs) EXPECT_NE(d.name(), "redisr-s-test");
  const Object& sts = find(objs, "StatefulSet", "redis-cluster-test");
  bool found = false;
  for (const auto& v : sts["spec"]["template"]["spec"]["volumes"])
    if (v["name"] == "redis-shutdown-config") {
      found = true;
      EXPECT_EQ(v["configMap"]["name"], "my-shutdown");
      EXPECT_EQ(v["configMap"]["defaultMode"], 0744);
    }
  EXPECT_TRUE(found);
}

TEST(DesiredObjects, SentinelConfigHasNoPasswordAndAMajorityQuorum) {
  const auto objs = desiredObjects(test::cluster({{"password", "abcdefgh12345"}, {"sentinel", {{"replicas", 5}}}}));
  const std::string conf = find(objs, "ConfigMap", "redis-sentinel-test")["data"]["sentinel.conf"];
  EXPECT_NE(conf.find("sentinel monitor mymaster 127.0.0.1 6379 3"), std::string::npos);
  EXPECT_EQ(conf.find("auth-pass"), std::string::npos);
}

}  // namespace
}  // namespace kun::rediscluster
