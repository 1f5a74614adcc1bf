// The network model and the RedisAdmin over it: reachability faults and how a blocking
// client sees them (Unavailable when refused, Timeout when unreachable or hung).
#include <gtest/gtest.h>

#include <string>
#include <unordered_map>
#include <vector>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

TEST(NetworkModel, FaultsCutTheRightLinks) {
  SimLoop loop;
  NetworkModel net(loop, Random(1));
  EXPECT_TRUE(net.reachable("a", "b"));
  net.cut("a", "b");
  EXPECT_FALSE(net.reachable("a", "b"));
  EXPECT_TRUE(net.reachable("b", "a"));  // one way
  net.heal();
  net.isolate("c");
  EXPECT_FALSE(net.reachable("a", "c"));
  EXPECT_FALSE(net.reachable("c", "b"));
  EXPECT_TRUE(net.reachable("c", "c"));
  net.heal();
  net.partition({{"a", "b"}, {"c"}});
  EXPECT_TRUE(net.reachable("a", "b"));
  EXPECT_FALSE(net.reachable("a", "c"));
  EXPECT_TRUE(net.reachable("a", "d"));  // in no group
  EXPECT_FALSE(net.healthy());
  net.heal();
  EXPECT_TRUE(net.healthy());
}

// reachable() answers without looking while nothing blocks anywhere: lifting one fault
// of several must keep the others, and lifting the last must open every link again.
TEST(NetworkModel, LiftingOneFaultKeepsTheOthers) {
  SimLoop loop;
  NetworkModel net(loop, Random(1));
  net.cut("a", "b");
  net.cut("c", "d");
  net.restore("a", "b");
  EXPECT_TRUE(net.reachable("a", "b"));
  EXPECT_FALSE(net.reachable("c", "d"));
  net.isolate("e");
  net.restore("c", "d");
  EXPECT_TRUE(net.reachable("c", "d"));
  EXPECT_FALSE(net.reachable("a", "e"));
  net.partition({{"a"}, {"b"}});
  net.reconnect("e");
  EXPECT_TRUE(net.reachable("a", "e"));
  EXPECT_FALSE(net.reachable("a", "b"));
  net.partition({});
  EXPECT_TRUE(net.reachable("a", "b"));
  EXPECT_TRUE(net.healthy());
}

TEST(NetworkModel, DeliversWithLatencyInOrderAndDropsOnCutLinks) {
  SimLoop loop;
  NetworkModel::Options o;
  o.baseLatency = milliseconds(5);
  o.jitter = milliseconds(3);
  NetworkModel net(loop, Random(7), o);
  const auto a = net.intern("a"), b = net.intern("b");
  std::vector<int> got;
  std::vector<std::int64_t> at;
  for (int i = 0; i < 50; ++i) net.send(a, b, [&, i] { got.push_back(i); at.push_back(sinceStartMillis(loop.now())); });
  net.addLatency("a", "b", milliseconds(100));
  net.send(a, b, [&] { got.push_back(100); at.push_back(sinceStartMillis(loop.now())); });
  loop.runFor(seconds(1));
  ASSERT_EQ(got.size(), 51u);
  for (int i = 0; i < 50; ++i) EXPECT_EQ(got[i], i);
  EXPECT_GE(at.front(), 5);
  EXPECT_GE(at.back(), 105);
  net.heal();
  net.send(a, b, [&] { got.push_back(200); });
  net.cut("a", "b");  // cut while in flight: held, as TCP retransmits it
  net.send(a, b, [&] { got.push_back(201); });
  loop.runFor(seconds(10));
  EXPECT_EQ(got.size(), 51u);
  EXPECT_EQ(net.held(), 2u);
  net.heal();
  loop.runFor(seconds(1));
  ASSERT_EQ(got.size(), 53u);
  EXPECT_EQ(got[51], 200);
  EXPECT_EQ(got[52], 201);
}

TEST(NetworkModel, WhatWaitsLongerThanTcpGivesUpIsDropped) {
  SimLoop loop;
  NetworkModel::Options o;
  o.tcpGiveUp = seconds(60);
  NetworkModel net(loop, Random(1), o);
  int got = 0;
  net.cut("a", "b");
  net.send(net.intern("a"), net.intern("b"), [&] { ++got; });
  loop.runFor(seconds(61));
  net.heal();
  loop.runFor(seconds(1));
  EXPECT_EQ(got, 0);
  EXPECT_EQ(net.held(), 0u);
}

TEST(NetworkModel, LossDelaysButKeepsTheStream) {
  SimLoop loop;
  NetworkModel net(loop, Random(3));
  net.setLoss("a", "b", 1, 2);
  const auto a = net.intern("a"), b = net.intern("b");
  std::vector<int> got;
  for (int i = 0; i < 20; ++i) net.send(a, b, [&, i] { got.push_back(i); });
  loop.runFor(seconds(60));
  ASSERT_EQ(got.size(), 20u);
  for (int i = 0; i < 20; ++i) EXPECT_EQ(got[i], i);
  EXPECT_GE(loop.now().time_since_epoch(), milliseconds(200));
}

TEST(SimRedisAdmin, TransportFailuresAreResultErrors) {
  SimWorld w;
  RedisNodeOptions o;
  o.ip = "10.0.0.1";
  RedisNode& n = w.sim.addRedis(std::move(o));
  const RedisEndpoint ep = n.endpoint();
  EXPECT_TRUE(w.cmd(ep, {"PING"}).is(Reason::Unavailable));  // still booting
  w.runFor(milliseconds(100));
  EXPECT_EQ(w.must(ep, {"PING"}).str, "PONG");
  EXPECT_TRUE(w.cmd({"10.0.0.99", 6379}, {"PING"}).is(Reason::Unavailable));
  w.net.isolate(ep.host);
  EXPECT_TRUE(w.cmd(ep, {"PING"}).is(Reason::Timeout));
  w.net.heal();
  w.net.cut(ep.host, Topology::kClientIp);  // requests arrive, replies do not
  EXPECT_TRUE(w.cmd(ep, {"SET", "a", "1"}).is(Reason::Timeout));
  w.net.heal();
  EXPECT_EQ(w.must(ep, {"GET", "a"}).str, "1");  // it did run
  n.hang();
  EXPECT_TRUE(w.cmd(ep, {"SET", "b", "1"}).is(Reason::Timeout));
  EXPECT_EQ(n.data().count("b"), 0u);
  n.resume();
  w.runFor(milliseconds(1));
  EXPECT_EQ(n.data().count("b"), 1u);  // ran when the process resumed
  n.crash();
  EXPECT_TRUE(w.cmd(ep, {"PING"}).is(Reason::Unavailable));
}

TEST(SimRedisAdmin, CountsStateChangingCommandsAndRedactsPasswords) {
  SimWorld w;
  RedisNodeOptions o;
  o.ip = "10.0.0.1";
  w.sim.addRedis(std::move(o));
  w.runFor(milliseconds(100));
  auto& admin = w.sim.admin(Topology::kClientIp);
  (void)admin.command({"10.0.0.1", 6379}, {"INFO", "replication"});
  (void)admin.command({"10.0.0.1", 6379}, {"CONFIG", "GET", "maxmemory"});
  EXPECT_EQ(admin.stateChangingCalls(), 0u);
  (void)admin.command({"10.0.0.1", 6379}, {"CONFIG", "SET", "requirepass", "topsecret"});
  EXPECT_EQ(admin.stateChangingCalls(), 1u);
  for (const auto& e : w.trace.entries()) EXPECT_EQ(e.text.find("topsecret"), std::string::npos) << e.text;
  EXPECT_EQ(redactedCommand({"AUTH", "pw"}), "AUTH ******");
  EXPECT_EQ(redactedCommand({"SENTINEL", "SET", "m", "auth-pass", "pw"}), "SENTINEL SET m auth-pass ******");
}

TEST(SimRedisAdmin, SameSeedSameTrace) {
  auto run = [](std::uint64_t seed) {
    SimWorld w(seed);
    Topology t(w.sim, TopologyOptions{});
    w.runFor(seconds(20));
    t.redis(0).crash();
    w.runFor(seconds(30));
    return w.trace.hashHex();
  };
  EXPECT_EQ(run(5), run(5));
  EXPECT_NE(run(5), run(6));
}


// The admin keeps each server's network id: whichever host a fault isolates, only that one
// times out, however the calls to the hosts alternate.
TEST(SimRedisAdmin, EachHostReachedAsItsOwn) {
  SimWorld w;
  Topology t(w.sim, TopologyOptions{});
  w.runFor(seconds(2));
  for (int cut = 0; cut < t.redisCount(); ++cut) {
    w.net.isolate(Topology::redisEp(cut).host);
    for (int round = 0; round < 2; ++round) {
      for (int i = 0; i < t.redisCount(); ++i) {
        auto r = w.cmd(Topology::redisEp(i), {"PING"});
        if (i == cut) EXPECT_TRUE(r.is(Reason::Timeout)) << i;
        else EXPECT_TRUE(r.ok() && r->str == "PONG") << i;
      }
    }
    w.net.heal();
  }
}

// What counts as a read, in any case of the command and subcommand names.
TEST(SimRedisAdmin, ReadOnlyCommandsInAnyCase) {
  for (const Argv& argv : std::vector<Argv>{{"INFO"}, {"info", "replication"}, {"Ping"}, {"ROLE"}, {"config", "GET", "x"},
                                            {"CONFIG", "get", "x"}, {"Client", "List"}, {"SENTINEL", "MASTERS"},
                                            {"sentinel", "Master", "m"}, {"Sentinel", "REPLICAS", "m"},
                                            {"SENTINEL", "slaves", "m"}, {"SENTINEL", "SENTINELS", "m"},
                                            {"sentinel", "config", "GET", "x"}, {"SENTINEL", "DEBUG"}, {}})
    EXPECT_TRUE(isReadOnlyCommand(argv)) << (argv.empty() ? "" : argv[0]);
  for (const Argv& argv : std::vector<Argv>{{"SET", "k", "v"}, {"ReplicaOf", "no", "one"}, {"CONFIG", "SET", "x", "y"},
                                            {"config"}, {"CLIENT", "KILL"}, {"SENTINEL", "RESET", "m"},
                                            {"sentinel", "config", "set", "x", "y"}, {"SENTINEL", "DEBUG", "x", "1"},
                                            {"SENTINEL", "MASTER_"}, {"INFO_"}, {"inf\x0f"}, {"PINg!"},
                                            {std::string(40, 'x')}, {"SENTINEL", std::string(30, 'M')}})
    EXPECT_FALSE(isReadOnlyCommand(argv)) << argv[0] << " " << (argv.size() > 1 ? argv[1] : "");
}

TEST(Fabric, EndpointTableFindsEveryHostShortOrLong) {
  // EndpointHash reads a host's first and last eight bytes: hosts shorter than that, and
  // names that differ only in the middle, must still be told apart by the table.
  std::unordered_map<RedisEndpoint, int, EndpointHash> table;
  const std::vector<RedisEndpoint> eps = {{"a", 1},
                                          {"a", 2},
                                          {"", 6379},
                                          {"10.0.0.1", 6379},
                                          {"10.0.0.1", 26379},
                                          {"10.0.0.11", 6379},
                                          {"10.0.1.1", 6379},
                                          {"redis-0.svc.cluster.local", 6379},
                                          {"redis-1.svc.cluster.local", 6379}};
  for (std::size_t i = 0; i < eps.size(); ++i) table[eps[i]] = static_cast<int>(i);
  ASSERT_EQ(table.size(), eps.size());
  for (std::size_t i = 0; i < eps.size(); ++i) {
    EXPECT_EQ(EndpointHash{}(eps[i]), EndpointHash{}(RedisEndpoint{std::string(eps[i].host), eps[i].port}));
    EXPECT_EQ(table.at(eps[i]), static_cast<int>(i));
  }
  EXPECT_EQ(table.count({"10.0.0.2", 6379}), 0u);
}

}  // namespace
}  // namespace kun::redissim::test
