// PUBLISH as subscribers see it, on the master and, through the replication stream, on a
// replica — including messages repeated word for word, which a node delivers as the
// message it made before (RedisNode::deliverPublish).
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

struct Subscriber {
  Subscriber(SimWorld& w, const RedisEndpoint& ep, const Argv& channels) : f(w.sim.fabric()) {
    ClientHandlers h;
    h.onPush = [this](const RedisReply& msg) {
      if (msg.elements.size() == 3 && msg.elements[0].str == "message")
        got.push_back(msg.elements[1].str + "|" + msg.elements[2].str);
    };
    conn = f.connect(0, w.net.intern(Topology::kClientIp), ep, std::move(h));
    Argv sub = {"SUBSCRIBE"};
    sub.insert(sub.end(), channels.begin(), channels.end());
    f.request(conn, sub, nullptr);
  }
  ~Subscriber() { f.close(conn); }
  Fabric& f;
  ConnId conn = 0;
  std::vector<std::string> got;
};

TEST(PubSub, RepeatedAndInterleavedMessagesReachEverySubscriberAsPublished) {
  SimWorld w;
  TopologyOptions o;  // a master and its replica, no sentinels
  o.sentinels = 0;
  o.replicas = 1;
  Topology t(w.sim, o);
  w.runFor(seconds(7));  // the replica is linked
  Subscriber onMaster(w, Topology::redisEp(0), {"ch1", "ch2"});
  Subscriber onReplica(w, Topology::redisEp(1), {"ch1"});
  w.runFor(milliseconds(100));
  const std::vector<std::pair<std::string, std::string>> published = {
      {"ch1", "x"}, {"ch2", "x"}, {"ch1", "y"}, {"ch1", "x"}, {"ch1", "a"}, {"ch1", "b"},
      {"ch1", "c"}, {"ch1", "d"}, {"ch1", "x"}, {"ch2", "x"}, {"ch1", "x"}};
  std::vector<std::string> toMaster, toReplica;
  for (const auto& [ch, text] : published) {
    EXPECT_EQ(w.must(Topology::redisEp(0), {"PUBLISH", ch, text}).integer, 1) << ch << " " << text;
    toMaster.push_back(ch + "|" + text);
    if (ch == "ch1") toReplica.push_back(ch + "|" + text);
    w.runFor(milliseconds(20));
  }
  EXPECT_EQ(w.must(Topology::redisEp(0), {"PUBLISH", "other", "x"}).integer, 0);
  w.runFor(milliseconds(500));
  EXPECT_EQ(onMaster.got, toMaster);
  EXPECT_EQ(onReplica.got, toReplica);
}

}  // namespace
}  // namespace kun::redissim::test
