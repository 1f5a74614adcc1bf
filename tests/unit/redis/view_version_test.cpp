// RedisNode/SentinelNode::viewVersion: the harness's sampler and the readiness poll keep
// what they derived from a process (its appendViewDigest, the probe's inputs) while its
// version, incarnation and state (and a redis-server's loading) stay. A write to a field the
// digest reads that does not move the version would leave them judging a stale view: here,
// through a run full of faults and state-changing commands, every process is looked at
// every 50 ms and its digest must not have moved while those stayed.
#include <gtest/gtest.h>

#include <map>
#include <optional>
#include <string>

#include "fakeapi/redis/view_digest.h"
#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

// What a reader keys a kept digest on, and the digest.
struct Kept {
  std::uint64_t incarnation = 0, version = 0;
  SimProcess::State state{};
  bool loading = false;
  ViewHash digest;
};

struct Watch {
  std::map<ProcId, Kept> kept;
  std::uint64_t compared = 0, versionMoves = 0;
  std::vector<std::string> missed;

  void look(const SimProcess& p, std::uint64_t version, bool loading, const ViewHash& now) {
    const Kept k{p.incarnation(), version, p.state(), loading, now};
    auto it = kept.find(p.procId());
    if (it != kept.end()) {
      Kept& was = it->second;
      if (was.incarnation == k.incarnation && was.version == k.version && was.state == k.state &&
          was.loading == k.loading) {
        ++compared;
        if (was.digest != now && missed.size() < 5)
          missed.push_back(p.traceName() + " at " + std::to_string(p.nowMs()) + " ms");
      } else if (was.version != k.version) {
        ++versionMoves;
      }
    }
    kept[p.procId()] = k;
  }
  void lookAll(const Topology& t) {
    for (int i = 0; i < t.redisCount(); ++i) {
      const RedisNode& n = t.redis(i);
      ViewHash h;
      n.appendViewDigest(h);
      look(n, n.viewVersion(), n.loading(), h);
    }
    for (int i = 0; i < t.sentinelCount(); ++i) {
      const SentinelNode& s = t.sentinel(i);
      ViewHash h;
      s.appendViewDigest("mymaster", h);
      look(s, s.viewVersion(), false, h);
    }
  }
};

// One fault or command, drawn from rng, against the processes of t.
void chaosStep(SimWorld& w, Topology& t, Random& rng) {
  const int r = static_cast<int>(rng.below(static_cast<std::uint64_t>(t.redisCount())));
  const int s = static_cast<int>(rng.below(static_cast<std::uint64_t>(t.sentinelCount())));
  RedisNode& n = t.redis(r);
  SentinelNode& sn = t.sentinel(s);
  const RedisEndpoint rep = Topology::redisEp(r), sep = Topology::sentinelEp(s);
  switch (rng.below(14)) {
    case 0: n.crash(); break;
    case 1: n.start(milliseconds(50)); break;
    case 2: sn.hang(); break;
    case 3: sn.resume(); break;
    case 4: n.hang(); break;
    case 5: n.resume(); break;
    case 6: w.net.isolate(rep.host); break;
    case 7: w.net.heal(); break;
    case 8:
      (void)w.cmd(sep, {"SENTINEL", "SET", "mymaster", "down-after-milliseconds", std::to_string(2000 + rng.below(4000))});
      break;
    case 9: (void)w.cmd(sep, {"SENTINEL", "FAILOVER", "mymaster"}); break;
    case 10: (void)w.cmd(sep, {"SENTINEL", "RESET", "mymaster"}); break;
    case 11: (void)w.cmd(rep, {"CONFIG", "SET", "replica-priority", std::to_string(rng.below(200))}); break;
    case 12: (void)w.cmd(rep, {"REPLICAOF", "NO", "ONE"}); break;
    case 13: {
      const RedisEndpoint other = Topology::redisEp(static_cast<int>(rng.below(static_cast<std::uint64_t>(t.redisCount()))));
      (void)w.cmd(rep, {"REPLICAOF", other.host, std::to_string(other.port)});
      break;
    }
    default: break;
  }
  if (rng.chance(1, 8)) {
    sn.crash();
    sn.start(milliseconds(50));
  }
}

TEST(ViewVersion, EveryChangeOfWhatTheDigestReadsMovesIt) {
  for (std::uint64_t seed : {1u, 2u, 3u, 4u}) {
    SimWorld w(seed);
    Topology t{w.sim, TopologyOptions{}};
    Watch watch;
    Random rng(seed * 7919);
    TimePoint nextFault = w.loop.now() + seconds(20);
    const TimePoint end = w.loop.now() + minutes(4);
    while (w.loop.now() < end) {
      w.runFor(milliseconds(50));
      watch.lookAll(t);
      if (w.loop.now() >= nextFault) {
        chaosStep(w, t, rng);
        watch.lookAll(t);  // a command answered now has run: its writes count
        nextFault = w.loop.now() + milliseconds(200 + static_cast<std::int64_t>(rng.below(3000)));
      }
    }
    EXPECT_GT(watch.compared, 10000u) << "seed " << seed;
    EXPECT_GT(watch.versionMoves, 50u) << "seed " << seed;
    EXPECT_TRUE(watch.missed.empty()) << "seed " << seed << ": digest moved without the view version: "
                                      << watch.missed.front();
  }
}

// Through the public command paths: a setting the views read moves the version.
TEST(ViewVersion, CommandsThatChangeWhatTheViewsReadMoveIt) {
  SimWorld w;
  Topology t{w.sim, TopologyOptions{}};
  ASSERT_TRUE(w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40)));
  SentinelNode& s = t.sentinel(0);
  std::uint64_t v = s.viewVersion();
  w.must(Topology::sentinelEp(0), {"SENTINEL", "SET", "mymaster", "quorum", "3"});
  EXPECT_NE(s.viewVersion(), v);
  v = s.viewVersion();
  w.must(Topology::sentinelEp(0), {"SENTINEL", "MASTER", "mymaster"});
  EXPECT_EQ(s.viewVersion(), v) << "a read changes nothing";

  RedisNode& n = t.redis(1);
  v = n.viewVersion();
  w.must(Topology::redisEp(1), {"CONFIG", "SET", "requirepass", "pw"});
  EXPECT_NE(n.viewVersion(), v);
  v = n.viewVersion();
  w.must(Topology::redisEp(1), {"REPLICAOF", "NO", "ONE"}, "pw");
  EXPECT_NE(n.viewVersion(), v);
  v = n.viewVersion();
  w.must(Topology::redisEp(1), {"INFO", "replication"}, "pw");
  EXPECT_EQ(n.viewVersion(), v) << "a read changes nothing";
}

}  // namespace
}  // namespace kun::redissim::test
