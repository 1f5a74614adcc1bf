// The Sentinel timer passes by instances (and whole ticks) that its plans say have nothing
// due. In check mode it runs them anyway and counts the runs that did something: through
// start-up, failovers, TILT, partitions, restarts and SENTINEL commands that count must
// stay 0, while plans do pass most instance runs by.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

constexpr const char* kName = "mymaster";

struct Checked {
  explicit Checked(TopologyOptions o = {}) : t(w.sim, o) {
    for (int i = 0; i < t.sentinelCount(); ++i) t.sentinel(i).checkTimerPlans(true);
    settled = w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40));
  }
  std::uint64_t misses() const {
    std::uint64_t n = 0;
    for (int i = 0; i < t.sentinelCount(); ++i) n += t.sentinel(i).timerPlanMisses();
    return n;
  }
  std::uint64_t skips() const {
    std::uint64_t n = 0;
    for (int i = 0; i < t.sentinelCount(); ++i) n += t.sentinel(i).timerPlanSkips();
    return n;
  }
  SimWorld w;
  Topology t;
  bool settled = false;
};

TEST(SentinelTimerPlan, SteadyStatePassesMostInstancesByWithoutMissingWork) {
  Checked c;
  ASSERT_TRUE(c.settled);
  const std::uint64_t before = c.skips();
  c.w.runFor(seconds(30));
  EXPECT_EQ(c.misses(), 0u) << c.w.lastTrace();
  // 3 sentinels x 5 instances x ~14 ticks a second, of which a PING a second, a hello
  // every 2 s and INFO every 10 s act: most instance runs are passed by.
  EXPECT_GT(c.skips() - before, 3u * 5 * 30 * 8);
}

// A failover, a hang long enough for TILT, a sentinel restart.
void failoverRestartAndTilt(SimWorld& w, Topology& t) {
  t.redis(0).crash();
  ASSERT_TRUE(w.runUntil([&] { return t.agreedMaster() && *t.agreedMaster() != Topology::redisEp(0) && t.converged(); },
                         seconds(40)))
      << w.lastTrace();
  t.redis(0).start();
  t.sentinel(1).hang();  // resumed late: TILT
  w.runFor(seconds(4));
  t.sentinel(1).resume();
  t.sentinel(2).crash();
  w.runFor(seconds(3));
  t.sentinel(2).start();
  w.runFor(seconds(45));
}

TEST(SentinelTimerPlan, FailoverRestartAndTiltMissNothing) {
  Checked c;
  ASSERT_TRUE(c.settled);
  failoverRestartAndTilt(c.w, c.t);
  EXPECT_GE(c.w.count("+tilt"), 1u);
  EXPECT_GE(c.w.count("-tilt"), 1u);
  EXPECT_EQ(c.misses(), 0u) << c.w.lastTrace();
}

// Check mode runs every tick; the default passes quiet ticks by without an event: both
// must make the same run, entry for entry.
TEST(SentinelTimerPlan, PassingTicksByChangesNothing) {
  std::vector<std::string> runs[2];
  std::uint64_t passed = 0, ran = 0;
  for (const bool check : {true, false}) {
    SimWorld w;
    Topology t{w.sim, TopologyOptions{}};
    for (int i = 0; i < t.sentinelCount(); ++i) t.sentinel(i).checkTimerPlans(check);
    ASSERT_TRUE(w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40)));
    failoverRestartAndTilt(w, t);
    for (const auto& e : w.trace.entries())
      runs[check].push_back(formatLoopTime(e.time) + " " + e.component + " | " + e.text);
    for (int i = 0; i < t.sentinelCount(); ++i) {
      if (check) {
        EXPECT_EQ(t.sentinel(i).timerPlanMisses(), 0u) << "sentinel " << i;
      } else {
        passed += t.sentinel(i).timerTicksPassedBy();
        ran += t.sentinel(i).timerTicksRun();
      }
    }
  }
  ASSERT_GT(runs[0].size(), 100u);
  EXPECT_EQ(runs[0], runs[1]);
  // A PING a second, a hello every 2 s, INFO every 10 s against 10-19 ticks a second:
  // most ticks have nothing to do.
  EXPECT_GT(passed, ran);
}

TEST(SentinelTimerPlan, PartitionsAndAHungReplicaMissNothing) {
  Checked c;
  ASSERT_TRUE(c.settled);
  c.w.net.isolate(Topology::redisEp(1).host);
  c.w.runFor(seconds(8));  // SDOWN of the replica
  c.w.net.heal();
  c.t.redis(2).hang();
  c.w.runFor(seconds(7));
  c.t.redis(2).resume();
  c.w.net.partition({{Topology::redisEp(0).host, Topology::sentinelEp(0).host},
                     {Topology::redisEp(1).host, Topology::redisEp(2).host, Topology::sentinelEp(1).host,
                      Topology::sentinelEp(2).host}});
  c.w.runFor(seconds(25));  // the majority side fails over
  c.w.net.heal();
  c.w.runFor(seconds(30));
  EXPECT_EQ(c.misses(), 0u) << c.w.lastTrace();
}

TEST(SentinelTimerPlan, SentinelCommandsThatChangeTheTimerMissNothing) {
  Checked c;
  ASSERT_TRUE(c.settled);
  const auto s0 = Topology::sentinelEp(0);
  // A shorter down-after-milliseconds makes PINGs more frequent and SDOWN sooner.
  ASSERT_TRUE(c.w.must(s0, {"SENTINEL", "SET", kName, "down-after-milliseconds", "1500"}).isOk());
  c.w.runFor(seconds(3));
  c.t.redis(2).hang();
  c.w.runFor(seconds(3));
  c.t.redis(2).resume();
  ASSERT_TRUE(c.w.must(s0, {"SENTINEL", "SET", kName, "auth-pass", "other"}).isOk());  // links dropped
  c.w.runFor(seconds(3));
  ASSERT_EQ(c.w.must(s0, {"SENTINEL", "RESET", kName}).integer, 1);
  c.w.runFor(seconds(12));
  ASSERT_TRUE(c.w.must(Topology::sentinelEp(1), {"SENTINEL", "FAILOVER", kName}).isOk());
  c.w.runFor(seconds(30));
  ASSERT_TRUE(c.w.must(Topology::sentinelEp(2), {"SENTINEL", "REMOVE", kName}).isOk());
  c.w.runFor(seconds(2));
  ASSERT_TRUE(c.w.must(Topology::sentinelEp(2),
                       {"SENTINEL", "MONITOR", kName, Topology::redisEp(0).host, "6379", "2"})
                  .isOk());
  c.w.runFor(seconds(20));
  EXPECT_EQ(c.misses(), 0u) << c.w.lastTrace();
  EXPECT_GE(c.w.count("+switch-master"), 1u);
}

// Each sentinel keeps its hello text for a master while the epochs and the master's
// address it says stay the same: after a failover every hello heard on the new master
// carries the new address and configuration epoch.
TEST(SentinelTimerPlan, HellosSayTheNewMasterAfterAFailover) {
  Checked c;
  ASSERT_TRUE(c.settled);
  c.t.redis(0).crash();
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.agreedMaster() && *c.t.agreedMaster() != Topology::redisEp(0) && c.t.converged(); },
                           seconds(40)));
  const RedisEndpoint m = *c.t.agreedMaster();
  const auto master = c.w.must(Topology::sentinelEp(0), {"SENTINEL", "MASTER", kName});
  std::string configEpoch;
  for (std::size_t i = 0; i + 1 < master.elements.size(); i += 2)
    if (master.elements[i].str == "config-epoch") configEpoch = master.elements[i + 1].str;
  ASSERT_FALSE(configEpoch.empty());
  Fabric& f = c.w.sim.fabric();
  std::vector<std::string> heard;
  ClientHandlers h;
  h.onPush = [&heard](const RedisReply& msg) {
    if (msg.elements.size() == 3) heard.push_back(msg.elements[2].str);
  };
  const ConnId conn = f.connect(0, c.w.net.intern(Topology::kClientIp), m, std::move(h));
  f.request(conn, {"SUBSCRIBE", "__sentinel__:hello"}, nullptr);
  c.w.runFor(seconds(3));  // a hello from every sentinel (each sends one every 2 s)
  f.close(conn);
  for (int i = 0; i < 3; ++i) {
    const std::string from = Topology::sentinelEp(i).host + ",26379,";
    const std::string says = "," + std::string(kName) + "," + m.host + "," + std::to_string(m.port) + "," + configEpoch;
    bool found = false;
    for (const auto& hello : heard)
      if (hello.rfind(from, 0) == 0 && hello.size() > says.size() &&
          hello.compare(hello.size() - says.size(), says.size(), says) == 0)
        found = true;
    EXPECT_TRUE(found) << "no hello from sentinel " << i << " naming " << m.host << " epoch " << configEpoch;
  }
  EXPECT_EQ(c.misses(), 0u);
}

}  // namespace
}  // namespace kun::redissim::test
