#include "core/redis/info_parser.h"

#include <gtest/gtest.h>

#include <string>
#include <vector>

#include "tests/unit/redisclient/fixture.h"

namespace kun {
namespace {

using testing::fixtureBytes;
using testing::fixtureReply;

TEST(InfoParser, MasterReplicationFromRealRedis) {
  auto r = parseReplicationInfo(fixtureReply("info_replication_master.resp").str);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->isMaster());
  EXPECT_EQ(r->connectedSlaves, 2);
  ASSERT_EQ(r->replicas.size(), 2u);
  EXPECT_EQ(r->replicas[0].ip, "127.88.0.2");
  EXPECT_EQ(r->replicas[0].port, 6379);
  EXPECT_EQ(r->replicas[0].state, "online");
  EXPECT_EQ(r->replicas[0].offset, 2077);
  EXPECT_EQ(r->replicas[1].ip, "127.88.0.3");
  EXPECT_EQ(r->masterReplOffset, 2077);
  EXPECT_EQ(r->masterReplid, "1a7fe95d14dc494f54646270d84a332e18c493cc");
  EXPECT_EQ(r->secondReplOffset, -1);
  EXPECT_EQ(r->masterFailoverState, "no-failover");
  EXPECT_TRUE(r->replBacklogActive);
  EXPECT_TRUE(r->masterHost.empty());
}

TEST(InfoParser, ReplicaReplicationFromRealRedis) {
  auto r = parseReplicationInfo(fixtureReply("info_replication_replica.resp").str);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->isReplica());
  EXPECT_EQ(r->masterHost, "127.88.0.1");
  EXPECT_EQ(r->masterPort, 6379);
  EXPECT_TRUE(r->masterLinkUp());
  EXPECT_EQ(r->masterLastIoSecondsAgo, 2);
  EXPECT_FALSE(r->masterSyncInProgress);
  EXPECT_EQ(r->slaveReplOffset, 2077);
  EXPECT_EQ(r->slavePriority, 100);
  EXPECT_TRUE(r->slaveReadOnly);
  EXPECT_EQ(r->connectedSlaves, 0);
  EXPECT_TRUE(r->replicas.empty());
}

TEST(InfoParser, OldMasterConvertedBySentinelFollowsTheNewMaster) {
  auto r = parseReplicationInfo(fixtureReply("info_replication_converted_old_master.resp").str);
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->isReplica());
  EXPECT_EQ(r->masterHost, "127.88.0.2");
}

TEST(InfoParser, ReplicaWaitingForItsFirstSyncFromRedisCliText) {
  // Real 7.0 replica right after start, while the master delays the diskless full sync.
  auto r = parseReplicationInfo(fixtureBytes("info_replication_replica_syncing.txt"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_TRUE(r->isReplica());
  EXPECT_FALSE(r->masterLinkUp());
  EXPECT_EQ(r->masterLinkStatus, "down");
  EXPECT_EQ(r->masterLastIoSecondsAgo, -1);
  EXPECT_EQ(r->masterLinkDownSinceSeconds, -1);
  EXPECT_EQ(r->slaveReplOffset, 1);
  EXPECT_FALSE(r->replBacklogActive);
}

TEST(InfoParser, MasterWithReplicasWaitingForBgsave) {
  // The master's side of the same moment, as real redis-cli printed it.
  auto r = parseReplicationInfo(
      "# Replication\nrole:master\nconnected_slaves:2\n"
      "slave0:ip=127.88.0.2,port=6379,state=wait_bgsave,offset=0,lag=0\n"
      "slave1:ip=127.88.0.3,port=6379,state=wait_bgsave,offset=0,lag=0\n"
      "master_failover_state:no-failover\n"
      "master_replid:1a7fe95d14dc494f54646270d84a332e18c493cc\n"
      "master_replid2:0000000000000000000000000000000000000000\n"
      "master_repl_offset:0\nsecond_repl_offset:-1\nrepl_backlog_active:1\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->replicas.size(), 2u);
  EXPECT_EQ(r->replicas[0].state, "wait_bgsave");
  EXPECT_EQ(r->replicas[1].offset, 0);
}

TEST(InfoParser, ServerSectionFromRealRedis) {
  auto info = parseInfo(fixtureReply("info_server.resp").str);
  auto s = parseServerInfo(info);
  ASSERT_TRUE(s.ok()) << s.error().message;
  EXPECT_EQ(s->redisVersion, "7.0.15");
  EXPECT_EQ(s->redisMode, "standalone");
  EXPECT_EQ(s->runId, "83b888dbe0764bd5ce9ecaa3731afaf88f403043");
  EXPECT_EQ(s->tcpPort, 6379);
  EXPECT_EQ(s->processId, 7213);
  // Values containing ':' keep everything after the first one.
  ASSERT_NE(info.find("server", "config_file"), nullptr);
  EXPECT_EQ(*info.find("server", "config_file"), "/tmp/kfix/r1/redis.conf");
  EXPECT_FALSE(parseReplicationInfo(info).ok());  // no # Replication there
}

TEST(InfoParser, SectionsAreCaseInsensitiveAndSlaveOrderIsNumeric) {
  std::string text = "# Replication\r\nrole:master\r\nconnected_slaves:11\r\n";
  for (int i = 10; i >= 0; --i) {
    text += "slave" + std::to_string(i) + ":ip=10.0.0." + std::to_string(i) +
            ",port=6379,state=online,offset=" + std::to_string(i) + ",lag=1\r\n";
  }
  auto info = parseInfo(text);
  EXPECT_TRUE(info.has("REPLICATION"));
  auto r = parseReplicationInfo(info);
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->replicas.size(), 11u);
  for (int i = 0; i <= 10; ++i) {
    EXPECT_EQ(r->replicas[i].index, i);
    EXPECT_EQ(r->replicas[i].ip, "10.0.0." + std::to_string(i));
  }
}

// Every field, so that two parses can be compared whole.
std::string describe(const Result<ReplicationInfo>& r) {
  if (!r.ok()) return "error " + r.error().field + ": " + r.error().message;
  std::string out = r->role + "|" + std::to_string(r->connectedSlaves) + "|" + r->masterHost + "|" +
                    std::to_string(r->masterPort) + "|" + r->masterLinkStatus + "|" +
                    std::to_string(r->masterLastIoSecondsAgo) + "|" + std::to_string(r->masterSyncInProgress) + "|" +
                    std::to_string(r->slaveReplOffset) + "|" + std::to_string(r->masterLinkDownSinceSeconds) + "|" +
                    std::to_string(r->slavePriority) + "|" + std::to_string(r->slaveReadOnly) + "|" +
                    r->masterFailoverState + "|" + r->masterReplid + "|" + r->masterReplid2 + "|" +
                    std::to_string(r->masterReplOffset) + "|" + std::to_string(r->secondReplOffset) + "|" +
                    std::to_string(r->replBacklogActive);
  for (const auto& e : r->replicas)
    out += "|slave" + std::to_string(e.index) + "=" + e.ip + ":" + std::to_string(e.port) + "," + e.state + "," +
           std::to_string(e.offset) + "," + std::to_string(e.lag);
  return out;
}

// The text overload reads the lines in place (observe() calls it for every node on every
// pass); it must give what parsing the sections first gives, errors included.
TEST(InfoParser, InPlaceParseAgreesWithTheSectionParse) {
  std::vector<std::string> texts = {
      fixtureReply("info_replication_master.resp").str,
      fixtureReply("info_replication_replica.resp").str,
      fixtureReply("info_replication_converted_old_master.resp").str,
      fixtureBytes("info_replication_replica_syncing.txt"),
      fixtureReply("info_server.resp").str,
      "",
      "role:master\n",                                        // before any section: not replication
      "# Server\nrole:master\n# REPLICATION\nrole:slave\nmaster_host:10.0.0.1\n",
      "# Replication\nrole:master\n# Server\nmaster_repl_offset:7\n# replication \nmaster_repl_offset:9\n",
      "# Replication\r\nrole:master\r\nrole:slave\r\nmaster_port:1\r\nmaster_port:2\r\n",  // last one wins
      "# Replication\nrole:master\nslave1:ip=a,port=1,state=online,offset=3,lag=0\n"
      "slave01:ip=b,port=2,state=online,offset=4,lag=0\nslave1:ip=c,port=3,state=online,offset=5,lag=0\n",
      "# Replication\nrole:master\nslave2:ip=1.2.3.4,port=x\nslave10:ip=1.2.3.5\n",  // first bad by key order
      "# Replication\nrole:master\nslavex:ip=1.2.3.4,port=1\nslave:1\nslave_priority:5\n",
      "# Replication\nrole:slave\nmaster_port:abc\nconnected_slaves:zz\n",
      "# Replication\nrole:slave\nslave_read_only:0\nmaster_sync_in_progress:1\nrepl_backlog_active:x\n",
      "  # Replication  \n  role:slave  \nno colon here\n\n\nmaster_host::weird:value\n",
      "# Replication\nconnected_slaves:0\n",
  };
  for (const auto& t : texts) EXPECT_EQ(describe(parseReplicationInfo(std::string_view(t))), describe(parseReplicationInfo(parseInfo(t)))) << t;
}

TEST(InfoParser, BadNumbersAreInvalidAndNameTheKey) {
  auto r = parseReplicationInfo("# Replication\nrole:slave\nmaster_port:abc\n");
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Invalid);
  EXPECT_EQ(r.error().field, "master_port");

  auto bad = parseReplicationInfo("# Replication\nrole:master\nslave0:ip=1.2.3.4,port=x\n");
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().field, "slave0");

  auto noRole = parseReplicationInfo("# Replication\nconnected_slaves:0\n");
  ASSERT_FALSE(noRole.ok());
  EXPECT_EQ(noRole.error().field, "role");
}

// One field read without the whole parse: the same value parseInfo finds, whatever the
// section; a key that is only a prefix of another is not matched.
TEST(InfoParser, InfoValueFindsOneKeyAnywhere) {
  const std::string text =
      "# Sentinel\r\nsentinel_masters:1\r\nsentinel_tilt:1\r\nsentinel_tilt_since_seconds:4\r\n"
      "sentinel_running_scripts:0\r\n";
  EXPECT_EQ(infoValue(text, "sentinel_tilt"), std::optional<std::string_view>("1"));
  EXPECT_EQ(infoValue(text, "sentinel_tilt_since_seconds"), std::optional<std::string_view>("4"));
  EXPECT_EQ(*infoValue(text, "sentinel_tilt"), *parseInfo(text).find("sentinel", "sentinel_tilt"));
  EXPECT_EQ(infoValue(text, "sentinel_ti"), std::nullopt);
  EXPECT_EQ(infoValue(text, "role"), std::nullopt);
  EXPECT_EQ(infoValue("", "role"), std::nullopt);
}

}  // namespace
}  // namespace kun
