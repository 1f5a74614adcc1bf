// The network model's TCP-like delivery: per-link send order under jitter and loss, and
// packets caught in flight by a cut held until the heal, in send order.
#include <gtest/gtest.h>

#include <algorithm>
#include <string>
#include <tuple>
#include <vector>

#include "chaos/network/network_model.h"
#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

struct Net {
  SimLoop loop;
  NetworkModel net{loop, Random(7)};
  NetNodeId a = net.intern("10.0.0.1"), b = net.intern("10.0.0.2"), c = net.intern("10.0.0.3");
  std::vector<std::string> got;
  void send(NetNodeId from, NetNodeId to, std::string name) {
    net.send(from, to, [this, name] { got.push_back(name); });
  }
};

TEST(NetworkModel, KeepsSendOrderPerLinkUnderJitterAndLoss) {
  Net n;
  n.net.setLoss("10.0.0.1", "10.0.0.2", 1, 3);  // retransmissions delay some packets a lot
  std::vector<std::string> want;
  for (int i = 0; i < 200; ++i) {
    n.send(n.a, n.b, std::to_string(i));
    want.push_back(std::to_string(i));
    n.loop.runFor(microseconds(30));  // sends closer together than the jitter
  }
  n.loop.runFor(seconds(120));
  EXPECT_EQ(n.got, want);
}

// Two connections between the same addresses are two TCP streams: a retransmission holds
// back its own stream only (a reconnect gets past a stalled connection), and each stream
// keeps its order.
TEST(NetworkModel, ARetransmissionHoldsBackOnlyItsOwnStream) {
  Net n;
  n.net.setLoss("10.0.0.1", "10.0.0.2", 1, 2);
  std::vector<std::pair<int, int>> got;  // (stream, index)
  for (int i = 0; i < 400; ++i) {
    const int stream = 1 + i % 2;
    n.net.send(n.a, n.b, static_cast<std::uint64_t>(stream), [&got, stream, i] { got.emplace_back(stream, i); });
    if (i == 300) n.net.heal();  // the loss ends; what is stalled still waits
    n.loop.runFor(milliseconds(10));
  }
  n.loop.runFor(hours(2));
  ASSERT_EQ(got.size(), 400u);
  int last[3] = {-1, -1, -1};
  int overtaken = 0;  // a packet delivered after one of the other stream sent later
  for (std::size_t k = 0; k < got.size(); ++k) {
    const auto [stream, i] = got[k];
    EXPECT_GT(i, last[stream]) << "stream " << stream << " out of order";
    last[stream] = i;
    for (std::size_t j = k + 1; j < got.size(); ++j)
      if (got[j].first != stream && got[j].second < i) {
        ++overtaken;
        break;
      }
  }
  EXPECT_GT(overtaken, 0);  // with one FIFO per address pair, never
}

// Once the loss ends, a packet waiting for a retransmission comes with the next one (RTO
// 200 ms doubling from its send: 0.2, 0.6, 1.4, 3, 6.2 s, ...), not at the time the losses
// drawn at its send would have given.
TEST(NetworkModel, WhenTheLossEndsTheNextRetransmissionGetsThrough) {
  Net n;
  n.net.setLoss("10.0.0.1", "10.0.0.2", 1, 1);  // every transmission lost: hours of back-off
  TimePoint arrived{};
  n.net.send(n.a, n.b, 1, [&] { arrived = n.loop.now(); });
  n.send(n.a, n.b, "behind it, same link, own stream");
  n.loop.runFor(seconds(5));
  EXPECT_EQ(n.net.delayed(), 2u);  // the other one is lost and retransmitted too
  EXPECT_EQ(n.got.size(), 0u);
  n.net.setLoss("10.0.0.1", "10.0.0.2", 0, 1);
  n.loop.runFor(seconds(10));
  EXPECT_EQ(n.net.delayed(), 0u);
  EXPECT_GE(sinceStartMillis(arrived), 6200);
  EXPECT_LT(sinceStartMillis(arrived), 6300);
  EXPECT_EQ(n.got.size(), 1u);
}

TEST(NetworkModel, PacketsDueTogetherArriveInSendOrderAcrossLinks) {
  // No jitter: packets sent at the same moment arrive at the same moment, and run in the
  // order they were sent, whichever link they took, though only the front packet of a
  // link waits in the loop.
  SimLoop loop;
  NetworkModel::Options o;
  o.jitter = Duration(0);
  NetworkModel net(loop, Random(7), o);
  const NetNodeId a = net.intern("10.0.0.1"), b = net.intern("10.0.0.2"), c = net.intern("10.0.0.3");
  std::vector<std::string> got;
  for (const auto& [from, to, name] : std::vector<std::tuple<NetNodeId, NetNodeId, std::string>>{
           {a, b, "ab1"}, {a, c, "ac1"}, {a, b, "ab2"}, {b, a, "ba1"}, {a, b, "ab3"}, {a, c, "ac2"}})
    net.send(from, to, [&got, name] { got.push_back(name); });
  EXPECT_EQ(loop.pending(), 3u);  // one per busy link
  loop.runFor(seconds(1));
  EXPECT_EQ(got, (std::vector<std::string>{"ab1", "ac1", "ab2", "ba1", "ab3", "ac2"}));
}

TEST(NetworkModel, LinksDoNotWaitForEachOther) {
  Net n;
  n.net.addLatency("10.0.0.1", "10.0.0.2", milliseconds(50));
  n.send(n.a, n.b, "slow");
  n.send(n.a, n.c, "fast");
  n.send(n.b, n.a, "back");
  n.loop.runFor(milliseconds(10));
  EXPECT_EQ(n.got, (std::vector<std::string>{"fast", "back"}));
  n.loop.runFor(milliseconds(100));
  EXPECT_EQ(n.got, (std::vector<std::string>{"fast", "back", "slow"}));
}

TEST(NetworkModel, APacketCaughtInFlightByACutArrivesAfterTheHealBeforeLaterOnes) {
  Net n;
  n.send(n.a, n.b, "in-flight-1");
  n.send(n.a, n.b, "in-flight-2");
  n.net.cut("10.0.0.1", "10.0.0.2");  // both are on the wire
  n.send(n.a, n.b, "sent-while-cut");
  n.send(n.a, n.c, "other-link");
  n.loop.runFor(seconds(5));
  EXPECT_EQ(n.got, (std::vector<std::string>{"other-link"}));
  EXPECT_EQ(n.net.held(), 3u);
  n.net.heal();
  n.send(n.a, n.b, "after-heal");
  n.loop.runFor(seconds(1));
  EXPECT_EQ(n.got, (std::vector<std::string>{"other-link", "in-flight-1", "in-flight-2", "sent-while-cut", "after-heal"}));
  EXPECT_EQ(n.net.held(), 0u);
}

TEST(NetworkModel, WhatADeliverySendsOnItsOwnLinkGoesBehindWhatIsOnTheWay) {
  Net n;
  n.net.send(n.a, n.b, [&n] {
    n.got.push_back("first");
    n.send(n.a, n.b, "sent-by-first");
  });
  n.send(n.a, n.b, "second");
  n.loop.runFor(seconds(1));
  EXPECT_EQ(n.got, (std::vector<std::string>{"first", "second", "sent-by-first"}));
}

TEST(NetworkModel, ADeliveryKeepsItsCapturesWhileWhatItSendsGrowsThePacketPool) {
  // A packet's delivery runs where the packet is kept: sending many more from inside it
  // (more than a pool chunk, on its own link and others) must leave it intact.
  Net n;
  const std::string name(40, 'x');  // on the heap: a moved-from or freed copy would show
  n.net.send(n.a, n.b, [&n, name] {
    for (int i = 0; i < 300; ++i) n.send(i % 2 ? n.a : n.b, i % 3 ? n.b : n.c, std::to_string(i));
    n.got.push_back(name);
  });
  n.loop.runFor(seconds(1));
  ASSERT_EQ(n.got.size(), 301u);
  EXPECT_EQ(n.got.front(), name);
  // Per link, still in send order.
  std::vector<int> ab;
  for (std::size_t k = 1; k < n.got.size(); ++k) {
    const int i = std::stoi(n.got[k]);
    if (i % 2 && i % 3) ab.push_back(i);
  }
  EXPECT_TRUE(std::is_sorted(ab.begin(), ab.end()));
  EXPECT_EQ(ab.size(), 100u);
}

TEST(NetworkModel, ACutLongerThanTcpGivesUpDropsWhatWaited) {
  Net n;
  n.send(n.a, n.b, "lost");
  n.net.isolate("10.0.0.2");
  n.loop.runFor(seconds(1000));  // longer than tcpGiveUp (900 s)
  n.net.reconnect("10.0.0.2");
  n.send(n.a, n.b, "fresh");
  n.loop.runFor(seconds(1));
  EXPECT_EQ(n.got, (std::vector<std::string>{"fresh"}));
  EXPECT_EQ(n.net.dropped(), 1u);
}

}  // namespace
}  // namespace kun
