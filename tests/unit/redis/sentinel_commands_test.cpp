// SENTINEL commands as the operator sees them: reply shapes (flat field/value arrays),
// errors, and the effect of MONITOR / REMOVE / SET / RESET / FAILOVER.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

constexpr const char* kName = "mymaster";

std::map<std::string, std::string> fields(const RedisReply& flat) {
  std::map<std::string, std::string> m;
  for (std::size_t i = 0; i + 1 < flat.elements.size(); i += 2) m[flat.elements[i].str] = flat.elements[i + 1].str;
  return m;
}
std::vector<std::string> names(const RedisReply& flat) {
  std::vector<std::string> n;
  for (std::size_t i = 0; i + 1 < flat.elements.size(); i += 2) n.push_back(flat.elements[i].str);
  return n;
}

struct Settled {
  SimWorld w;
  Topology t{w.sim, TopologyOptions{}};
  RedisEndpoint s0 = Topology::sentinelEp(0);
  Settled() {
    w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40));
    w.runFor(seconds(11));  // every sentinel has refreshed INFO of every node since
  }
};

TEST(SentinelCommands, MasterReplyIsAFlatArrayWithSentinelsFields) {
  Settled c;
  auto r = c.w.must(c.s0, {"SENTINEL", "MASTER", kName});
  ASSERT_EQ(r.type, RedisReply::Type::Array);
  for (const auto& e : r.elements) EXPECT_EQ(e.type, RedisReply::Type::String);
  const std::vector<std::string> expected = {
      "name", "ip", "port", "runid", "flags", "link-pending-commands", "link-refcount", "last-ping-sent",
      "last-ok-ping-reply", "last-ping-reply", "down-after-milliseconds", "info-refresh", "role-reported",
      "role-reported-time", "config-epoch", "num-slaves", "num-other-sentinels", "quorum", "failover-timeout",
      "parallel-syncs"};
  EXPECT_EQ(names(r), expected);
  auto f = fields(r);
  EXPECT_EQ(f["name"], kName);
  EXPECT_EQ(f["ip"], "10.0.0.1");
  EXPECT_EQ(f["port"], "6379");
  EXPECT_EQ(f["runid"], c.t.redis(0).runId());
  EXPECT_EQ(f["flags"], "master");
  EXPECT_EQ(f["num-slaves"], "2");
  EXPECT_EQ(f["num-other-sentinels"], "2");
  EXPECT_EQ(f["quorum"], "2");
  EXPECT_EQ(f["down-after-milliseconds"], "5000");
  EXPECT_EQ(f["role-reported"], "master");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MASTER", "nope"}).str, "ERR No such master with that name");
  auto masters = c.w.must(c.s0, {"SENTINEL", "MASTERS"});
  ASSERT_EQ(masters.elements.size(), 1u);
  EXPECT_EQ(fields(masters.elements[0])["name"], kName);
}

TEST(SentinelCommands, ReplicasAndSentinelsReplies) {
  Settled c;
  auto reps = c.w.must(c.s0, {"SENTINEL", "REPLICAS", kName});
  ASSERT_EQ(reps.elements.size(), 2u);
  auto f = fields(reps.elements[0]);
  EXPECT_EQ(f["name"], "10.0.0.2:6379");
  EXPECT_EQ(f["flags"], "slave");
  EXPECT_EQ(f["master-link-status"], "ok");
  EXPECT_EQ(f["master-host"], "10.0.0.1");
  EXPECT_EQ(f["master-port"], "6379");
  EXPECT_EQ(f["slave-priority"], "100");
  EXPECT_EQ(f["replica-announced"], "1");
  EXPECT_EQ(f["runid"], c.t.redis(1).runId());
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "SLAVES", kName}).elements.size(), 2u);
  auto sents = c.w.must(c.s0, {"SENTINEL", "SENTINELS", kName});
  ASSERT_EQ(sents.elements.size(), 2u);
  for (const auto& s : sents.elements) {
    auto sf = fields(s);
    EXPECT_EQ(sf["flags"], "sentinel");
    EXPECT_EQ(sf["name"], sf["runid"]);
    EXPECT_EQ(sf["voted-leader"], "?");
    EXPECT_TRUE(sf.count("last-hello-message"));
  }
}

TEST(SentinelCommands, GetMasterAddrByNameAndCkquorum) {
  Settled c;
  auto a = c.w.must(c.s0, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", kName});
  ASSERT_EQ(a.elements.size(), 2u);
  EXPECT_EQ(a.elements[0].str, "10.0.0.1");
  EXPECT_EQ(a.elements[1].str, "6379");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "nope"}).type, RedisReply::Type::Nil);
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "CKQUORUM", kName}).str,
            "OK 3 usable Sentinels. Quorum and failover authorization can be reached");
  c.t.sentinel(1).crash();
  c.t.sentinel(2).crash();
  c.w.runFor(seconds(8));
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "CKQUORUM", kName}).str,
            "NOQUORUM 1 usable Sentinels. Not enough available Sentinels to reach the specified quorum for this "
            "master. Not enough available Sentinels to reach the majority and authorize a failover");
}

TEST(SentinelCommands, SetChangesSettingsAndRefusesBadOnes) {
  Settled c;
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "SET", kName, "down-after-milliseconds", "3000", "quorum", "1"}).isOk());
  auto f = fields(c.w.must(c.s0, {"SENTINEL", "MASTER", kName}));
  EXPECT_EQ(f["down-after-milliseconds"], "3000");
  EXPECT_EQ(f["quorum"], "1");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "SET", kName, "nosuch", "3"}).str,
            "ERR Unknown option or number of arguments for SENTINEL SET 'nosuch'");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "SET", kName, "quorum", "0"}).str,
            "ERR Invalid argument '0' for SENTINEL SET 'quorum'");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "SET", "nope", "quorum", "2"}).str, "ERR No such master with that name");
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "SET", kName, "auth-pass", "pw"}).isOk());
  EXPECT_GE(c.w.count("+set master mymaster 10.0.0.1 6379 auth-pass ******"), 1u);
}

TEST(SentinelCommands, MonitorAndRemove) {
  Settled c;
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MONITOR", kName, "10.0.0.2", "6379", "2"}).str, "ERR Duplicate master name.");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MONITOR", "x", "10.0.0.2", "notport", "2"}).str, "ERR Invalid port");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MONITOR", "x", "10.0.0.2", "6379", "0"}).str,
            "ERR Quorum must be 1 or greater.");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MONITOR", "x", "no-host", "6379", "1"}).str,
            "ERR Invalid IP address or hostname specified");
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "MONITOR", "other", "10.0.0.1", "6379", "2"}).isOk());
  c.w.runFor(seconds(1));
  EXPECT_EQ(c.t.sentinel(0).knownReplicas("other").size(), 2u);  // INFO right away for a new master
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "REMOVE", "other"}).isOk());
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "REMOVE", "other"}).str, "ERR No such master with that name");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MASTERS"}).elements.size(), 1u);
}

TEST(SentinelCommands, IsMasterDownByAddrVotesOncePerEpoch) {
  Settled c;
  auto r = c.w.must(c.s0, {"SENTINEL", "is-master-down-by-addr", "10.0.0.1", "6379", "0", "*"});
  ASSERT_EQ(r.elements.size(), 3u);
  EXPECT_EQ(r.elements[0].integer, 0);
  EXPECT_EQ(r.elements[1].str, "*");
  EXPECT_EQ(r.elements[2].integer, 0);
  const std::string a(40, 'a'), b(40, 'b');
  r = c.w.must(c.s0, {"SENTINEL", "is-master-down-by-addr", "10.0.0.1", "6379", "7", a});
  EXPECT_EQ(r.elements[1].str, a);
  EXPECT_EQ(r.elements[2].integer, 7);
  r = c.w.must(c.s0, {"SENTINEL", "is-master-down-by-addr", "10.0.0.1", "6379", "7", b});
  EXPECT_EQ(r.elements[1].str, a);  // already voted in epoch 7
  EXPECT_EQ(c.t.sentinel(0).currentEpoch(), 7u);
}

TEST(SentinelCommands, ManualFailoverWithoutAgreement) {
  Settled c;
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "FAILOVER", kName}).isOk());
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "FAILOVER", kName}).str, "INPROG Failover already in progress");
  ASSERT_TRUE(c.w.runUntil([&] { return c.t.converged() && *c.t.agreedMaster() != Topology::redisEp(0); }, seconds(30)))
      << c.w.lastTrace();
  // The old master was up all along: it is reconfigured as a replica of the new one.
  EXPECT_FALSE(c.t.redis(0).isMaster());
}

TEST(SentinelCommands, InfoRoleAndPing) {
  Settled c;
  const std::string info = c.w.must(c.s0, {"INFO", "sentinel"}).str;
  EXPECT_EQ(infoField(info, "sentinel_masters"), "1");
  EXPECT_EQ(infoField(info, "sentinel_tilt"), "0");
  EXPECT_EQ(infoField(info, "master0"), "name=mymaster,status=ok,address=10.0.0.1:6379,slaves=2,sentinels=3");
  EXPECT_EQ(infoField(c.w.must(c.s0, {"INFO"}).str, "redis_mode"), "sentinel");
  auto role = c.w.must(c.s0, {"ROLE"});
  EXPECT_EQ(role.elements[0].str, "sentinel");
  EXPECT_EQ(role.elements[1].elements[0].str, kName);
  EXPECT_EQ(c.w.must(c.s0, {"PING"}).str, "PONG");
  EXPECT_EQ(c.w.must(c.s0, {"GET", "a"}).str, "ERR unknown command 'GET', with args beginning with: 'a' ");
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "MYID"}).str, c.t.sentinel(0).myId());
}

// A sentinel remembers the hellos it heard, so an unchanged repeat only refreshes the
// peer's last-hello time: the peers must stay fresh, and be learned again from the same
// hellos once a reset (or a master removed and added again) dropped them.
TEST(SentinelCommands, RepeatedHellosKeepPeersFreshAndBringThemBackAfterAReset) {
  Settled c;
  c.w.runFor(seconds(10));
  for (const auto& s : c.w.must(c.s0, {"SENTINEL", "SENTINELS", kName}).elements)
    EXPECT_LT(std::stoll(fields(s)["last-hello-message"]), 3000);
  EXPECT_EQ(c.w.must(c.s0, {"SENTINEL", "RESET", kName}).integer, 1);
  EXPECT_EQ(c.t.sentinel(0).knownSentinels(kName), 0u);
  c.w.runFor(seconds(5));
  EXPECT_EQ(c.t.sentinel(0).knownSentinels(kName), 2u);
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "REMOVE", kName}).isOk());
  EXPECT_TRUE(c.w.must(c.s0, {"SENTINEL", "MONITOR", kName, "10.0.0.1", "6379", "2"}).isOk());
  c.w.runFor(seconds(5));
  EXPECT_EQ(c.t.sentinel(0).knownSentinels(kName), 2u);
  // A hello heard twice, then one with a newer epoch: the newer epoch is taken.
  const std::string peer = "10.0.1.2,26379," + c.t.sentinel(1).myId() + ",";
  const std::string tail = ",mymaster,10.0.0.1,6379,0";
  for (int i = 0; i < 2; ++i)
    EXPECT_EQ(c.w.must(c.s0, {"PUBLISH", "__sentinel__:hello", peer + "0" + tail}).integer, 1);
  EXPECT_EQ(c.t.sentinel(0).currentEpoch(), 0u);
  EXPECT_EQ(c.w.must(c.s0, {"PUBLISH", "__sentinel__:hello", peer + "4" + tail}).integer, 1);
  EXPECT_EQ(c.t.sentinel(0).currentEpoch(), 4u);
}

TEST(SentinelCommands, AHungSentinelEntersTiltWhenItResumes) {
  Settled c;
  c.t.sentinel(0).hang();
  c.w.runFor(seconds(5));
  c.t.sentinel(0).resume();
  c.w.runFor(milliseconds(200));
  EXPECT_TRUE(c.t.sentinel(0).tilt());
  EXPECT_GE(c.w.count("+tilt #tilt mode entered"), 1u);
  c.w.runFor(seconds(31));
  EXPECT_FALSE(c.t.sentinel(0).tilt());
}

TEST(SentinelCommands, ASentinelKilledWhileStartingKeepsItsRewrittenConfig) {
  Settled c;
  const std::string id = c.t.sentinel(1).myId();
  c.t.sentinel(1).crash();
  c.t.sentinel(1).start(milliseconds(50));
  c.t.sentinel(1).crash();  // before it finished starting: nothing in memory to lose
  c.t.sentinel(1).start(milliseconds(50));
  c.w.runFor(seconds(1));
  EXPECT_EQ(c.t.sentinel(1).myId(), id);
  EXPECT_EQ(c.t.sentinel(1).knownReplicas(kName).size(), 2u);
  EXPECT_EQ(c.t.sentinel(1).knownSentinels(kName), 2u);
  EXPECT_EQ(*c.t.sentinel(1).masterAddress(kName), Topology::redisEp(0));
}

}  // namespace
}  // namespace kun::redissim::test
