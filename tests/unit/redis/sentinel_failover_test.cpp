// Sentinel behaviour that decides whether a failover happens and what it costs — each case
// of issue 3, section 6, its own test.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

constexpr const char* kName = "mymaster";

// A running 1+2 / 3-sentinel layout whose sentinels have discovered everything.
struct Cluster {
  explicit Cluster(TopologyOptions o = {}, std::uint64_t seed = 1) : w(seed), t(w.sim, o) {
    settled = w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40));
    w.runFor(seconds(11));  // every sentinel has refreshed INFO of every node since
  }
  std::optional<RedisEndpoint> master() const { return t.agreedMaster(); }
  bool failedOverAwayFrom(const RedisEndpoint& old) const {
    auto m = t.agreedMaster();
    return m && *m != old && t.converged();
  }
  SimWorld w;
  Topology t;
  bool settled = false;
};

TEST(SentinelFailover, FailsOverWhenTheMasterCrashes) {
  Cluster c;
  ASSERT_TRUE(c.settled) << c.w.lastTrace();
  const auto old = Topology::redisEp(0);
  const std::int64_t t0 = sinceStartMillis(c.w.loop.now());
  c.t.redis(0).crash();
  ASSERT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(old); }, seconds(30))) << c.w.lastTrace();
  // The events, in Sentinel's order, and not before down-after-milliseconds.
  auto sdown = c.w.eventTimes("+sdown master mymaster 10.0.0.1 6379");
  auto odown = c.w.eventTimes("+odown master mymaster 10.0.0.1 6379 #quorum");
  auto elected = c.w.eventTimes("+elected-leader master mymaster 10.0.0.1 6379");
  auto switched = c.w.eventTimes("+switch-master mymaster 10.0.0.1 6379 ");
  ASSERT_FALSE(sdown.empty());
  ASSERT_FALSE(odown.empty());
  ASSERT_EQ(elected.size(), 1u);
  ASSERT_EQ(switched.size(), 3u);  // every sentinel switched
  EXPECT_GE(sdown.front() - t0, 5000);
  EXPECT_LT(sdown.front() - t0, 6500);
  EXPECT_LE(sdown.front(), odown.front());
  EXPECT_LE(odown.front(), elected.front());
  EXPECT_LE(elected.front(), switched.front());
  EXPECT_EQ(c.w.count("+try-failover"), c.w.count("+try-failover master mymaster 10.0.0.1 6379"));
}

// masterProbe is the one-look-up form of the three readers; it must agree with them through
// a failover (address switching mid-failover) and while a sentinel is down.
TEST(SentinelFailover, MasterProbeAgreesWithTheSeparateReaders) {
  Cluster c;
  ASSERT_TRUE(c.settled) << c.w.lastTrace();
  int disagreements = 0, checks = 0, inFailover = 0;
  auto check = [&] {
    for (int i = 0; i < 3; ++i) {
      const SentinelNode& s = c.t.sentinel(i);
      const auto p = s.masterProbe(kName);
      const auto addr = s.masterAddress(kName);
      std::optional<RedisEndpoint> probed;
      if (p.host) probed = RedisEndpoint{*p.host, p.port};
      const std::size_t replicas = addr ? s.knownReplicaCount(kName) : 0;
      if (probed != addr || p.replicas != replicas || p.failover != s.failoverInProgress(kName)) ++disagreements;
      inFailover += p.failover;
      ++checks;
    }
    return false;
  };
  c.t.sentinel(2).crash();
  c.t.redis(0).crash();
  c.w.runUntil(check, seconds(30));
  EXPECT_GT(checks, 0);
  EXPECT_GT(inFailover, 0);
  EXPECT_EQ(disagreements, 0);
}

TEST(SentinelFailover, TheNewMasterAcceptsWritesAndTheOtherReplicaFollowsIt) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  ASSERT_TRUE(c.w.must(Topology::redisEp(0), {"SET", "before", "1"}).isOk());
  c.w.runFor(milliseconds(10));
  c.t.redis(0).crash();
  ASSERT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(Topology::redisEp(0)); }, seconds(30)));
  const auto m = *c.master();
  EXPECT_TRUE(c.w.must(m, {"SET", "after", "1"}).isOk());
  EXPECT_EQ(c.w.must(m, {"GET", "before"}).str, "1");
  c.w.runFor(milliseconds(10));
  const auto other = m == Topology::redisEp(1) ? Topology::redisEp(2) : Topology::redisEp(1);
  EXPECT_EQ(c.w.must(other, {"GET", "after"}).str, "1");
  EXPECT_EQ(c.w.must(other, {"SET", "x", "1"}).str.rfind("READONLY", 0), 0u);
}

TEST(SentinelFailover, TheOldMasterReturnsAsAReplicaOfTheNewOne) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  const auto old = Topology::redisEp(0);
  c.t.redis(0).crash();
  ASSERT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(old); }, seconds(30)));
  const auto m = *c.master();
  c.t.redis(0).start();  // it comes back as the master it was (its config says so)
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.redis(0).masterHost() == m.host && c.t.redis(0).masterLinkUp(); },
                           seconds(40)))
      << c.w.lastTrace();
  EXPECT_GE(c.w.count("+convert-to-slave slave 10.0.0.1:6379"), 1u);
  EXPECT_TRUE(c.t.converged());
}

TEST(SentinelFailover, NoOdownWithoutQuorum) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  // Only sentinel 0 loses the master: it sees SDOWN alone, quorum 2 is never reached.
  c.w.net.cutBoth("10.0.1.1", "10.0.0.1");
  c.w.runFor(seconds(40));
  EXPECT_GE(c.w.count("+sdown master mymaster 10.0.0.1 6379"), 1u);
  EXPECT_EQ(c.w.count("+odown"), 0u);
  EXPECT_EQ(c.w.count("+try-failover"), 0u);
  EXPECT_EQ(*c.master(), Topology::redisEp(0));
}

TEST(SentinelFailover, NoFailoverWithoutAMajorityEvenWithQuorum) {
  TopologyOptions o;
  o.quorum = 1;  // one sentinel may declare ODOWN, but a leader needs 2 of the 3 votes
  Cluster c(o);
  ASSERT_TRUE(c.settled);
  c.t.sentinel(1).crash();
  c.t.sentinel(2).crash();
  c.t.redis(0).crash();
  c.w.runFor(seconds(60));
  EXPECT_GE(c.w.count("+odown master mymaster"), 1u);
  EXPECT_GE(c.w.count("+try-failover"), 1u);
  EXPECT_GE(c.w.count("-failover-abort-not-elected"), 1u);
  EXPECT_EQ(c.w.count("+elected-leader"), 0u);
  EXPECT_EQ(c.w.count("+switch-master"), 0u);
  EXPECT_EQ(*c.t.sentinel(0).masterAddress(kName), Topology::redisEp(0));
}

TEST(SentinelFailover, ReplicaPriorityZeroIsNeverPromoted) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  ASSERT_TRUE(c.w.must(Topology::redisEp(1), {"CONFIG", "SET", "replica-priority", "0"}).isOk());
  // Give the priority-0 replica the better offset: it must still not be chosen.
  c.w.net.cutBoth("10.0.0.1", "10.0.0.3");
  for (int i = 0; i < 20; ++i) ASSERT_TRUE(c.w.must(Topology::redisEp(0), {"SET", std::to_string(i), "x"}).isOk());
  c.w.runFor(seconds(11));  // INFO refresh
  c.t.redis(0).crash();
  c.w.net.heal();
  ASSERT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(Topology::redisEp(0)); }, seconds(40)))
      << c.w.lastTrace();
  EXPECT_EQ(*c.master(), Topology::redisEp(2));
}

TEST(SentinelFailover, NoReplicaWithNonZeroPriorityMeansNoFailover) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  ASSERT_TRUE(c.w.must(Topology::redisEp(1), {"CONFIG", "SET", "replica-priority", "0"}).isOk());
  ASSERT_TRUE(c.w.must(Topology::redisEp(2), {"CONFIG", "SET", "replica-priority", "0"}).isOk());
  c.w.runFor(seconds(11));
  c.t.redis(0).crash();
  c.w.runFor(seconds(40));
  EXPECT_GE(c.w.count("-failover-abort-no-good-slave master mymaster"), 1u);
  EXPECT_EQ(c.w.count("+switch-master"), 0u);
}

TEST(SentinelFailover, TheReplicaWithTheHighestOffsetIsPreferred) {
  for (int behind : {1, 2}) {
    Cluster c;
    ASSERT_TRUE(c.settled);
    // Replica `behind` stops receiving the stream; the other one gets everything.
    c.w.net.cutBoth("10.0.0.1", Topology::redisEp(behind).host);
    for (int i = 0; i < 20; ++i)
      ASSERT_TRUE(c.w.must(Topology::redisEp(0), {"SET", std::to_string(i), "x"}).isOk());
    c.w.runFor(seconds(11));
    c.t.redis(0).crash();
    ASSERT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(Topology::redisEp(0)); }, seconds(40)))
        << c.w.lastTrace();
    EXPECT_EQ(*c.master(), Topology::redisEp(3 - behind)) << "behind=" << behind;
    EXPECT_EQ(c.w.must(*c.master(), {"DBSIZE"}).integer, 20);
  }
}

TEST(SentinelFailover, AHungMasterIsFailedOverAndRejoinsAsAReplica) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  c.t.redis(0).hang();
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.agreedMaster() && *c.t.agreedMaster() != Topology::redisEp(0); },
                           seconds(30)))
      << c.w.lastTrace();
  c.w.runFor(seconds(5));
  c.t.redis(0).resume();
  // It wakes up believing it is the master; the sentinels convert it.
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.converged(); }, seconds(40))) << c.w.lastTrace();
  EXPECT_FALSE(c.t.redis(0).isMaster());
  EXPECT_GE(c.w.count("+convert-to-slave slave 10.0.0.1:6379"), 1u);
}

TEST(SentinelFailover, SentinelResetClearsAStaleReplica) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  c.w.sim.remove(Topology::redisEp(2));  // the replica's pod is gone for good
  c.w.runFor(seconds(30));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(c.t.sentinel(i).knownReplicas(kName).size(), 2u);  // still listed
  auto reps = c.w.must(Topology::sentinelEp(0), {"SENTINEL", "REPLICAS", kName});
  ASSERT_EQ(reps.elements.size(), 2u);
  bool staleIsDown = false;
  for (const auto& r : reps.elements)
    if (r.elements[1].str == "10.0.0.3:6379") staleIsDown = r.elements[9].str.rfind("s_down", 0) == 0;
  EXPECT_TRUE(staleIsDown);
  // One sentinel at a time, each waiting until it rediscovered the live replica.
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(c.w.must(Topology::sentinelEp(i), {"SENTINEL", "RESET", kName}).integer, 1);
    EXPECT_TRUE(c.t.sentinel(i).knownReplicas(kName).empty());
    ASSERT_TRUE(c.w.runUntil([&] { return c.t.sentinel(i).knownReplicas(kName).size() == 1; }, seconds(15)))
        << c.w.lastTrace();
    EXPECT_EQ(c.t.sentinel(i).knownReplicas(kName)[0], Topology::redisEp(1));
  }
  EXPECT_TRUE(c.w.runUntil([&] { return c.t.sentinelListsExact(); }, seconds(10)));
}

TEST(SentinelFailover, AStaleSentinelEntryRaisesTheMajorityNeeded) {
  // Without a stale entry: 2 of 3 sentinels left still elect a leader.
  {
    Cluster c;
    ASSERT_TRUE(c.settled);
    c.t.sentinel(2).crash();
    c.t.redis(0).crash();
    EXPECT_TRUE(c.w.runUntil([&] { return c.failedOverAwayFrom(Topology::redisEp(0)); }, seconds(40)));
  }
  // Four known sentinels, one of them gone for good: 2 live of 4 cannot reach 3 votes.
  {
    TopologyOptions o;
    o.sentinels = 4;
    Cluster c(o);
    ASSERT_TRUE(c.settled);
    c.w.sim.remove(Topology::sentinelEp(3));
    c.w.runFor(seconds(10));
    EXPECT_EQ(c.t.sentinel(0).knownSentinels(kName), 3u);  // the stale one stays listed
    c.t.sentinel(2).crash();
    c.t.redis(0).crash();
    c.w.runFor(seconds(60));
    EXPECT_GE(c.w.count("+odown master mymaster"), 1u);
    EXPECT_GE(c.w.count("-failover-abort-not-elected"), 1u);
    EXPECT_EQ(c.w.count("+switch-master"), 0u);
  }
}

TEST(SentinelFailover, ResettingAllSentinelsAtOnceThenLosingTheMasterLeavesNoFailover) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(c.w.must(Topology::sentinelEp(i), {"SENTINEL", "RESET", "*"}).integer, 1);
  c.t.redis(0).crash();
  c.w.runFor(seconds(90));
  // Each sentinel forgot the replicas and the other sentinels, and can learn them only
  // through the master that is gone: nobody reaches quorum, nothing is failed over.
  for (int i = 0; i < 3; ++i) {
    EXPECT_TRUE(c.t.sentinel(i).knownReplicas(kName).empty());
    EXPECT_EQ(c.t.sentinel(i).knownSentinels(kName), 0u);
  }
  EXPECT_EQ(c.w.count("+odown"), 0u);
  EXPECT_EQ(c.w.count("+switch-master"), 0u);
  EXPECT_TRUE(c.t.redis(1).isMaster() == false && c.t.redis(2).isMaster() == false);
}

// Writes from a client on the master's side of a partition, every 100 ms for `ms`.
struct Writes {
  int acked = 0, refused = 0;
  std::vector<std::string> ackedKeys;
  std::int64_t lastAckMs = -1;
};
Writes writeFor(SimWorld& w, const RedisEndpoint& to, std::int64_t ms) {
  Writes out;
  const std::int64_t start = sinceStartMillis(w.loop.now());
  for (int i = 0; sinceStartMillis(w.loop.now()) - start < ms; ++i) {
    const std::string key = "w" + std::to_string(start) + "-" + std::to_string(i);
    auto r = w.cmd(to, {"SET", key, "1"});
    if (r && r->isOk()) {
      ++out.acked;
      out.ackedKeys.push_back(key);
      out.lastAckMs = sinceStartMillis(w.loop.now()) - start;
    } else {
      ++out.refused;
    }
    w.runFor(milliseconds(100));
  }
  return out;
}

int lostOn(SimWorld& w, const RedisEndpoint& m, const std::vector<std::string>& keys) {
  int lost = 0;
  for (const auto& k : keys)
    if (w.must(m, {"GET", k}).type == RedisReply::Type::Nil) ++lost;
  return lost;
}

TEST(SentinelFailover, AMinorityPartitionedMasterAcknowledgesWritesThatAreLostAfterTheHeal) {
  Cluster c;
  ASSERT_TRUE(c.settled);
  // The master and this client on one side; replicas and sentinels on the other.
  c.w.net.partition({{"10.0.0.1", Topology::kClientIp}, {"10.0.0.2", "10.0.0.3", "10.0.1.1", "10.0.1.2", "10.0.1.3"}});
  Writes during = writeFor(c.w, Topology::redisEp(0), 20000);
  EXPECT_EQ(during.refused, 0);
  EXPECT_GT(during.acked, 150);
  c.w.net.heal();
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.converged() && !c.t.redis(0).isMaster(); }, seconds(40)))
      << c.w.lastTrace();
  EXPECT_EQ(lostOn(c.w, *c.master(), during.ackedKeys), during.acked);  // every one of them
}

TEST(SentinelFailover, MinReplicasToWriteBoundsWhatAPartitionedMasterAcknowledges) {
  TopologyOptions o;
  o.redisConfig = {{"min-replicas-to-write", "1"}, {"min-replicas-max-lag", "10"}};
  Cluster c(o);
  ASSERT_TRUE(c.settled);
  c.w.net.partition({{"10.0.0.1", Topology::kClientIp}, {"10.0.0.2", "10.0.0.3", "10.0.1.1", "10.0.1.2", "10.0.1.3"}});
  Writes during = writeFor(c.w, Topology::redisEp(0), 20000);
  // Once no replica acknowledged for min-replicas-max-lag, the master refuses writes.
  EXPECT_GT(during.refused, 70);
  EXPECT_LE(during.lastAckMs, 12000);
  c.w.net.heal();
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.converged() && !c.t.redis(0).isMaster(); }, seconds(40)));
  EXPECT_EQ(lostOn(c.w, *c.master(), during.ackedKeys), during.acked);  // the window is bounded, not closed
}

TEST(SentinelFailover, MissingAuthPassMeansNoFailover) {
  TopologyOptions o;
  o.password = "s3cret";
  o.sentinelAuthPass = false;
  SimWorld w;
  Topology t(w.sim, o);
  w.runFor(seconds(30));
  // Every reply is NOAUTH: the sentinels never learn the replicas or each other.
  EXPECT_TRUE(t.sentinel(0).knownReplicas(kName).empty());
  t.redis(0).crash();
  w.runFor(seconds(60));
  EXPECT_EQ(w.count("+switch-master"), 0u);
  EXPECT_EQ(w.count("+elected-leader"), 0u);
  // With auth-pass set (SENTINEL SET) it works.
  SimWorld w2;
  TopologyOptions o2 = o;
  Topology t2(w2.sim, o2);
  w2.runFor(seconds(1));
  for (int i = 0; i < 3; ++i)
    EXPECT_TRUE(w2.must(Topology::sentinelEp(i), {"SENTINEL", "SET", kName, "auth-pass", "s3cret"}).isOk());
  ASSERT_TRUE(w2.runUntil([&] { return t2.converged() && t2.sentinelListsExact(); }, seconds(40)));
  t2.redis(0).crash();
  EXPECT_TRUE(w2.runUntil([&] { return t2.agreedMaster() && *t2.agreedMaster() != Topology::redisEp(0); },
                          seconds(40)));
}

}  // namespace
}  // namespace kun::redissim::test
