// Network faults: partitions of each mode, delay, loss, swizzle-clog; overlapping faults
// compose per link and ending one leaves the others (and cuts made by others) in place.
#include <gtest/gtest.h>

#include <set>

#include "chaos/faults/fault_injector.h"
#include "chaos/faults/network_faults.h"
#include "core/runtime/sim_loop.h"
#include "tests/unit/chaos/chaos_world.h"

namespace kun::chaos {
namespace {

using chaostest::ChaosWorld;

TEST(NetworkFaults, OverlappingCutsEndIndependently) {
  SimLoop loop;
  NetworkModel net(loop, Random(1));
  NetworkFaults nf(net);
  const auto a = nf.add(cutBetween({"10.0.0.1"}, {"10.0.0.2"}));
  const auto b = nf.add(cutOneWay({"10.0.0.1"}, {"10.0.0.2", "10.0.0.3"}));
  EXPECT_FALSE(net.reachable("10.0.0.2", "10.0.0.1"));
  EXPECT_FALSE(net.reachable("10.0.0.1", "10.0.0.3"));
  nf.remove(a);
  EXPECT_TRUE(net.reachable("10.0.0.2", "10.0.0.1"));   // only a cut this way
  EXPECT_FALSE(net.reachable("10.0.0.1", "10.0.0.2"));  // b still cuts it
  nf.remove(b);
  EXPECT_TRUE(net.healthy());
}

TEST(NetworkFaults, LeavesCutsItDidNotMake) {
  SimLoop loop;
  NetworkModel net(loop, Random(1));
  net.cut("10.0.0.5", "10.0.0.6");
  NetworkFaults nf(net);
  nf.remove(nf.add(cutBetween({"10.0.0.1"}, {"10.0.0.2"})));
  EXPECT_FALSE(net.reachable("10.0.0.5", "10.0.0.6"));
  EXPECT_TRUE(net.reachable("10.0.0.1", "10.0.0.2"));
}

TEST(NetworkFaults, LatencyCombinesToTheLargestAndIsRemoved) {
  SimLoop loop;
  NetworkModel net(loop, Random(1), NetworkModel::Options{microseconds(100), Duration{0}}, nullptr);
  NetworkFaults nf(net);
  const auto from = net.intern("10.0.0.1"), to = net.intern("10.0.0.2");
  auto deliveryDelay = [&] {
    const auto sent = loop.now();
    TimePoint got{};
    net.send(from, to, [&] { got = loop.now(); });
    loop.runFor(seconds(10));
    return got - sent;
  };
  const auto a = nf.add(aroundIp("10.0.0.1", {"10.0.0.2"}, LinkEffect{false, milliseconds(50), 0, 1}));
  const auto b = nf.add(aroundIp("10.0.0.1", {"10.0.0.2"}, LinkEffect{false, milliseconds(300), 0, 1}));
  EXPECT_EQ(deliveryDelay(), milliseconds(300) + microseconds(100));
  nf.remove(b);
  EXPECT_EQ(deliveryDelay(), milliseconds(50) + microseconds(100));
  nf.remove(a);
  EXPECT_EQ(deliveryDelay(), microseconds(100));
  EXPECT_TRUE(net.healthy());
}

class NetFaults : public ::testing::Test {
 protected:
  void SetUp() override { ASSERT_TRUE(w.ready); }
  std::vector<std::string> sentinelIps() {
    std::vector<std::string> out;
    for (const auto& p : w.targets.sentinelPods()) out.push_back(p.ip);
    return out;
  }
  std::vector<std::string> redisIps() {
    std::vector<std::string> out;
    for (const auto& p : w.targets.redisPods()) out.push_back(p.ip);
    return out;
  }
  Fault partition(PartitionMode m) {
    Fault f;
    f.kind = FaultKind::NetworkPartition;
    f.mode = m;
    f.duration = seconds(30);
    return f;
  }
  ChaosWorld w;
  FaultInjector inj{w.seams(), Random(11)};
};

TEST_F(NetFaults, MasterCutFromSentinelsOnly) {
  auto r = inj.begin(partition(PartitionMode::MasterSentinels));
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const auto& s : sentinelIps()) {
    EXPECT_FALSE(w.net.reachable(w.masterIp, s));
    EXPECT_FALSE(w.net.reachable(s, w.masterIp));
    for (const auto& ip : redisIps()) {
      if (ip != w.masterIp) {
        EXPECT_TRUE(w.net.reachable(s, ip));
      }
    }
  }
  for (const auto& ip : redisIps()) EXPECT_TRUE(w.net.reachable(w.masterIp, ip));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, MasterCutFromSentinelsCausesAFailover) {
  auto r = inj.begin(partition(PartitionMode::MasterSentinels));
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(w.cluster.runUntil(
      [&] {
        auto m = w.targets.master();
        return m && m->ip != w.masterIp;
      },
      minutes(1)));
}

TEST_F(NetFaults, SplitSentinelsSeparatesTwoGroups) {
  auto r = inj.begin(partition(PartitionMode::SplitSentinels));
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto s = sentinelIps();
  int cutPairs = 0;
  for (const auto& a : s)
    for (const auto& b : s)
      if (a < b && !w.net.reachable(a, b)) ++cutPairs;
  EXPECT_EQ(cutPairs, 2);  // one sentinel alone against two: two pairs cut
  for (const auto& a : s) EXPECT_TRUE(w.net.reachable(a, w.masterIp));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, OperatorCutFromRedis) {
  auto r = inj.begin(partition(PartitionMode::OperatorRedis));
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const auto& ip : redisIps()) EXPECT_FALSE(w.net.reachable(chaostest::kOperatorIp, ip));
  for (const auto& ip : sentinelIps()) EXPECT_FALSE(w.net.reachable(ip, chaostest::kOperatorIp));
  EXPECT_TRUE(w.net.reachable(w.masterIp, sentinelIps()[0]));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, OneWayDropsOneDirection) {
  Fault f = partition(PartitionMode::OneWay);
  f.from = "master";
  f.to = "sentinels";
  auto r = inj.begin(f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  for (const auto& s : sentinelIps()) {
    EXPECT_FALSE(w.net.reachable(w.masterIp, s));
    EXPECT_TRUE(w.net.reachable(s, w.masterIp));
  }
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, LossOfEveryPacketFailsProbesUntilTheEnd) {
  Fault f;
  f.kind = FaultKind::NetworkLoss;
  f.target = "master";
  f.duration = seconds(10);
  f.rateNum = f.rateDen = 1;
  auto r = inj.begin(f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto m = w.net.intern(w.masterIp), s = w.net.intern(sentinelIps()[0]);
  EXPECT_FALSE(w.net.probe(s, m));
  EXPECT_FALSE(w.net.probe(m, s));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.probe(s, m));
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, DelayAppliesToTheTargetsLinks) {
  Fault f;
  f.kind = FaultKind::NetworkDelay;
  f.target = "master";
  f.duration = seconds(10);
  f.latency = seconds(2);
  auto r = inj.begin(f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  const auto m = w.net.intern(w.masterIp), s = w.net.intern(sentinelIps()[0]);
  const auto sent = w.cluster.loop().now();
  TimePoint got{};
  w.net.send(s, m, [&] { got = w.cluster.loop().now(); });
  w.cluster.runFor(seconds(5));
  EXPECT_GE(got - sent, seconds(2));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

TEST_F(NetFaults, SwizzleClogCutsOneByOneThenHealsAll) {
  Fault f;
  f.kind = FaultKind::SwizzleClog;
  f.count = 3;
  f.duration = seconds(70);  // a step every 10s: cuts at 10, 20, 30; heals at 40, 50, 60
  auto r = inj.begin(f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  std::vector<std::string> ips = redisIps();
  for (const auto& s : sentinelIps()) ips.push_back(s);
  ips.push_back(chaostest::kOperatorIp);
  auto cutPairs = [&] {
    int n = 0;
    for (const auto& a : ips)
      for (const auto& b : ips)
        if (a < b && !w.net.reachable(a, b)) ++n;
    return n;
  };
  std::vector<int> seen;
  for (int step = 0; step < 7; ++step) {
    w.cluster.runFor(seconds(10));
    seen.push_back(cutPairs());
  }
  EXPECT_EQ(seen, (std::vector<int>{1, 2, 3, 2, 1, 0, 0}));
  ASSERT_TRUE(inj.end(r->id).ok());
  EXPECT_TRUE(w.net.healthy());
}

}  // namespace
}  // namespace kun::chaos
