// Restarts of a simulated redis-server: what comes back depends on persistence settings
// and on whether the volume survived.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

RedisNode& single(SimWorld& w, std::vector<std::pair<std::string, std::string>> config) {
  RedisNodeOptions o;
  o.ip = "10.0.0.1";
  o.config = std::move(config);
  return w.sim.addRedis(std::move(o));
}

// Sentinel's failover sends SLAVEOF NO ONE with CONFIG REWRITE. Where redis.conf can be
// written the promoted node boots as master after any restart; on a read-only file (a
// mounted ConfigMap, as the operator's pods have) the rewrite fails and a restart, however
// it comes, boots from the file as it is: a replica of the address it names.
void restartAfterPromotion(bool writable, bool bootsAsMaster) {
  SimWorld w;
  RedisNodeOptions o;
  o.ip = "10.0.0.1";
  o.config = {{"replicaof", "127.0.0.1 6379"}, {"save", ""}, {"appendonly", "no"}};
  o.configWritable = writable;
  RedisNode& n = w.sim.addRedis(std::move(o));
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"REPLICAOF", "NO", "ONE"}).isOk());
  const RedisReply rewrite = w.must(n.endpoint(), {"CONFIG", "REWRITE"});
  if (writable) {
    EXPECT_TRUE(rewrite.isOk());
  } else {
    EXPECT_EQ(rewrite.str, "ERR Rewriting config file: Read-only file system");
  }
  n.crash();
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(n.isMaster(), bootsAsMaster);
  if (!bootsAsMaster) {
    EXPECT_EQ(n.masterHost(), "127.0.0.1");
  }
}

TEST(Persistence, AWritableConfigKeepsTheRoleCONFIGREWRITEGave) { restartAfterPromotion(true, true); }

TEST(Persistence, AReadOnlyConfigRefusesCONFIGREWRITEAndRestartsAsItSays) { restartAfterPromotion(false, false); }

TEST(Persistence, AppendonlyNodeRestartedOnItsVolumeReloadsItsData) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "yes"}, {"save", ""}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "a", "1"}).isOk());
  w.runFor(seconds(2));  // appendfsync everysec has flushed it
  n.crash();
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "a"}).str, "1");
}

TEST(Persistence, AppendonlyEverysecLosesTheLastSecondOnAPowerLoss) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "yes"}, {"save", ""}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "old", "1"}).isOk());
  w.runFor(milliseconds(1500));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "fresh", "1"}).isOk());
  n.powerLoss();  // before the next fsync
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "old"}).str, "1");
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "fresh"}).type, RedisReply::Type::Nil);
}

// kill -9 of the process alone: the AOF was written before the reply, the kernel keeps it.
TEST(Persistence, AppendonlyKeepsEveryAcknowledgedWriteAcrossAProcessCrash) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "yes"}, {"save", ""}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "fresh", "1"}).isOk());
  n.crash();  // well before the next fsync
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "fresh"}).str, "1");
}

TEST(Persistence, RdbSavePointsAndShutdownSave) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "no"}, {"save", "1 1"}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "a", "1"}).isOk());
  w.runFor(seconds(2));  // save point "1 1" reached
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "b", "1"}).isOk());
  n.crash();
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "a"}).str, "1");
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "b"}).type, RedisReply::Type::Nil);  // after the last save
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "c", "1"}).isOk());
  n.shutdown();  // SIGTERM saves
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "c"}).str, "1");
}

// The cron reads the save points from a copy made when the configuration changes: a
// CONFIG SET of them takes effect at once, both ways.
TEST(Persistence, SavePointsSetAtRuntimeApply) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "no"}, {"save", ""}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"CONFIG", "SET", "save", "1 1"}).isOk());
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "a", "1"}).isOk());
  w.runFor(seconds(2));  // save point "1 1" reached
  ASSERT_TRUE(w.must(n.endpoint(), {"CONFIG", "SET", "save", ""}).isOk());
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "b", "1"}).isOk());
  w.runFor(seconds(2));  // no save points: nothing saved
  n.crash();
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "a"}).str, "1");
  EXPECT_EQ(w.must(n.endpoint(), {"GET", "b"}).type, RedisReply::Type::Nil);
}

TEST(Persistence, WithoutPersistenceARestartIsEmpty) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "no"}, {"save", ""}});
  w.runFor(milliseconds(100));
  ASSERT_TRUE(w.must(n.endpoint(), {"SET", "a", "1"}).isOk());
  n.shutdown();
  n.start();
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(n.endpoint(), {"DBSIZE"}).integer, 0);
}

TEST(Persistence, RecreatedPodKeepsDataOnlyOnAPersistentVolume) {
  for (bool pvc : {true, false}) {
    SimWorld w;
    RedisNodeOptions o;
    o.ip = "10.0.0.1";
    o.config = {{"appendonly", "yes"}};
    o.persistentVolume = pvc;
    w.sim.addRedis(std::move(o));
    w.runFor(milliseconds(100));
    ASSERT_TRUE(w.must({"10.0.0.1", 6379}, {"SET", "a", "1"}).isOk());
    w.runFor(seconds(2));
    RedisNode& again = w.sim.recreateRedis({"10.0.0.1", 6379}, "10.0.0.7");
    w.runFor(milliseconds(200));
    EXPECT_EQ(w.must(again.endpoint(), {"DBSIZE"}).integer, pvc ? 1 : 0) << "pvc=" << pvc;
    // The old address is gone: nothing listens there any more.
    EXPECT_TRUE(w.cmd({"10.0.0.1", 6379}, {"PING"}).is(Reason::Unavailable));
  }
}

TEST(Persistence, RestartedNodeIsLoadingBrieflyAndGetsANewRunId) {
  SimWorld w;
  RedisNode& n = single(w, {{"appendonly", "yes"}});
  w.runFor(milliseconds(100));
  for (int i = 0; i < 5000; ++i) ASSERT_TRUE(n.executeAdmin({"SET", "k" + std::to_string(i), "v"}, "").isOk());
  w.runFor(seconds(2));
  const std::string before = n.runId();
  n.crash();
  n.start(milliseconds(50));
  EXPECT_TRUE(w.cmd(n.endpoint(), {"PING"}).is(Reason::Unavailable));  // not listening yet
  w.runFor(milliseconds(51));
  EXPECT_EQ(w.must(n.endpoint(), {"PING"}).str, "LOADING Redis is loading the dataset in memory");
  EXPECT_FALSE(n.ready());
  EXPECT_EQ(infoField(w.must(n.endpoint(), {"INFO", "persistence"}).str, "loading"), "1");
  w.runFor(milliseconds(100));
  EXPECT_EQ(w.must(n.endpoint(), {"PING"}).str, "PONG");
  EXPECT_TRUE(n.ready());
  EXPECT_NE(n.runId(), before);
}

}  // namespace
}  // namespace kun::redissim::test
