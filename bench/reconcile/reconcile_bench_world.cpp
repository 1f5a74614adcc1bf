#include "bench/reconcile/reconcile_bench_world.h"

#include <fmt/format.h>

#include "core/api/redis_cluster_crd.h"
#include "core/api/redis_cluster_types.h"
#include "core/kube/resource.h"
#include "core/operator/operator_core.h"
#include "core/rediscluster/conditions.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/names.h"

namespace kun::bench {

namespace {

Object manifest(const std::string& name, int size) {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", name}, {"namespace", ReconcileBenchWorld::kNs}}},
                {"spec", {{"size", size}, {"sentinel", {{"replicas", 3}}}}}};
}

sim::SimWorldOptions worldOptions() {
  sim::SimWorldOptions o;
  o.seed = 1;
  o.nodes = 3;
  o.zones = 3;
  o.cluster.traceEntries = 0;
  return o;
}

}  // namespace

ReconcileBenchWorld::ReconcileBenchWorld(int size, int others, Duration configRecheck)
    : world_(std::make_unique<sim::SimWorld>(worldOptions())), random_(1), log_(&world_->loop(), LogLevel::Off) {
  if (!world_->store().create(res::customresourcedefinitions, api::redisClusterCrd()).ok()) {
    error_ = "CRD not created";
    return;
  }
  world_->runFor(milliseconds(10));
  makeHealthy(size);
  if (!error_.empty()) return;
  addOthers(others);
  if (!error_.empty()) return;
  startReconciler(configRecheck);
}

ReconcileBenchWorld::~ReconcileBenchWorld() {
  if (caches_) caches_->stopAll();
}

bool ReconcileBenchWorld::healthy() {
  auto o = world_->store().get(res::redisclusters, kNs, kName);
  if (!o.ok() || !o->contains("status")) return false;
  auto s = api::parseRedisClusterStatus((*o)["status"]);
  return s.ok() && s->observedGeneration == meta::generation(*o) &&
         rediscluster::conditionTrue(*s, rediscluster::conditions::kHealthy);
}

// The real operator brings the cluster up; it is then stopped like a process going away.
void ReconcileBenchWorld::makeHealthy(int size) {
  OperatorOptions o;
  o.ns = kNs;
  auto op = std::make_unique<OperatorCore>(
      OperatorSeams{world_->loop(), random_, world_->client(), world_->operatorAdmin(), log_, nullptr}, o);
  op->start();
  if (!world_->store().create(res::redisclusters, manifest(kName, size)).ok()) {
    error_ = "bench cluster not created";
    return;
  }
  // A 101-pod cluster starts its pods one by one (OrderedReady): allow for it.
  if (!world_->runUntil([&] { return healthy(); }, seconds(60 + 10 * size)))
    error_ = fmt::format("size {} cluster not healthy", size);
  op->stop();
  op.reset();
  // Whatever is created from here on stays as written: no pod of another cluster is
  // scheduled or started, no StatefulSet makes pods.
  world_->cluster().statefulSets().stop();
  world_->cluster().scheduler().stop();
}

void ReconcileBenchWorld::addOthers(int others) {
  for (int i = 0; i < others && error_.empty(); ++i) addOther(i);
}

// Another cluster as the operator would have left it: the RedisCluster, its objects and
// the pods of its two StatefulSets (from their templates).
void ReconcileBenchWorld::addOther(int i) {
  auto made = world_->store().create(res::redisclusters, manifest(fmt::format("other-{}", i), 3));
  if (!made.ok()) {
    error_ = "other cluster not created: " + made.error().toString();
    return;
  }
  auto rc = api::parseRedisCluster(*made);
  if (!rc.ok()) {
    error_ = "other cluster does not parse";
    return;
  }
  for (const auto& d : rediscluster::desiredObjects(*rc)) {
    auto obj = world_->store().create(d.resource, d.object);
    if (!obj.ok()) {
      error_ = "owned object not created: " + obj.error().toString();
      return;
    }
    if (d.resource != res::statefulsets) continue;
    const Object& tpl = (*obj)["spec"]["template"];
    const int replicas = (*obj)["spec"].value("replicas", 1);
    for (int p = 0; p < replicas; ++p) {
      Object pod{{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", tpl.value("metadata", Object::object())},
                 {"spec", tpl["spec"]}};
      meta::setName(pod, fmt::format("{}-{}", meta::name(*obj), p));
      meta::setNamespace(pod, kNs);
      meta::setLabel(pod, "controller-revision-hash", "bench");
      meta::addOwnerReference(pod, meta::ownerRefTo(*obj));
      if (auto created = world_->store().create(res::pods, pod); !created.ok()) {
        error_ = "pod not created: " + created.error().toString();
        return;
      }
    }
  }
}

void ReconcileBenchWorld::startReconciler(Duration configRecheck) {
  kube_ = std::make_unique<CountingClient>(world_->client());
  redis_ = std::make_unique<CountingRedisAdmin>(world_->operatorAdmin());
  events_ = std::make_unique<EventRecorder>(*kube_, world_->loop(), "redis-operator");
  rediscluster::ReconcilerOptions opts;
  opts.scope = rediscluster::Scope{kNs};
  opts.heal.configRecheck = configRecheck;
  caches_ = std::make_unique<rediscluster::ClusterInformers>(*kube_, world_->loop(), opts.scope,
                                                             rediscluster::GenerateOptions{}, log_);
  reconciler_ = std::make_unique<rediscluster::Reconciler>(
      rediscluster::ReconcilerSeams{*kube_, *redis_, world_->loop(), *events_, log_, nullptr, {}}, *caches_, opts);
  caches_->startAll();
  if (!world_->runUntil([&] { return caches_->synced(); }, seconds(10))) {
    error_ = "caches not synced";
    return;
  }
  // The first pass renders the desired objects; the timed ones find them remembered.
  const auto first = reconciler_->reconcile(key());
  if (!healthy() || reconciler_->stats().statusWrites || reconciler_->stats().objectWrites)
    error_ = fmt::format("the first reconcile of the fresh reconciler was not a quiet healthy one ({} status, {} "
                         "object writes)",
                         reconciler_->stats().statusWrites, reconciler_->stats().objectWrites);
  (void)first;
  kube_->reset();
  redis_->reset();
}

}  // namespace kun::bench
