// SimRedisAdmin::replicationInfo hands a redis node's replication fields to the caller
// without writing INFO. They must be what parsing the INFO replication text of the same
// moment gives, in every state a node can be in (syncing, in sync, link down, failing over
// by FAILOVER and by Sentinel, pointed at a host that is not there, behind a password), and
// every answer that is not the fields (errors, refused or timed-out transports) must be the
// same on both paths.
#include <gtest/gtest.h>

#include <set>
#include <sstream>

#include "core/redis/info_parser.h"
#include "fakeapi/redis/sim_redis_admin.h"
#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

std::string describe(const ReplicationInfo& r) {
  std::ostringstream o;
  o << r.role << '|' << r.connectedSlaves << '|' << r.masterHost << '|' << r.masterPort << '|' << r.masterLinkStatus
    << '|' << r.masterLastIoSecondsAgo << '|' << r.masterSyncInProgress << '|' << r.slaveReplOffset << '|'
    << r.masterLinkDownSinceSeconds << '|' << r.slavePriority << '|' << r.slaveReadOnly << '|'
    << r.masterFailoverState << '|' << r.masterReplid << '|' << r.masterReplid2 << '|' << r.masterReplOffset << '|'
    << r.secondReplOffset << '|' << r.replBacklogActive;
  for (const auto& e : r.replicas)
    o << "\n  " << e.index << ' ' << e.ip << ' ' << e.port << ' ' << e.state << ' ' << e.offset << ' ' << e.lag;
  return o.str();
}

std::string describe(const Result<ReplicationInfo>& r) { return r.ok() ? describe(*r) : "error " + r.error().message; }

std::string describe(const Result<RedisReply>& r) {
  if (!r.ok()) return "transport " + r.error().message;
  if (r->type != RedisReply::Type::String) return "reply " + std::to_string(static_cast<int>(r->type)) + " " + r->str;
  return describe(parseReplicationInfo(std::string_view(r->str)));
}

struct Counts {
  int streamed = 0, replied = 0;
  std::set<std::string> seen;  // states the streamed fields showed (role, link, sync, failover)
};

// INFO replication through both paths of one admin, at the same moment.
void expectSame(SimWorld& w, const RedisEndpoint& ep, const std::string& password, Counts& n) {
  SimRedisAdmin& admin = w.sim.admin(Topology::kClientIp);
  const auto reply = admin.command(ep, {"INFO", "replication"}, password);
  ReplicationInfo fields;
  fields.masterHost = "left over";  // every field is written, whatever it held
  fields.replicas.resize(3);
  auto answer = admin.replicationInfo(ep, password, fields);
  ASSERT_EQ(reply.ok(), answer.ok()) << ep.toString();
  if (!answer.ok()) {
    EXPECT_EQ(answer.error().message, reply.error().message);
    return;
  }
  if (*answer) {
    ++n.replied;
    EXPECT_EQ(describe(Result<RedisReply>(**answer)), describe(reply)) << ep.toString();
    return;
  }
  ++n.streamed;
  n.seen.insert(fields.role + (fields.masterLinkStatus.empty() ? "" : " link " + fields.masterLinkStatus));
  if (fields.masterSyncInProgress) n.seen.insert("sync");
  n.seen.insert(fields.masterFailoverState);
  for (const auto& e : fields.replicas) n.seen.insert("replica " + e.state);
  EXPECT_EQ(describe(fields), describe(reply)) << ep.toString();
}

void expectSameEverywhere(SimWorld& w, const Topology& t, Counts& n, const std::string& password = {}) {
  for (int i = 0; i < t.redisCount(); ++i) expectSame(w, Topology::redisEp(i), password, n);
  expectSame(w, Topology::sentinelEp(0), "", n);  // a sentinel answers with its text
}

TopologyOptions layout(int replicas, int sentinels, std::string password = {}) {
  TopologyOptions o;
  o.replicas = replicas;
  o.sentinels = sentinels;
  o.password = std::move(password);
  return o;
}

TEST(ReplicationFields, StreamedFieldsReadAsTheTextParses) {
  SimWorld w;
  Topology t{w.sim, layout(3, 3)};
  Counts n;
  for (int step = 0; step < 80; ++step) {  // handshakes and full syncs
    w.runFor(milliseconds(100));
    expectSameEverywhere(w, t, n);
  }
  ASSERT_TRUE(w.runUntil([&] { return t.converged(); }, seconds(40)));
  for (int k = 0; k < 20; ++k) ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "k" + std::to_string(k), "v"}).isOk());
  expectSameEverywhere(w, t, n);  // replicas behind, lags
  w.runFor(seconds(3));
  expectSameEverywhere(w, t, n);
  // A full sync long enough to be seen (5 MB at the simulated 100 MB/s): a replica that lost
  // its memory comes back.
  for (int k = 0; k < 50; ++k)
    ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "big" + std::to_string(k), std::string(100000, 'x')}).isOk());
  t.redis(1).crash();
  t.redis(1).start();
  for (int step = 0; step < 300; ++step) {
    w.runFor(milliseconds(25));
    expectSameEverywhere(w, t, n);
  }

  // A replica pointed at a host that is not there, another with its priority and
  // read-only changed; then a replica down and the master down (Sentinel fails over).
  ASSERT_TRUE(w.must(Topology::redisEp(2), {"REPLICAOF", "127.0.0.1", "6379"}).isOk());
  ASSERT_TRUE(w.must(Topology::redisEp(3), {"CONFIG", "SET", "replica-priority", "2147483647"}).isOk());
  ASSERT_TRUE(w.must(Topology::redisEp(3), {"CONFIG", "SET", "replica-read-only", "no"}).isOk());
  w.runFor(seconds(2));
  expectSameEverywhere(w, t, n);
  t.redis(3).crash();
  w.runFor(seconds(2));
  expectSameEverywhere(w, t, n);
  const auto master = t.agreedMaster();
  ASSERT_TRUE(master.has_value());
  for (int i = 0; i < t.redisCount(); ++i)
    if (Topology::redisEp(i) == *master) t.redis(i).crash();
  for (int step = 0; step < 30; ++step) {
    w.runFor(milliseconds(700));
    expectSameEverywhere(w, t, n);
  }
  t.redis(1).hang();  // timed out on both paths (one of them is the master or a replica)
  expectSameEverywhere(w, t, n);
  t.redis(1).resume();
  w.runFor(seconds(5));
  expectSameEverywhere(w, t, n);

  // A master host whose text would not read back as it is (a trailing space, trimmed by
  // the parse): the node writes INFO, and both paths parse it.
  ASSERT_TRUE(w.must(Topology::redisEp(2), {"REPLICAOF", "10.0.0.77 ", "6379"}).isOk());
  const int replied = n.replied;
  expectSame(w, Topology::redisEp(2), "", n);
  EXPECT_EQ(n.replied, replied + 1);

  EXPECT_GT(n.streamed, 100);
  for (const char* state : {"master", "slave link up", "slave link down", "sync", "replica wait_bgsave",
                            "replica send_bulk", "replica online"})
    EXPECT_EQ(n.seen.count(state), 1u) << state;
}

TEST(ReplicationFields, FailoverCommandStatesReadAsTheTextParses) {
  SimWorld w;
  Topology t{w.sim, layout(2, 0)};
  w.runFor(seconds(7));
  Counts n;
  auto everyNode = [&] {
    for (int i = 0; i < t.redisCount(); ++i) expectSame(w, Topology::redisEp(i), "", n);
  };
  // In progress lasts one handshake, unless the target stops answering: forced to a hung one.
  t.redis(1).hang();
  ASSERT_TRUE(w.must(Topology::redisEp(0), {"FAILOVER", "TO", Topology::redisEp(1).host, "6379", "TIMEOUT", "300",
                                            "FORCE"}).isOk());
  for (int step = 0; step < 20; ++step) {
    everyNode();
    w.runFor(milliseconds(50));
  }
  t.redis(1).resume();
  w.runFor(seconds(5));
  // Waiting for sync (a write the replicas have not acknowledged), then swapped.
  const int master = t.redis(0).isMaster() ? 0 : 1;
  ASSERT_TRUE(t.redis(master).isMaster());
  ASSERT_TRUE(w.must(Topology::redisEp(master), {"SET", "k", "v"}).isOk());
  ASSERT_TRUE(w.must(Topology::redisEp(master), {"FAILOVER"}).isOk());
  for (int step = 0; step < 300; ++step) {  // the replicas acknowledge once a second
    everyNode();
    w.runFor(milliseconds(5));
  }
  EXPECT_EQ(n.seen.count("waiting-for-sync"), 1u);
  EXPECT_EQ(n.seen.count("failover-in-progress"), 1u);
}

TEST(ReplicationFields, PasswordsAnswerAsTheTextDoes) {
  SimWorld w;
  Topology t{w.sim, layout(1, 0, "s3cret")};
  w.runFor(seconds(7));
  Counts n;
  for (const std::string pw : {"", "wrong", "s3cret"})
    for (int i = 0; i < t.redisCount(); ++i) expectSame(w, Topology::redisEp(i), pw, n);
  EXPECT_EQ(n.streamed, 2);  // only with the right password
  EXPECT_EQ(n.replied, 4);   // NOAUTH, WRONGPASS
}

}  // namespace
}  // namespace kun::redissim::test
