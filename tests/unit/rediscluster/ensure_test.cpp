// The Ensurer against the fake API server, reading through informers as the reconciler
// does. Writes are counted by the store's resourceVersion, which moves on every commit.
#include <gtest/gtest.h>

#include <memory>

#include "core/api/redis_cluster_crd.h"
#include "core/kube/informer.h"
#include "core/rediscluster/ensure.h"
#include "core/rediscluster/generate.h"
#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"
#include "fakeapi/store/fake_store.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

// A LiveObjects the test fills by hand (a stale or unsynced cache).
class FixedLiveObjects final : public LiveObjects {
 public:
  bool synced(const Resource&) const override { return synced_; }
  ObjectPtr get(const Resource& r, std::string_view ns, std::string_view name) const override {
    auto it = objects_.find(r.groupResource() + "/" + std::string(ns) + "/" + std::string(name));
    return it == objects_.end() ? nullptr : it->second;
  }
  void put(const Resource& r, const Object& o) {
    objects_[r.groupResource() + "/" + meta::namespaceOf(o) + "/" + meta::name(o)] = std::make_shared<const Object>(o);
  }
  bool synced_ = true;

 private:
  std::map<std::string, ObjectPtr> objects_;
};

class EnsureTest : public ::testing::Test {
 protected:
  SimLoop loop;
  Trace trace{1000};
  FakeStore store{loop, &trace};
  Logger log{&loop, LogLevel::Off};
  std::vector<std::unique_ptr<Informer>> informers;
  InformerLiveObjects live;
  Ensurer ensurer{store, live};
  Object stored;  // the RedisCluster as the store holds it

  void SetUp() override {
    ASSERT_TRUE(store.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    settle();
    GenerateOptions v1beta1;
    v1beta1.pdbVersion = PdbVersion::V1beta1;
    std::vector<Resource> rs = ownedResources();
    rs.push_back(pdbResource(PdbVersion::V1beta1));
    for (const auto& r : rs) {
      informers.push_back(std::make_unique<Informer>(store, loop, r, Informer::Options{.ns = "default", .labelSelector = "", .indexLabels = {}}, log));
      live.add(*informers.back());
      informers.back()->start();
    }
    Object m = test::clusterManifest(Object{{"size", 3}});
    m["metadata"].erase("uid");
    auto made = store.create(res::redisclusters, m);
    ASSERT_TRUE(made.ok()) << made.error().toString();
    stored = *made;
    settle();
  }

  void settle() { loop.runFor(seconds(1)); }
  std::uint64_t rv() const { return std::stoull(store.resourceVersion()); }

  // The stored cluster with spec replaced by `spec`.
  api::RedisCluster withSpec(const Object& spec) {
    Object o = stored;
    o["spec"] = spec;
    return test::parseCluster(o);
  }
  api::RedisCluster current() { return test::parseCluster(stored); }

  EnsureOutcome ensure(const api::RedisCluster& rc, const GenerateOptions& opts = {}) {
    EnsureOutcome out = ensurer.ensure(desiredObjects(rc, opts));
    settle();  // let the informers see the writes
    return out;
  }

  Object get(const Resource& r, const std::string& name) {
    auto o = store.get(r, "default", name);
    EXPECT_TRUE(o.ok()) << name;
    return o.ok() ? *o : Object();
  }
};

// A cache that lags the owner's deletion must not have the objects re-created: before
// creating, the owner is asked of the API server.
TEST_F(EnsureTest, NothingIsCreatedForAClusterTheApiServerNoLongerHas) {
  ASSERT_TRUE(store.remove(res::redisclusters, "default", "test", DeleteOptions{}).ok());
  const std::uint64_t before = rv();
  const EnsureOutcome out = ensurer.ensure(desiredObjects(current(), {}));  // the cluster as cached
  EXPECT_FALSE(out.ok());
  EXPECT_EQ(out.status.error().reason, Reason::Conflict);
  EXPECT_NE(out.status.error().message.find("is gone"), std::string::npos) << out.status.error().message;
  EXPECT_EQ(out.report.created, 0);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, FirstPassCreatesEverythingSecondWritesNothing) {
  const std::uint64_t before = rv();
  const EnsureOutcome first = ensure(current());
  ASSERT_TRUE(first.ok()) << first.status.error().toString();
  EXPECT_EQ(first.report.created, 12);
  EXPECT_EQ(first.report.updated, 0);
  EXPECT_EQ(rv() - before, 12u);
  EXPECT_EQ(first.report.actions.front(), "create Secret default/redis-auth-test");
  EXPECT_EQ(first.report.actions.back(), "create StatefulSet default/redis-sentinel-test");
  EXPECT_EQ(get(res::statefulsets, "redis-cluster-test")["spec"]["replicas"], 3);

  const std::uint64_t after = rv();
  const EnsureOutcome second = ensure(current());
  ASSERT_TRUE(second.ok());
  EXPECT_EQ(second.report.writes(), 0);
  EXPECT_EQ(second.report.unchanged, 12);
  EXPECT_EQ(rv(), after);
}

// A clean pass is remembered (the desired list and the cached objects it was compared
// with) and not worked out again; a cached object that changes since, a new desired list,
// a write or a failure are each compared afresh.
TEST_F(EnsureTest, TheMemoOfACleanPassStillSeesEveryChange) {
  auto desired = std::make_shared<const std::vector<DesiredObject>>(desiredObjects(current()));
  EnsureMemo memo;
  EnsureOutcome out = ensurer.ensure(desired, memo);
  settle();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.created, 12);
  EXPECT_EQ(memo.desired, nullptr);  // it wrote: nothing remembered

  for (int i = 0; i < 2; ++i) {
    out = ensurer.ensure(desired, memo);
    ASSERT_TRUE(out.ok());
    EXPECT_EQ(out.report.unchanged, 12);
    EXPECT_EQ(out.report.writes(), 0);
    EXPECT_EQ(memo.desired, desired);
    EXPECT_EQ(memo.live.size(), 12u);
    EXPECT_EQ(memo.liveChanges, live.changes());  // the next pass reads nothing while it stays
  }

  // A change that leaves an owned object as desired (its status): a new cached object,
  // compared with the rest remembered, and nothing written.
  Object sts = get(res::statefulsets, "redis-cluster-test");
  sts["status"]["observedGeneration"] = 7;
  ASSERT_TRUE(store.updateStatus(res::statefulsets, sts).ok());
  settle();
  const std::uint64_t untouched = rv();
  out = ensurer.ensure(desired, memo);
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.unchanged, 12);
  EXPECT_EQ(rv(), untouched);
  EXPECT_EQ(memo.desired, desired);

  // Someone else edits an owned object: a new cached object, compared and put back.
  Object cm = get(res::configmaps, "redis-sentinel-test");
  const Object want = cm["data"];
  cm["data"]["sentinel.conf"] = "sentinel monitor mymaster 10.9.9.9 6379 1\n";
  ASSERT_TRUE(store.update(res::configmaps, cm).ok());
  settle();
  std::uint64_t before = rv();
  out = ensurer.ensure(desired, memo);
  settle();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.actions, (std::vector<std::string>{"update ConfigMap default/redis-sentinel-test"}));
  EXPECT_EQ(rv() - before, 1u);
  EXPECT_EQ(get(res::configmaps, "redis-sentinel-test")["data"], want);
  EXPECT_EQ(memo.desired, nullptr);
  EXPECT_EQ(ensurer.ensure(desired, memo).report.writes(), 0);
  EXPECT_EQ(memo.desired, desired);

  // A new desired list (a spec change) is compared whatever was remembered.
  auto changed = std::make_shared<const std::vector<DesiredObject>>(
      desiredObjects(withSpec({{"size", 3}, {"config", {{"maxmemory", "1gb"}}}})));
  out = ensurer.ensure(changed, memo);
  settle();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.actions, (std::vector<std::string>{"update ConfigMap default/redis-cluster-test"}));

  // An object deleted by someone else is created again.
  ASSERT_TRUE(ensurer.ensure(changed, memo).ok());
  ASSERT_EQ(memo.desired, changed);
  ASSERT_TRUE(store.remove(res::services, "default", "redis-sentinel-test").ok());
  settle();
  out = ensurer.ensure(changed, memo);
  settle();
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.created, 1);
}

TEST_F(EnsureTest, ASpecChangeUpdatesExactlyTheAffectedObjects) {
  ASSERT_TRUE(ensure(current()).ok());
  std::uint64_t before = rv();
  EnsureOutcome out = ensure(withSpec({{"size", 3}, {"config", {{"maxmemory", "1gb"}}}}));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.actions, (std::vector<std::string>{"update ConfigMap default/redis-cluster-test"}));
  EXPECT_EQ(rv() - before, 1u);
  const std::string conf = get(res::configmaps, "redis-cluster-test")["data"]["redis.conf"];
  EXPECT_NE(conf.find("maxmemory 1gb"), std::string::npos);

  before = rv();
  out = ensure(withSpec({{"size", 5}, {"config", {{"maxmemory", "1gb"}}}}));
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.actions, (std::vector<std::string>{"update PodDisruptionBudget default/redis-cluster-test",
                                                          "update StatefulSet default/redis-cluster-test"}));
  EXPECT_EQ(rv() - before, 2u);
  EXPECT_EQ(get(res::statefulsets, "redis-cluster-test")["spec"]["replicas"], 5);

  before = rv();
  EXPECT_EQ(ensure(withSpec({{"size", 5}, {"config", {{"maxmemory", "1gb"}}}})).report.writes(), 0);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, FieldsOthersAddCostNoWrite) {
  ASSERT_TRUE(ensure(current()).ok());
  // What a StatefulSet controller and the API server add: status, defaults.
  Object sts = get(res::statefulsets, "redis-cluster-test");
  sts["status"] = {{"replicas", 3}, {"readyReplicas", 3}, {"currentRevision", "r1"}, {"updateRevision", "r1"}};
  ASSERT_TRUE(store.updateStatus(res::statefulsets, sts).ok());
  sts = get(res::statefulsets, "redis-cluster-test");
  sts["spec"]["minReadySeconds"] = 0;
  sts["spec"]["template"]["spec"]["containers"][0]["terminationMessagePath"] = "/dev/termination-log";
  sts["spec"]["template"]["spec"]["dnsPolicy"] = "ClusterFirst";
  meta::setAnnotation(sts, "someone.else/note", "x");
  const auto written = store.update(res::statefulsets, sts);
  ASSERT_TRUE(written.ok()) << written.error().toString();
  settle();
  const std::uint64_t before = rv();
  EXPECT_EQ(ensure(current()).report.writes(), 0);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, EditsByOthersToWhatTheOperatorOwnsAreUndone) {
  ASSERT_TRUE(ensure(current()).ok());
  Object cm = get(res::configmaps, "redis-sentinel-test");
  const Object want = cm["data"];
  cm["data"]["sentinel.conf"] = "sentinel monitor mymaster 10.9.9.9 6379 1\n";
  ASSERT_TRUE(store.update(res::configmaps, cm).ok());
  Object sts = get(res::statefulsets, "redis-cluster-test");
  sts["spec"]["replicas"] = 7;
  ASSERT_TRUE(store.update(res::statefulsets, sts).ok());
  settle();
  const EnsureOutcome out = ensure(current());
  ASSERT_TRUE(out.ok());
  EXPECT_EQ(out.report.updated, 2);
  EXPECT_EQ(get(res::configmaps, "redis-sentinel-test")["data"], want);
  EXPECT_EQ(get(res::statefulsets, "redis-cluster-test")["spec"]["replicas"], 3);
  EXPECT_EQ(ensure(current()).report.writes(), 0);
}

TEST_F(EnsureTest, UpdatesKeepWhatOthersOwn) {
  ASSERT_TRUE(ensure(current()).ok());
  Object svc = get(res::services, "redis-sentinel-test");
  const Object clusterIP = svc["spec"]["clusterIP"];
  ASSERT_TRUE(clusterIP.is_string());
  ASSERT_NE(clusterIP, "None");
  meta::setLabel(svc, "mesh/enabled", "true");
  svc["spec"]["sessionAffinity"] = "ClientIP";
  ASSERT_TRUE(store.update(res::services, svc).ok());
  settle();
  // Relabelling the cluster changes every object's labels.
  Object relabelled = stored;
  relabelled["metadata"]["labels"] = {{"team", "blue"}};
  const EnsureOutcome out = ensure(test::parseCluster(relabelled));
  ASSERT_TRUE(out.ok()) << out.status.error().toString();
  EXPECT_EQ(out.report.updated, 12);
  EXPECT_TRUE(out.report.immutableKept.empty());
  svc = get(res::services, "redis-sentinel-test");
  EXPECT_EQ(svc["spec"]["clusterIP"], clusterIP);
  EXPECT_EQ(svc["spec"]["sessionAffinity"], "ClientIP");
  EXPECT_EQ(meta::label(svc, "mesh/enabled"), "true");
  EXPECT_EQ(meta::label(svc, "team"), "blue");
  EXPECT_EQ(meta::ownerReferences(svc).size(), 1u);
}

TEST_F(EnsureTest, AnObjectControlledBySomeoneElseIsNotOverwritten) {
  Object owner = store.create(res::configmaps, Object{{"metadata", {{"name", "owner"}, {"namespace", "default"}}}}).value();
  Object theirs{{"metadata", {{"name", "redis-cluster-test"}, {"namespace", "default"}}}, {"data", {{"k", "v"}}}};
  meta::addOwnerReference(theirs, meta::ownerRefTo(Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                                          {"metadata", owner["metadata"]}},
                                                   true));
  ASSERT_TRUE(store.create(res::configmaps, theirs).ok());
  settle();
  const EnsureOutcome out = ensure(current());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status.error().reason, Reason::AlreadyExists);
  EXPECT_NE(out.status.error().message.find("ConfigMap owner"), std::string::npos) << out.status.error().message;
  EXPECT_EQ(out.report.actions, (std::vector<std::string>{"create Secret default/redis-auth-test"}));
  EXPECT_EQ(get(res::configmaps, "redis-cluster-test")["data"], (Object{{"k", "v"}}));
}

TEST_F(EnsureTest, AnObjectWithoutControllerIsAdopted) {
  Object orphan{{"apiVersion", "v1"}, {"kind", "Service"},
                {"metadata", {{"name", "redis-sentinel-test"}, {"namespace", "default"}, {"annotations", {{"keep", "me"}}}}},
                {"spec", {{"ports", Object::array({{{"port", 1234}}})}}}};
  ASSERT_TRUE(store.create(res::services, orphan).ok());
  settle();
  const EnsureOutcome out = ensure(current());
  ASSERT_TRUE(out.ok()) << out.status.error().toString();
  EXPECT_EQ(out.report.updated, 1);
  const Object svc = get(res::services, "redis-sentinel-test");
  EXPECT_EQ(meta::controllerOf(svc)->uid, meta::uid(stored));
  EXPECT_EQ(meta::annotation(svc, "keep"), "me");
  EXPECT_EQ(svc["spec"]["ports"][0]["port"], 26379);
}

TEST_F(EnsureTest, NothingIsWrittenBeforeTheCachesAreSynced) {
  FixedLiveObjects cold;
  cold.synced_ = false;
  Ensurer e(store, cold);
  const std::uint64_t before = rv();
  const EnsureOutcome out = e.ensure(desiredObjects(current()));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status.error().reason, Reason::Unavailable);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, AStaleCacheGivesConflictAndNoWrite) {
  ASSERT_TRUE(ensure(current()).ok());
  FixedLiveObjects stale;
  for (const auto& r : ownedResources()) {
    const auto listed = store.list(r, "default");
    ASSERT_TRUE(listed.ok());
    for (const auto& o : listed->items) stale.put(r, o);
  }
  // Someone writes after the cache was taken.
  Object cm = get(res::configmaps, "redis-cluster-test");
  meta::setAnnotation(cm, "touched", "1");
  ASSERT_TRUE(store.update(res::configmaps, cm).ok());
  const std::uint64_t before = rv();
  Ensurer e(store, stale);
  const EnsureOutcome out = e.ensure(desiredObjects(withSpec({{"size", 3}, {"config", {{"maxmemory", "2gb"}}}})));
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status.error().reason, Reason::Conflict);
  EXPECT_NE(out.status.error().message.find("ConfigMap default/redis-cluster-test"), std::string::npos);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, ACreateTheCacheHasNotSeenGivesAlreadyExists) {
  FixedLiveObjects empty;
  Ensurer e(store, empty);
  ASSERT_TRUE(e.ensure(desiredObjects(current())).ok());
  const EnsureOutcome again = e.ensure(desiredObjects(current()));
  ASSERT_FALSE(again.ok());
  EXPECT_EQ(again.status.error().reason, Reason::AlreadyExists);
  EXPECT_EQ(again.report.writes(), 0);
}

TEST_F(EnsureTest, AnObjectBeingDeletedIsLeftToGo) {
  ASSERT_TRUE(ensure(current()).ok());
  Object cm = get(res::configmaps, "redis-sentinel-test");
  meta::addFinalizer(cm, "example.com/hold");
  ASSERT_TRUE(store.update(res::configmaps, cm).ok());
  ASSERT_TRUE(store.remove(res::configmaps, "default", "redis-sentinel-test").ok());
  settle();
  const std::uint64_t before = rv();
  const EnsureOutcome out = ensure(current());
  ASSERT_FALSE(out.ok());
  EXPECT_EQ(out.status.error().reason, Reason::Conflict);
  EXPECT_EQ(rv(), before);
}

TEST_F(EnsureTest, AStorageChangeKeepsTheImmutableClaimTemplatesAndSaysSo) {
  const Object claim{{"spec", {{"accessModes", Object::array({"ReadWriteOnce"})},
                               {"resources", {{"requests", {{"storage", "1Gi"}}}}}}}};
  ASSERT_TRUE(ensure(withSpec({{"size", 3}, {"storage", {{"persistentVolumeClaim", claim}}}})).ok());
  Object bigger = claim;
  bigger["spec"]["resources"]["requests"]["storage"] = "2Gi";
  const EnsureOutcome out =
      ensure(withSpec({{"size", 3}, {"image", "redis:7.0"}, {"storage", {{"persistentVolumeClaim", bigger}}}}));
  ASSERT_TRUE(out.ok()) << out.status.error().toString();
  EXPECT_EQ(out.report.immutableKept,
            (std::vector<std::string>{"StatefulSet redis-cluster-test: spec.volumeClaimTemplates"}));
  const Object sts = get(res::statefulsets, "redis-cluster-test");
  EXPECT_EQ(sts["spec"]["volumeClaimTemplates"][0]["spec"]["resources"]["requests"]["storage"], "1Gi");
  EXPECT_EQ(sts["spec"]["template"]["spec"]["containers"][0]["image"], "redis:7.0");
}

TEST_F(EnsureTest, EverythingAClusterCanAskForIsAcceptedByTheServer) {
  GenerateOptions opts;
  opts.pdbVersion = PdbVersion::V1beta1;
  const Object spec{{"size", 3},
                    {"password", "a b\"c'd\\e"},
                    {"exporter", {{"enabled", true}}},
                    {"storage", {{"persistentVolumeClaim", {{"metadata", {{"name", "data"}}},
                                                            {"spec", {{"accessModes", Object::array({"ReadWriteOnce"})}}}}}}},
                    {"annotations", {{"example.com/a", "1"}}},
                    {"nodeSelector", {{"pool", "redis"}}}};
  const EnsureOutcome out = ensure(withSpec(spec), opts);
  ASSERT_TRUE(out.ok()) << out.status.error().toString();
  EXPECT_EQ(out.report.created, 12);
  EXPECT_TRUE(store.get(res::poddisruptionbudgetsV1beta1, "default", "redis-sentinel-test").ok());
  EXPECT_EQ(ensure(withSpec(spec), opts).report.writes(), 0);
}

}  // namespace
}  // namespace kun::rediscluster
