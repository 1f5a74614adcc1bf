// The generic Controller on the fake API server: primary keys queued on change (not on its
// own status writes), owned objects queue their owner, and with leader election only the
// Lease holder reconciles — the other takes over, with every key, when it stops.
#include <gtest/gtest.h>

#include <memory>

#include "core/api/redis_cluster_crd.h"
#include "core/controller/controller.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"
#include "tests/unit/controller/switchable_client.h"

namespace kun {
namespace {

Object clusterObject(const std::string& name, const Object& annotations = Object::object()) {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", name}, {"namespace", "default"}, {"annotations", annotations}}},
                {"spec", {{"size", 3}}}};
}

struct Replica {
  std::unique_ptr<test::SwitchableClient> client;
  std::unique_ptr<Informer> primary;
  std::unique_ptr<Informer> services;
  std::unique_ptr<Controller> controller;
  std::vector<std::string> reconciled;
};

struct ControllerTest : ::testing::Test {
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  std::vector<std::unique_ptr<Replica>> replicas;

  void SetUp() override {
    ASSERT_TRUE(store.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    loop.runFor(seconds(1));
  }

  Replica& replica(const std::string& identity, bool elect, std::function<bool(const Object&)> accept = {}) {
    auto r = std::make_unique<Replica>();
    r->client = std::make_unique<test::SwitchableClient>(store);
    r->primary = std::make_unique<Informer>(*r->client, loop, res::redisclusters, Informer::Options{}, log);
    r->services = std::make_unique<Informer>(*r->client, loop, res::services, Informer::Options{}, log);
    ControllerOptions o;
    o.name = identity;
    if (elect) {
      LeaderElectionOptions le;
      le.identity = identity;
      o.leaderElection = le;
    }
    Replica* raw = r.get();
    r->controller = std::make_unique<Controller>(ControllerSeams{loop, *r->client, log}, o, [raw](const std::string& k) {
      raw->reconciled.push_back(k);
      return ReconcileResult::done();
    });
    r->controller->setPrimary(*r->primary, std::move(accept));
    r->controller->setOwnerKind(OwnerKind{"redis.kun", "RedisCluster"});
    r->controller->addOwned(*r->services);
    replicas.push_back(std::move(r));
    return *raw;
  }
};

TEST_F(ControllerTest, ReconcilesCreatedAndChangedObjectsButNotItsOwnStatusWrites) {
  Replica& r = replica("solo", false);
  r.controller->start();
  auto made = store.create(res::redisclusters, clusterObject("a"));
  ASSERT_TRUE(made.ok());
  loop.runFor(seconds(1));
  EXPECT_TRUE(r.controller->synced());
  EXPECT_EQ(r.reconciled, std::vector<std::string>{"default/a"});

  Object withStatus = *made;
  withStatus["status"] = {{"masterIP", "10.0.0.1"}};
  auto st = store.updateStatus(res::redisclusters, withStatus);
  ASSERT_TRUE(st.ok());
  loop.runFor(seconds(1));
  EXPECT_EQ(r.reconciled.size(), 1u);  // status only: not queued again

  Object respec = *st;
  respec["spec"]["size"] = 5;
  ASSERT_TRUE(store.update(res::redisclusters, respec).ok());
  loop.runFor(seconds(1));
  EXPECT_EQ(r.reconciled.size(), 2u);

  Object svc{{"apiVersion", "v1"}, {"kind", "Service"}, {"metadata", {{"name", "s"}, {"namespace", "default"}}},
             {"spec", {{"ports", {{{"port", 1}}}}}}};
  meta::addOwnerReference(svc, meta::ownerRefTo(*st));
  ASSERT_TRUE(store.create(res::services, svc).ok());
  loop.runFor(seconds(1));
  EXPECT_EQ(r.reconciled.size(), 3u);
  EXPECT_EQ(r.reconciled.back(), "default/a");
}

TEST_F(ControllerTest, TheAcceptFilterKeepsOtherScopesOut) {
  Replica& r = replica("scoped", false, [](const Object& o) { return meta::annotation(o, "mine") == "yes"; });
  r.controller->start();
  ASSERT_TRUE(store.create(res::redisclusters, clusterObject("theirs")).ok());
  ASSERT_TRUE(store.create(res::redisclusters, clusterObject("mine", {{"mine", "yes"}})).ok());
  loop.runFor(seconds(1));
  EXPECT_EQ(r.reconciled, std::vector<std::string>{"default/mine"});
}

TEST_F(ControllerTest, OnlyTheLeaderReconcilesAndTheFollowerTakesOverEveryKey) {
  ASSERT_TRUE(store.create(res::redisclusters, clusterObject("a")).ok());
  ASSERT_TRUE(store.create(res::redisclusters, clusterObject("b")).ok());
  Replica& one = replica("one", true);
  Replica& two = replica("two", true);
  one.controller->start();
  loop.runFor(milliseconds(10));
  two.controller->start();
  loop.runFor(seconds(30));
  EXPECT_TRUE(one.controller->acting());
  EXPECT_FALSE(two.controller->acting());
  EXPECT_EQ(one.reconciled, (std::vector<std::string>{"default/a", "default/b"}));
  EXPECT_TRUE(two.reconciled.empty());
  EXPECT_TRUE(two.controller->synced());  // the follower's caches are warm

  one.controller->stop();
  loop.runFor(seconds(5));
  EXPECT_TRUE(two.controller->acting());
  EXPECT_EQ(two.reconciled, (std::vector<std::string>{"default/a", "default/b"}));
}

TEST_F(ControllerTest, ALeaderCutOffFromTheApiStopsReconcilingBeforeTheOtherStarts) {
  ASSERT_TRUE(store.create(res::redisclusters, clusterObject("a")).ok());
  Replica& one = replica("one", true);
  Replica& two = replica("two", true);
  one.controller->start();
  loop.runFor(milliseconds(10));
  two.controller->start();
  loop.runFor(seconds(5));
  ASSERT_TRUE(one.controller->acting());
  one.client->down = true;
  int both = 0;
  std::function<void()> sample = [&] {
    both += one.controller->acting() && two.controller->acting();
    loop.runAfter(milliseconds(10), sample);
  };
  sample();
  ASSERT_TRUE(loop.runUntil([&] { return two.controller->acting(); }, loop.now() + seconds(30)));
  EXPECT_FALSE(one.controller->acting());
  EXPECT_EQ(both, 0);
  // A key queued on the cut-off replica (its own informer's resync or a late event) is
  // skipped, not acted on.
  one.controller->queue().add("default/a");
  loop.runFor(seconds(1));
  EXPECT_EQ(one.reconciled.size(), 1u);
}

}  // namespace
}  // namespace kun
