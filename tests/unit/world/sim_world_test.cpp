// The pod bridge end to end: the operator's generated objects, no operator, the Redis
// simulator behind the simulated kubelet.
#include <gtest/gtest.h>

#include "core/rediscluster/layout.h"
#include "tests/unit/world/world_fixture.h"

namespace kun::sim::test {
namespace {

const Object kSmall{{"size", 3}, {"sentinel", {{"replicas", 3}}}};

Object withPvc(Object spec) {
  Object claim = Object::parse(R"({"metadata": {"name": "redis-data"},
    "spec": {"accessModes": ["ReadWriteOnce"], "resources": {"requests": {"storage": "1Gi"}}}})");
  spec["storage"] = Object{{"persistentVolumeClaim", claim}};
  return spec;
}

TEST_F(WorldTest, PodsGetProcessesAtTheirIps) {
  apply(kSmall);
  ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
  for (int i = 0; i < 3; ++i) {
    const std::string ip = podIp(redisPod(i));
    ASSERT_FALSE(ip.empty());
    EXPECT_EQ(redisOf(redisPod(i)), world->redis().redis({ip, 6379}));
    const std::string sip = podIp(sentinelPod(i));
    EXPECT_EQ(sentinelOf(sentinelPod(i)), world->redis().sentinel({sip, 26379}));
    EXPECT_EQ(cmd(ip, 6379, {"PING"}, "").str, "PONG");
  }
  EXPECT_EQ(world->bridge().processesStarted(), 6u);
}

TEST_F(WorldTest, RedisBootsAsReplicaOfThePlaceholderAndIsNotReady) {
  apply(kSmall);
  ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
  world->runFor(seconds(20));  // several readiness periods
  for (int i = 0; i < 3; ++i) {
    auto* n = redisOf(redisPod(i));
    ASSERT_NE(n, nullptr);
    EXPECT_FALSE(n->isMaster());
    EXPECT_EQ(n->masterHost(), "127.0.0.1");
    EXPECT_EQ(redisCmd(redisPod(i), {"ROLE"}).elements.at(0).str, "slave");
    EXPECT_FALSE(podReady(redisPod(i)));
    // The sentinels monitor the placeholder: not ready either.
    auto* s = sentinelOf(sentinelPod(i));
    ASSERT_NE(s, nullptr);
    EXPECT_EQ(s->masterAddress("mymaster"), (RedisEndpoint{"127.0.0.1", 6379}));
    EXPECT_FALSE(podReady(sentinelPod(i)));
  }
}

TEST_F(WorldTest, ReadinessFollowsTheHandConfiguredMaster) {
  apply(kSmall);
  ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
  configureMaster(0, 3, 3);
  EXPECT_TRUE(world->runUntil([&] { return allReady(3, 3); }, seconds(40)));
  EXPECT_TRUE(redisOf(redisPod(0))->isMaster());
  EXPECT_EQ(redisOf(redisPod(1))->masterHost(), podIp(redisPod(0)));
  // A replica pointed back at the placeholder turns unready at once (probed on change).
  ASSERT_TRUE(redisCmd(redisPod(2), {"REPLICAOF", "127.0.0.1", "6379"}).isOk());
  EXPECT_TRUE(world->runUntil([&] { return !podReady(redisPod(2)); }, seconds(2)));
}

TEST_F(WorldTest, PasswordFromTheSecretIsRequired) {
  Object spec = kSmall;
  spec["password"] = "s3 cr\"et";  // needs quoting in auth.conf
  apply(spec);
  ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
  const std::string ip = podIp(redisPod(0));
  EXPECT_EQ(cmd(ip, 6379, {"PING"}, "").errorCode(), "NOAUTH");
  EXPECT_EQ(cmd(ip, 6379, {"PING"}, "wrong").errorCode(), "WRONGPASS");
  EXPECT_EQ(cmd(ip, 6379, {"PING"}, password).str, "PONG");
  // Replicas authenticate with masterauth from the same file; the readiness probe with the
  // mounted password.
  configureMaster(0, 3, 3);
  EXPECT_TRUE(world->runUntil([&] { return allReady(3, 3); }, seconds(40)));
  EXPECT_TRUE(redisOf(redisPod(1))->masterLinkUp());
}

// The probe reads the password from the mounted Secret on every run: a changed Secret
// (the server still wants the old password) makes the pod unready at the next poll, not at
// the next period.
TEST_F(WorldTest, AChangedSecretReachesTheReadinessProbeAtOnce) {
  Object spec = kSmall;
  spec["password"] = "first";
  bootReady(spec);
  world->runFor(seconds(5));
  EXPECT_TRUE(podReady(redisPod(1)));
  setSecretPassword("c2Vjb25k");  // "second"
  EXPECT_TRUE(world->runUntil([&] { return !podReady(redisPod(1)); }, seconds(2)));
  EXPECT_EQ(cmd(podIp(redisPod(1)), 6379, {"PING"}, "first").str, "PONG");  // the server did not change
}

// The redis probe answers from its kept verdict while the inputs it was drawn from stay
// the same. Probing every time all the same (verifyReadinessCache) through a change of
// role, of link, of the Secret and a crash, every kept verdict is what the probe says.
class ReadinessCacheTest : public WorldTest {
 protected:
  void SetUp() override { world = std::make_unique<SimWorld>(options(true)); }
  static SimWorldOptions options(bool verify) {
    SimWorldOptions o = worldOptions();
    o.bridge.verifyReadinessCache = verify;
    return o;
  }
  // Readiness through a master, a replica sent to the placeholder and back, a changed
  // Secret and a crashed container.
  void exercise() {
    Object spec = kSmall;
    spec["password"] = "first";
    bootReady(spec);
    ASSERT_TRUE(redisCmd(redisPod(2), {"REPLICAOF", "127.0.0.1", "6379"}).isOk());
    ASSERT_TRUE(world->runUntil([&] { return !podReady(redisPod(2)); }, seconds(2)));
    ASSERT_TRUE(redisCmd(redisPod(2), {"REPLICAOF", podIp(redisPod(0)), "6379"}).isOk());
    ASSERT_TRUE(world->runUntil([&] { return podReady(redisPod(2)); }, seconds(20)));
    setSecretPassword("c2Vjb25k");  // "second"
    ASSERT_TRUE(world->runUntil([&] { return !podReady(redisPod(1)); }, seconds(2)));
    setSecretPassword("Zmlyc3Q=");  // "first" again
    ASSERT_TRUE(world->runUntil([&] { return podReady(redisPod(1)); }, seconds(20)));
    ASSERT_TRUE(world->cluster().kubelet().crashContainer(ns, redisPod(1), rediscluster::layout::kRedisContainer).ok());
    world->runFor(seconds(60));
  }
  // total_commands_processed of each redis pod's server.
  std::vector<std::uint64_t> commandCounts() {
    std::vector<std::uint64_t> out;
    for (int i = 0; i < 3; ++i) out.push_back(redisOf(redisPod(i)) ? redisOf(redisPod(i))->commandsProcessed() : 0);
    return out;
  }
};

TEST_F(ReadinessCacheTest, AKeptVerdictIsWhatTheProbeSays) {
  exercise();
  const auto& check = world->bridge().readinessCheck();
  EXPECT_GT(check.compared, 20u);
  EXPECT_TRUE(check.mismatches.empty()) << check.mismatches.front();
}

// A kept verdict counts the probe's commands on the server: its statistics read the same
// as when every probe is sent.
TEST_F(ReadinessCacheTest, AKeptVerdictCountsTheProbesCommands) {
  exercise();
  const auto probed = commandCounts();
  world = std::make_unique<SimWorld>(options(false));
  exercise();
  EXPECT_EQ(commandCounts(), probed);
  EXPECT_EQ(world->bridge().readinessCheck().compared, 0u);
}

// A missing ConfigMap is a start error, and the mount is tried again (the kubelet's backoff,
// at most 2m2s between two tries) until the ConfigMap is there: the process then starts.
TEST_F(WorldTest, MissingConfigMapIsAStartErrorUntilItIsMade) {
  apply(kSmall, {{res::configmaps.plural, rediscluster::names::redis(name)}});  // only the redis ConfigMap
  ASSERT_TRUE(world->runUntil([&] { return world->bridge().startError(ns, redisPod(0)).has_value(); }, seconds(30)));
  EXPECT_TRUE(world->bridge().startError(ns, redisPod(0))->reason == Reason::NotFound);
  EXPECT_EQ(redisOf(redisPod(0)), nullptr);
  world->runFor(seconds(10));
  EXPECT_FALSE(podReady(redisPod(0)));
  EXPECT_EQ(redisOf(redisPod(0)), nullptr);

  const auto rc = kun::test::parseCluster(*world->store().get(res::redisclusters, ns, name));
  for (const auto& d : rediscluster::desiredObjects(rc)) {
    if (d.resource.plural == res::configmaps.plural && d.name() == rediscluster::names::redis(name)) {
      ASSERT_TRUE(world->store().create(d.resource, d.object).ok());
    }
  }
  const TimePoint made = world->loop().now();
  ASSERT_TRUE(world->runUntil([&] { return redisOf(redisPod(0)) != nullptr; }, seconds(123)));
  EXPECT_LE(world->loop().now() - made, seconds(122));
  EXPECT_FALSE(world->bridge().startError(ns, redisPod(0)).has_value());
}

// The sentinel's config comes from its ConfigMap through an init container's copy. With
// the ConfigMap missing the copy fails and nothing starts; the copy runs again on the
// next try, so once the ConfigMap is made the sentinel starts with its config.
TEST_F(WorldTest, ASentinelStartsOnceItsMissingConfigMapIsMade) {
  apply(kSmall, {{res::configmaps.plural, rediscluster::names::sentinel(name)}});  // all but the sentinel's
  ASSERT_TRUE(world->runUntil([&] { return world->bridge().startError(ns, sentinelPod(0)).has_value(); }, seconds(30)));
  EXPECT_EQ(world->bridge().startError(ns, sentinelPod(0))->reason, Reason::NotFound);
  world->runFor(seconds(10));
  EXPECT_EQ(sentinelOf(sentinelPod(0)), nullptr);

  const auto rc = kun::test::parseCluster(*world->store().get(res::redisclusters, ns, name));
  for (const auto& d : rediscluster::desiredObjects(rc)) {
    if (d.resource.plural == res::configmaps.plural && d.name() == rediscluster::names::sentinel(name)) {
      ASSERT_TRUE(world->store().create(d.resource, d.object).ok());
    }
  }
  ASSERT_TRUE(world->runUntil([&] { return sentinelOf(sentinelPod(0)) != nullptr; }, seconds(123)));
  EXPECT_FALSE(world->bridge().startError(ns, sentinelPod(0)).has_value());
  // Started from the copied sentinel.conf: once booted, it monitors the placeholder.
  world->runFor(seconds(3));
  auto reply = sentinelOf(sentinelPod(0))->executeAdmin({"SENTINEL", "MASTER", "mymaster"}, "");
  EXPECT_FALSE(reply.isError()) << reply.str;
}

class PersistenceTest : public WorldTest {
 protected:
  void bootConfigured(const Object& spec) {
    apply(spec);
    ASSERT_TRUE(world->runUntil([&] { return allRunning(3, 3); }, seconds(30)));
    configureMaster(0, 3, 3);
    ASSERT_TRUE(world->runUntil([&] { return allReady(3, 3); }, seconds(40)));
    ASSERT_TRUE(redisCmd(redisPod(0), {"SET", "k", "v"}).isOk());
    ASSERT_TRUE(world->runUntil([&] { return redisOf(redisPod(1))->data().count("k") == 1; }, seconds(5)));
    ASSERT_TRUE(redisCmd(redisPod(1), {"SAVE"}).isOk());
  }
  // Deletes replica pod 1 and waits until its replacement runs a process.
  std::string recreateReplica() {
    const std::string oldUid = meta::uid(pod(redisPod(1)));
    EXPECT_TRUE(world->client().remove(res::pods, ns, redisPod(1)).ok());
    EXPECT_TRUE(world->runUntil([&] {
      auto* n = redisOf(redisPod(1));
      return n && n->ready() && meta::uid(pod(redisPod(1))) != oldUid;
    }, seconds(60)));
    return podIp(redisPod(1));
  }
};

TEST_F(PersistenceTest, PvcKeepsDataAcrossPodRecreationUnderANewIp) {
  bootConfigured(withPvc(kSmall));
  const std::string oldIp = podIp(redisPod(1));
  const std::string newIp = recreateReplica();
  EXPECT_NE(newIp, oldIp);
  auto* n = redisOf(redisPod(1));
  ASSERT_NE(n, nullptr);
  EXPECT_EQ(n->endpoint().host, newIp);
  EXPECT_EQ(n->data().count("k"), 1u);
  EXPECT_EQ(n->masterHost(), "127.0.0.1");  // boots from redis.conf again: the placeholder
  EXPECT_NE(world->bridge().claimDisk(ns, "redis-data-" + redisPod(1)), nullptr);
}

TEST_F(PersistenceTest, EmptyDirStartsEmptyInARecreatedPod) {
  bootConfigured(kSmall);
  recreateReplica();
  auto* n = redisOf(redisPod(1));
  ASSERT_NE(n, nullptr);
  EXPECT_TRUE(n->data().empty());
}

// The write reached replica 1 less than a second before the crash (no AOF fsync yet):
// redis-server had written it, so the restarted process replays it from its AOF.
TEST_F(PersistenceTest, EmptyDirSurvivesAContainerCrash) {
  bootConfigured(kSmall);
  const std::string ip = podIp(redisPod(1));
  ASSERT_TRUE(world->cluster().kubelet().crashContainer(ns, redisPod(1), "redis").ok());
  EXPECT_EQ(redisOf(redisPod(1)), nullptr);
  ASSERT_TRUE(world->runUntil([&] { auto* n = redisOf(redisPod(1)); return n && n->ready(); }, seconds(10)));
  auto* n = redisOf(redisPod(1));
  EXPECT_EQ(n->endpoint().host, ip);  // same sandbox, same IP
  EXPECT_EQ(n->data().count("k"), 1u);
}

TEST_F(PersistenceTest, SentinelKeepsItsRewrittenConfigAcrossACrashButNotARecreation) {
  bootConfigured(kSmall);
  const RedisEndpoint master{podIp(redisPod(0)), 6379};
  ASSERT_TRUE(world->cluster().kubelet().crashContainer(ns, sentinelPod(0), "sentinel").ok());
  ASSERT_TRUE(world->runUntil([&] { auto* s = sentinelOf(sentinelPod(0)); return s && s->ready(); }, seconds(10)));
  EXPECT_EQ(sentinelOf(sentinelPod(0))->masterAddress("mymaster"), master);

  const std::string oldUid = meta::uid(pod(sentinelPod(0)));
  ASSERT_TRUE(world->client().remove(res::pods, ns, sentinelPod(0)).ok());
  ASSERT_TRUE(world->runUntil([&] {
    auto* s = sentinelOf(sentinelPod(0));
    return s && s->ready() && meta::uid(pod(sentinelPod(0))) != oldUid;
  }, seconds(60)));
  EXPECT_EQ(sentinelOf(sentinelPod(0))->masterAddress("mymaster"), (RedisEndpoint{"127.0.0.1", 6379}));
}

TEST_F(PersistenceTest, DeletingTheMasterPodFailsOverBeforeItStops) {
  bootConfigured(kSmall);
  const std::string oldMaster = podIp(redisPod(0));
  const TimePoint t0 = world->loop().now();
  ASSERT_TRUE(world->client().remove(res::pods, ns, redisPod(0)).ok());
  // The process stops once shutdown.sh saw Sentinel name another master, well inside the
  // 30 s grace period and before Sentinel could have noticed the master down by itself.
  ASSERT_TRUE(world->runUntil([&] { return world->redis().redis({oldMaster, 6379}) == nullptr; }, seconds(31)));
  EXPECT_LT(world->loop().now() - t0, seconds(12));
  auto addr = sentinelOf(sentinelPod(1))->masterAddress("mymaster");
  ASSERT_TRUE(addr.has_value());
  EXPECT_NE(addr->host, oldMaster);
}

std::uint64_t runScenario(std::uint64_t seed) {
  struct Run : WorldTest {
    void TestBody() override {}
  } t;
  t.world = std::make_unique<SimWorld>(worldOptions(seed));
  t.apply(withPvc(kSmall));
  t.world->runUntil([&] { return t.allRunning(3, 3); }, seconds(30));
  t.configureMaster(0, 3, 3);
  t.world->runFor(seconds(20));
  (void)t.world->cluster().kubelet().crashContainer(t.ns, t.redisPod(2), "redis");
  (void)t.world->client().remove(res::pods, t.ns, t.redisPod(1));
  t.world->runFor(seconds(30));
  return t.world->trace().hash();
}

TEST(SimWorldDeterminism, SameSeedSameTraceHash) {
  const std::uint64_t a = runScenario(7);
  EXPECT_EQ(a, runScenario(7));
  EXPECT_NE(a, runScenario(8));
}

}  // namespace
}  // namespace kun::sim::test
