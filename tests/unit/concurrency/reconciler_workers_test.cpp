// Real mode: the RedisCluster reconciler on 4 worker threads at once, many clusters, an
// AsioLoop delivering the informers' events on its own thread while the workers read the
// caches. The Redis side is scripted (RedisSteps, thread-safe): what is under test is the
// reconciler's own per-cluster state, its counters, the EventRecorder and the caches.
// Every cluster must reach its outcome (objects ensured, status Healthy at its generation)
// and the counters must add up; under ThreadSanitizer (the tsan preset) no race may be
// reported. Nothing here sleeps: the test waits on a condition variable that every write
// notifies, with a wall-clock bound only so that a bug fails instead of hanging.
#include <gtest/gtest.h>

#include <atomic>
#include <chrono>
#include <condition_variable>
#include <map>
#include <mutex>
#include <optional>
#include <thread>

#include "core/api/redis_cluster_crd.h"
#include "core/controller/controller.h"
#include "core/rediscluster/conditions.h"
#include "core/rediscluster/reconciler.h"
#include "core/runtime/asio_loop_real.h"
#include "fakeapi/store/fake_store.h"
#include "tests/support/serialized_store.h"

namespace kun::rediscluster {
namespace {

constexpr int kClusters = 16;
constexpr int kWorkers = 4;
constexpr auto kBound = std::chrono::seconds(20);  // wall-clock ok: a hang guard, never a pace

std::string clusterName(int i) { return "c" + std::to_string(i); }
std::string passwordOf(const std::string& name) { return "pw-" + name; }

class NoRedis final : public RedisAdmin {
 public:
  Result<RedisReply> command(const RedisEndpoint&, const std::vector<std::string>&, std::string_view) override {
    return makeError(Reason::Unavailable, "the Redis side is scripted in this test");
  }
};

// The operator's client: serialized onto the store, counting the writes that succeeded and
// telling the test after each one (outside the store's lock).
class OperatorClient final : public test::SerializedClient {
 public:
  OperatorClient(KubeClient& inner, std::recursive_mutex& mu, std::function<void()> wrote)
      : SerializedClient(inner, mu), wrote_(std::move(wrote)) {}

  Result<Object> create(const Resource& r, const Object& obj) override {
    return counted(r, SerializedClient::create(r, obj), r == res::events ? eventCreates : objectWrites);
  }
  Result<Object> update(const Resource& r, const Object& obj) override {
    return counted(r, SerializedClient::update(r, obj), objectWrites);
  }
  Result<Object> patch(const Resource& r, std::string_view ns, std::string_view name, const Object& p) override {
    return counted(r, SerializedClient::patch(r, ns, name, p), eventPatches);
  }
  Result<ObjectPtr> createShared(const Resource& r, Object obj) override {
    return counted(r, SerializedClient::createShared(r, std::move(obj)), r == res::events ? eventCreates : objectWrites);
  }
  Result<ObjectPtr> patchShared(const Resource& r, std::string_view ns, std::string_view name, const Object& p) override {
    return counted(r, SerializedClient::patchShared(r, ns, name, p), eventPatches);
  }
  Result<ObjectPtr> updateStatusShared(const Resource& r, Object obj) override {
    return counted(r, SerializedClient::updateStatusShared(r, std::move(obj)), statusWrites);
  }

  std::atomic<std::uint64_t> objectWrites{0}, statusWrites{0}, eventCreates{0}, eventPatches{0};

 private:
  template <typename R>
  R counted(const Resource&, R got, std::atomic<std::uint64_t>& counter) {
    if (got.ok()) counter.fetch_add(1);
    wrote_();
    return got;
  }
  std::function<void()> wrote_;
};

struct ReconcilerWorkersTest : ::testing::Test {
  std::recursive_mutex storeMu;
  AsioLoop loop;
  test::SerializedLoop storeLoop{loop, storeMu};
  FakeStore store{storeLoop};
  test::SerializedClient admin{store, storeMu};  // the test's own reads and writes

  std::mutex mu;  // guards what follows, and is the condition variable's
  std::condition_variable changed;
  std::uint64_t epoch = 0;
  std::map<std::string, std::optional<bool>> lastHealth;
  void notify() {
    {
      std::lock_guard l(mu);
      ++epoch;
    }
    changed.notify_all();
  }

  OperatorClient kube{store, storeMu, [this] { notify(); }};
  NoRedis redis;
  Logger log{&loop, LogLevel::Off};
  EventRecorder events{kube, loop, "redis-operator"};
  ClusterInformers caches{kube, loop, Scope::namespaced("default"), GenerateOptions{}, log};

  // What the scripted steps saw.
  std::atomic<int> inFlight{0}, maxInFlight{0};
  std::atomic<bool> rendezvousTimedOut{false}, foreignState{false}, wrongPassword{false};
  int arrived = 0;  // guarded by mu: the first kWorkers reconciles meet in observe

  std::unique_ptr<Reconciler> reconciler;
  std::unique_ptr<Controller> controller;
  std::atomic<std::uint64_t> calls{0};
  std::thread loopThread;

  RedisSteps scriptedSteps() {
    RedisSteps steps;
    steps.observe = [this](RedisAdmin&, const ClusterPods&, const std::vector<std::string>&) {
      // The first kWorkers reconciles wait for each other here, so they surely overlap.
      std::unique_lock l(mu);
      if (arrived < kWorkers) {
        ++arrived;
        changed.notify_all();
        if (!changed.wait_for(l, kBound, [&] { return arrived >= kWorkers; })) rendezvousTimedOut = true;
      }
      return ClusterView{};
    };
    steps.replicasToKeep = [](const api::RedisCluster& rc, const ClusterView&) { return rc.spec.size; };
    steps.heal = [this](HealContext& ctx) {
      // Each cluster's config checks and passwords are its own.
      const std::string name = ctx.cluster.name();
      if (ctx.passwords.empty() || ctx.passwords.front() != passwordOf(name)) wrongPassword = true;
      if (!ctx.configChecks) {
        foreignState = true;
      } else {
        for (const auto& [pod, entry] : ctx.configChecks->byPod)
          if (pod != name) foreignState = true;
        ++ctx.configChecks->byPod[name].fingerprint;
      }
      return HealReport{};
    };
    steps.assess = [](const api::RedisCluster&, const ClusterView&) {
      Health h;
      h.healthy = true;
      h.masterIP = "10.0.0.1";
      return h;
    };
    return steps;
  }

  void SetUp() override {
    ASSERT_TRUE(admin.create(res::customresourcedefinitions, api::redisClusterCrd()).ok());
    ReconcilerOptions opts;
    opts.scope = Scope::namespaced("default");
    opts.heal.requeueAfter = milliseconds(5);
    opts.healthyRecheck = seconds(3600);
    ReconcilerSeams seams{kube, redis, loop, events, log, nullptr, {}};
    seams.onHealth = [this](const std::string& key, std::optional<bool> healthy) {
      {
        std::lock_guard l(mu);
        lastHealth[key] = healthy;
        ++epoch;
      }
      changed.notify_all();
    };
    reconciler = std::make_unique<Reconciler>(std::move(seams), caches, opts, scriptedSteps());

    ControllerOptions copts;
    copts.name = "rediscluster";
    copts.workers = kWorkers;
    copts.queue.backoff.max = milliseconds(50);  // conflicts with a lagging cache retry soon
    controller = std::make_unique<Controller>(ControllerSeams{loop, kube, log}, copts, [this](const std::string& key) {
      const int now = ++inFlight;
      for (int seen = maxInFlight; now > seen && !maxInFlight.compare_exchange_weak(seen, now);) {
      }
      calls.fetch_add(1);
      ReconcileResult r = reconciler->reconcile(key);
      --inFlight;
      return r;
    });
    const Scope scope = opts.scope;
    controller->setPrimary(caches.clusters(), [scope](const Object& o) { return manages(scope, o); });
    controller->setOwnerKind(OwnerKind{std::string(api::kGroup), std::string(api::kKind)});
    for (const auto& inf : caches.owned()) controller->addOwned(*inf);
    controller->addCache(caches.pods());

    loopThread = std::thread([this] { loop.run(); });
    onLoop([this] { controller->start(); });  // informers and handlers live on the loop's thread
  }

  void TearDown() override {
    if (controller) onLoop([this] { controller->stop(); });  // joins the workers
    loop.stop();
    if (loopThread.joinable()) loopThread.join();
  }

  // Runs f on the loop's thread and waits for it.
  void onLoop(std::function<void()> f) {
    std::mutex m;
    std::condition_variable cv;
    bool done = false;
    loop.post([&] {
      f();
      std::lock_guard l(m);
      done = true;
      cv.notify_all();
    });
    std::unique_lock l(m);
    cv.wait(l, [&] { return done; });
  }

  // Waits until pred() holds, checking it again after every write and health report (pred
  // reads the store, so it runs without mu; epoch tells whether anything came meanwhile).
  bool waitFor(const std::function<bool()>& pred) {
    const auto deadline = std::chrono::steady_clock::now() + kBound;  // wall-clock ok
    std::unique_lock l(mu);
    for (;;) {
      const std::uint64_t seen = epoch;
      l.unlock();
      const bool ok = pred();
      l.lock();
      if (ok) return true;
      if (!changed.wait_until(l, deadline, [&] { return epoch != seen; })) return false;
    }
  }

  std::optional<api::RedisCluster> stored(const std::string& name) {
    auto got = admin.get(res::redisclusters, "default", name);
    if (!got) return std::nullopt;
    auto rc = api::parseRedisCluster(*got);
    return rc.ok() ? std::optional(*rc) : std::nullopt;
  }

  // Healthy, at the cluster's current generation, and every object it should own exists.
  bool converged(const std::string& name) {
    auto rc = stored(name);
    if (!rc || !conditionTrue(rc->status, conditions::kHealthy)) return false;
    if (rc->status.observedGeneration != rc->generation()) return false;
    for (const DesiredObject& d : desiredObjects(*rc))
      if (!admin.getShared(d.resource, "default", meta::name(d.object)).ok()) return false;
    return true;
  }

  std::optional<bool> healthOf(const std::string& name) {
    std::lock_guard l(mu);
    auto it = lastHealth.find("default/" + name);
    return it == lastHealth.end() ? std::optional<bool>(true) : it->second;  // none yet: not forgotten
  }
};

TEST_F(ReconcilerWorkersTest, ManyClustersOnFourWorkersConvergeAndTheCountersAddUp) {
  for (int i = 0; i < kClusters; ++i) {
    const std::string name = clusterName(i);
    Object m{{"apiVersion", "redis.kun/v1beta1"},
             {"kind", "RedisCluster"},
             {"metadata", {{"name", name}, {"namespace", "default"}}},
             {"spec", {{"size", 3}, {"password", passwordOf(name)}}}};
    ASSERT_TRUE(admin.create(res::redisclusters, m).ok()) << name;
  }
  ASSERT_TRUE(waitFor([&] {
    for (int i = 0; i < kClusters; ++i)
      if (!converged(clusterName(i))) return false;
    return true;
  })) << "not every cluster converged";

  // Half are deleted while the other half change their spec: forgetting a cluster runs
  // alongside other clusters' updates.
  for (int i = 0; i < kClusters; ++i) {
    const std::string name = clusterName(i);
    if (i % 2 == 0) {
      ASSERT_TRUE(admin.remove(res::redisclusters, "default", name).ok()) << name;
    } else {
      const Object patch = {{"spec", {{"config", {{"maxmemory-policy", "allkeys-lru"}}}}}};
      ASSERT_TRUE(admin.patch(res::redisclusters, "default", name, patch).ok()) << name;
    }
  }
  ASSERT_TRUE(waitFor([&] {
    for (int i = 0; i < kClusters; ++i) {
      const std::string name = clusterName(i);
      if (i % 2 == 0 ? healthOf(name).has_value() : !converged(name)) return false;
    }
    return true;
  })) << "the deletions or the spec changes were not all carried out";

  onLoop([this] { controller->stop(); });  // joins the workers: every count below is final
  EXPECT_EQ(controller->reconciles(), calls.load());
  controller.reset();

  EXPECT_FALSE(rendezvousTimedOut) << kWorkers << " reconciles never ran at once";
  EXPECT_GE(maxInFlight.load(), kWorkers);
  EXPECT_FALSE(foreignState) << "a reconcile saw another cluster's config checks";
  EXPECT_FALSE(wrongPassword) << "a reconcile was handed another cluster's password";

  const ReconcilerStats s = reconciler->stats();
  EXPECT_EQ(s.reconciles, calls.load());
  EXPECT_EQ(s.statusWrites, kube.statusWrites.load());
  EXPECT_EQ(s.objectWrites, kube.objectWrites.load());
  EXPECT_EQ(s.invalid, 0u);
  EXPECT_EQ(s.healActions, 0u);
  EXPECT_EQ(events.created(), kube.eventCreates.load());
  EXPECT_EQ(events.aggregated(), kube.eventPatches.load());
  EXPECT_EQ(events.dropped(), 0u);
  // Every cluster was created and got its status; the survivors' ConfigMap was updated.
  EXPECT_GE(s.statusWrites, static_cast<std::uint64_t>(kClusters + kClusters / 2));
  EXPECT_GT(s.objectWrites, static_cast<std::uint64_t>(kClusters * 10));
  EXPECT_EQ(reconciler->clustersRemembered(), static_cast<std::size_t>(kClusters / 2));
}

}  // namespace
}  // namespace kun::rediscluster
