// Replication between simulated redis-server nodes: sync, streaming, partial and full
// resync, divergent writes discarded, min-replicas-to-write, masterauth.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

TopologyOptions noSentinels(int replicas = 2) {
  TopologyOptions o;
  o.replicas = replicas;
  o.sentinels = 0;
  return o;
}

TEST(Replication, ReplicasFullSyncThenStreamWrites) {
  SimWorld w;
  Topology t(w.sim, noSentinels());
  const auto m = Topology::redisEp(0);
  w.runFor(milliseconds(200));
  ASSERT_TRUE(w.must(m, {"SET", "a", "1"}).isOk());
  // Redis 7 syncs diskless after repl-diskless-sync-delay (5 s): not before.
  w.runFor(seconds(3));
  EXPECT_FALSE(t.redis(1).masterLinkUp());
  EXPECT_TRUE(w.runUntil([&] { return t.redis(1).masterLinkUp() && t.redis(2).masterLinkUp(); }, seconds(5)))
      << w.lastTrace();
  EXPECT_EQ(w.must(Topology::redisEp(1), {"GET", "a"}).str, "1");
  ASSERT_TRUE(w.must(m, {"SET", "b", "2"}).isOk());
  w.runFor(milliseconds(10));
  EXPECT_EQ(w.must(Topology::redisEp(2), {"GET", "b"}).str, "2");
  EXPECT_EQ(t.redis(1).replOffset(), t.redis(0).replOffset());
  EXPECT_EQ(t.redis(1).replId(), t.redis(0).replId());
  EXPECT_EQ(t.redis(0).fullSyncs(), 2u);
}

TEST(Replication, WritesOnAReplicaAreRefused) {
  SimWorld w;
  Topology t(w.sim, noSentinels(1));
  w.runFor(seconds(7));
  auto r = w.must(Topology::redisEp(1), {"SET", "x", "1"});
  EXPECT_EQ(r.str, "READONLY You can't write against a read only replica.");
}

TEST(Replication, ReconnectingReplicaResyncsPartiallyFromTheBacklog) {
  SimWorld w;
  Topology t(w.sim, noSentinels(1));
  w.runFor(seconds(7));
  ASSERT_TRUE(t.redis(1).masterLinkUp());
  const auto partialBefore = t.redis(0).partialSyncs();
  // Cut the replica off for longer than repl-timeout (60 s): both ends drop the link.
  w.net.cutBoth("10.0.0.1", "10.0.0.2");
  for (int i = 0; i < 10; ++i) ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "k" + std::to_string(i), "v"}).isOk());
  w.runFor(seconds(65));
  EXPECT_FALSE(t.redis(1).masterLinkUp());
  EXPECT_EQ(t.redis(0).connectedReplicas(), 0u);
  w.net.heal();
  ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "after", "1"}).isOk());
  EXPECT_TRUE(w.runUntil([&] { return t.redis(1).data().count("after") == 1; }, seconds(5))) << w.lastTrace();
  EXPECT_EQ(t.redis(1).data().size(), 11u);
  EXPECT_EQ(t.redis(0).partialSyncs(), partialBefore + 1);
  EXPECT_EQ(t.redis(0).fullSyncs(), 1u);  // only the initial one
}

TEST(Replication, AShortCutDelaysTheStreamWithoutAResync) {
  SimWorld w;
  Topology t(w.sim, noSentinels(1));
  w.runFor(seconds(7));
  w.net.cutBoth("10.0.0.1", "10.0.0.2");
  ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "a", "1"}).isOk());
  w.runFor(seconds(3));
  EXPECT_EQ(t.redis(1).data().count("a"), 0u);
  w.net.heal();  // TCP delivers what was waiting
  w.runFor(milliseconds(10));
  EXPECT_EQ(t.redis(1).data().count("a"), 1u);
  EXPECT_TRUE(t.redis(1).masterLinkUp());
  EXPECT_EQ(t.redis(0).partialSyncs(), 0u);
  EXPECT_EQ(t.redis(0).fullSyncs(), 1u);
}

TEST(Replication, DemotedMasterDiscardsItsDivergentWrites) {
  SimWorld w;
  Topology t(w.sim, noSentinels(1));
  const auto a = Topology::redisEp(0), b = Topology::redisEp(1);
  w.runFor(seconds(7));
  ASSERT_TRUE(w.must(a, {"SET", "common", "1"}).isOk());
  w.runFor(milliseconds(10));
  // Split brain: promote b, keep writing on both.
  w.net.cutBoth(a.host, b.host);
  ASSERT_TRUE(w.must(b, {"REPLICAOF", "NO", "ONE"}).isOk());
  ASSERT_TRUE(w.must(a, {"SET", "only-on-a", "1"}).isOk());
  ASSERT_TRUE(w.must(b, {"SET", "only-on-b", "1"}).isOk());
  w.net.heal();
  ASSERT_TRUE(w.must(a, {"REPLICAOF", b.host, "6379"}).isOk());
  EXPECT_TRUE(w.runUntil([&] { return t.redis(0).masterLinkUp(); }, seconds(10))) << w.lastTrace();
  EXPECT_EQ(t.redis(0).data().count("only-on-a"), 0u);
  EXPECT_EQ(t.redis(0).data().count("only-on-b"), 1u);
  EXPECT_EQ(t.redis(0).data().count("common"), 1u);
  EXPECT_EQ(t.redis(1).fullSyncs(), 1u);  // a's history diverged: no partial resync
}

TEST(Replication, PromotedReplicaLetsTheOtherResyncPartially) {
  SimWorld w;
  Topology t(w.sim, noSentinels(2));
  w.runFor(seconds(7));
  ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "a", "1"}).isOk());
  w.runFor(milliseconds(10));
  const std::string oldId = t.redis(0).replId();
  t.redis(0).crash();
  ASSERT_TRUE(w.must(Topology::redisEp(1), {"REPLICAOF", "NO", "ONE"}).isOk());
  ASSERT_TRUE(w.must(Topology::redisEp(2), {"REPLICAOF", "10.0.0.2", "6379"}).isOk());
  EXPECT_TRUE(w.runUntil([&] { return t.redis(2).masterLinkUp(); }, seconds(3))) << w.lastTrace();
  EXPECT_EQ(t.redis(1).partialSyncs(), 1u);
  EXPECT_EQ(t.redis(1).fullSyncs(), 0u);
  const auto info = w.must(Topology::redisEp(1), {"INFO", "replication"}).str;
  EXPECT_EQ(infoField(info, "master_replid2"), oldId);
  EXPECT_NE(infoField(info, "second_repl_offset"), "-1");
}

TEST(Replication, MinReplicasToWriteRefusesWritesWithoutGoodReplicas) {
  SimWorld w;
  TopologyOptions o = noSentinels(1);
  o.redisConfig = {{"min-replicas-to-write", "1"}, {"min-replicas-max-lag", "10"}};
  Topology t(w.sim, o);
  const auto m = Topology::redisEp(0);
  w.runFor(milliseconds(200));
  EXPECT_EQ(w.must(m, {"SET", "a", "1"}).str, "NOREPLICAS Not enough good replicas to write.");
  w.runFor(seconds(7));
  EXPECT_TRUE(w.must(m, {"SET", "a", "1"}).isOk());
  // The replica stops acknowledging: after min-replicas-max-lag the master refuses.
  w.net.cutBoth("10.0.0.1", "10.0.0.2");
  w.runFor(seconds(12));
  EXPECT_EQ(w.must(m, {"SET", "a", "2"}).str, "NOREPLICAS Not enough good replicas to write.");
}

TEST(Replication, ReplicaWithoutTheRightMasterauthCannotSyncUntilItIsSet) {
  SimWorld w;
  TopologyOptions o = noSentinels(1);
  o.password = "s3cret";
  Topology t(w.sim, o);
  const auto r = Topology::redisEp(1);
  w.runFor(seconds(7));
  ASSERT_TRUE(t.redis(1).masterLinkUp());
  ASSERT_TRUE(w.must(r, {"CONFIG", "SET", "masterauth", "wrong"}, "s3cret").isOk());
  ASSERT_TRUE(w.must(r, {"CLIENT", "KILL", "TYPE", "master"}, "s3cret").type == RedisReply::Type::Integer);
  w.runFor(seconds(10));
  EXPECT_FALSE(t.redis(1).masterLinkUp());
  EXPECT_EQ(infoField(w.must(r, {"INFO", "replication"}, "s3cret").str, "master_link_status"), "down");
  ASSERT_TRUE(w.must(r, {"CONFIG", "SET", "masterauth", "s3cret"}, "s3cret").isOk());
  EXPECT_TRUE(w.runUntil([&] { return t.redis(1).masterLinkUp(); }, seconds(8))) << w.lastTrace();
}

}  // namespace
}  // namespace kun::redissim::test
