// Commands of the simulated redis-server as the operator sees them: INFO and ROLE text
// and shape, CONFIG GET/SET rules, AUTH, REPLICAOF, data commands, FAILOVER.
#include <gtest/gtest.h>

#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

struct Pair {
  SimWorld w;
  Topology t{w.sim, [] {
               TopologyOptions o;
               o.replicas = 1;
               o.sentinels = 0;
               return o;
             }()};
  RedisEndpoint m = Topology::redisEp(0), r = Topology::redisEp(1);
  Pair() { w.runFor(seconds(7)); }
};

std::vector<std::string> infoKeys(const std::string& info) {
  std::vector<std::string> keys;
  std::size_t pos = 0;
  while (pos < info.size()) {
    auto e = info.find("\r\n", pos);
    std::string line = info.substr(pos, e - pos);
    pos = e == std::string::npos ? info.size() : e + 2;
    auto c = line.find(':');
    if (!line.empty() && line[0] != '#' && c != std::string::npos) keys.push_back(line.substr(0, c));
  }
  return keys;
}

TEST(RedisCommands, InfoReplicationOfAMasterHasRedisFieldsInRedisOrder) {
  Pair p;
  ASSERT_TRUE(p.w.must(p.m, {"SET", "a", "b"}).isOk());
  p.w.runFor(seconds(2));
  const std::string info = p.w.must(p.m, {"INFO", "replication"}).str;
  EXPECT_EQ(info.rfind("# Replication\r\nrole:master\r\nconnected_slaves:1\r\n", 0), 0u) << info;
  const std::vector<std::string> expected = {"role", "connected_slaves", "slave0", "master_failover_state",
                                             "master_replid", "master_replid2", "master_repl_offset",
                                             "second_repl_offset", "repl_backlog_active", "repl_backlog_size",
                                             "repl_backlog_first_byte_offset", "repl_backlog_histlen"};
  EXPECT_EQ(infoKeys(info), expected);
  const std::string slave0 = infoField(info, "slave0");
  EXPECT_EQ(slave0.rfind("ip=10.0.0.2,port=6379,state=online,offset=", 0), 0u) << slave0;
  EXPECT_NE(slave0.find(",lag="), std::string::npos);
  // SELECT (23 bytes) + SET a b (27 bytes) on top of the offset at sync time.
  EXPECT_EQ(infoField(info, "master_replid").size(), 40u);
  EXPECT_EQ(infoField(info, "master_replid2"), std::string(40, '0'));
  EXPECT_EQ(infoField(info, "second_repl_offset"), "-1");
  EXPECT_EQ(infoField(info, "repl_backlog_size"), "1048576");
  EXPECT_EQ(info.substr(info.size() - 2), "\r\n");
}

TEST(RedisCommands, StreamOffsetsCountRespBytes) {
  SimWorld w;
  TopologyOptions o;
  o.replicas = 1;
  o.sentinels = 0;
  Topology t(w.sim, o);
  w.runFor(milliseconds(100));  // the replica's PSYNC created the backlog at offset 0
  ASSERT_TRUE(w.must(Topology::redisEp(0), {"SET", "a", "b"}).isOk());
  EXPECT_EQ(t.redis(0).replOffset(), 50);  // SELECT 0 (23) + SET a b (27), as real Redis
}

TEST(RedisCommands, InfoReplicationOfAReplicaHasRedisFields) {
  Pair p;
  const std::string info = p.w.must(p.r, {"INFO", "replication"}).str;
  const std::vector<std::string> expected = {
      "role", "master_host", "master_port", "master_link_status", "master_last_io_seconds_ago",
      "master_sync_in_progress", "slave_read_repl_offset", "slave_repl_offset", "slave_priority", "slave_read_only",
      "replica_announced", "connected_slaves", "master_failover_state", "master_replid", "master_replid2",
      "master_repl_offset", "second_repl_offset", "repl_backlog_active", "repl_backlog_size",
      "repl_backlog_first_byte_offset", "repl_backlog_histlen"};
  EXPECT_EQ(infoKeys(info), expected) << info;
  EXPECT_EQ(infoField(info, "role"), "slave");
  EXPECT_EQ(infoField(info, "master_host"), "10.0.0.1");
  EXPECT_EQ(infoField(info, "master_port"), "6379");
  EXPECT_EQ(infoField(info, "master_link_status"), "up");
  EXPECT_EQ(infoField(info, "slave_priority"), "100");
  // A broken link adds master_link_down_since_seconds.
  p.t.redis(0).crash();
  p.w.runFor(seconds(3));
  const std::string down = p.w.must(p.r, {"INFO", "replication"}).str;
  EXPECT_EQ(infoField(down, "master_link_status"), "down");
  EXPECT_EQ(infoField(down, "master_last_io_seconds_ago"), "-1");
  EXPECT_EQ(infoField(down, "master_link_down_since_seconds"), "3");
}

TEST(RedisCommands, InfoServerCarriesRunIdAndPort) {
  Pair p;
  const std::string info = p.w.must(p.m, {"INFO", "server"}).str;
  EXPECT_EQ(info.rfind("# Server\r\nredis_version:7.0.15\r\n", 0), 0u);
  EXPECT_EQ(infoField(info, "run_id"), p.t.redis(0).runId());
  EXPECT_EQ(infoField(info, "tcp_port"), "6379");
  EXPECT_EQ(infoField(info, "redis_mode"), "standalone");
  const std::string all = p.w.must(p.m, {"INFO"}).str;
  EXPECT_NE(all.find("# Server\r\n"), std::string::npos);
  EXPECT_NE(all.find("\r\n\r\n# Replication\r\n"), std::string::npos);
}

// INFO reads the settings it shows from a copy kept beside the configuration: it must
// follow the configuration at boot (redis.conf) and through CONFIG SET.
TEST(RedisCommands, InfoShowsTheSettingsAsConfigured) {
  SimWorld w;
  TopologyOptions o;
  o.replicas = 1;
  o.sentinels = 0;
  o.redisConfig = {{"hz", "25"}, {"maxclients", "900"}};
  Topology t(w.sim, o);
  w.runFor(seconds(7));
  const RedisEndpoint r = Topology::redisEp(1);
  auto field = [&](const char* section, const char* name) { return infoField(w.must(r, {"INFO", section}).str, name); };
  EXPECT_EQ(field("server", "hz"), "25");
  EXPECT_EQ(field("clients", "maxclients"), "900");
  EXPECT_EQ(field("replication", "slave_priority"), "100");
  ASSERT_TRUE(w.must(r, {"CONFIG", "SET", "hz", "40", "maxclients", "1000", "maxmemory", "2mb", "maxmemory-policy",
                         "allkeys-lru", "replica-priority", "7", "replica-announced", "no"})
                  .isOk());
  EXPECT_EQ(field("server", "hz"), "40");
  EXPECT_EQ(field("server", "configured_hz"), "40");
  EXPECT_EQ(field("clients", "maxclients"), "1000");
  EXPECT_EQ(field("memory", "maxmemory"), "2097152");
  EXPECT_EQ(field("memory", "maxmemory_policy"), "allkeys-lru");
  EXPECT_EQ(field("replication", "slave_priority"), "7");
  EXPECT_EQ(field("replication", "replica_announced"), "0");
  ASSERT_TRUE(w.must(r, {"CONFIG", "SET", "requirepass", "pw"}).isOk());
  EXPECT_EQ(w.must(r, {"INFO"}).str.rfind("NOAUTH", 0), 0u);
  EXPECT_EQ(infoField(w.must(r, {"INFO", "server"}, "pw").str, "hz"), "40");
  t.redis(1).crash();  // redis.conf again: CONFIG SET was not rewritten
  t.redis(1).start();
  w.runFor(seconds(1));
  EXPECT_EQ(field("server", "hz"), "25");
  EXPECT_EQ(field("replication", "slave_priority"), "100");
}

TEST(RedisCommands, RoleOfMasterAndReplica) {
  Pair p;
  auto role = p.w.must(p.m, {"ROLE"});
  ASSERT_EQ(role.type, RedisReply::Type::Array);
  ASSERT_EQ(role.elements.size(), 3u);
  EXPECT_EQ(role.elements[0].str, "master");
  EXPECT_EQ(role.elements[1].type, RedisReply::Type::Integer);
  ASSERT_EQ(role.elements[2].elements.size(), 1u);
  EXPECT_EQ(role.elements[2].elements[0].elements[0].str, "10.0.0.2");
  EXPECT_EQ(role.elements[2].elements[0].elements[1].str, "6379");
  auto rrole = p.w.must(p.r, {"ROLE"});
  ASSERT_EQ(rrole.elements.size(), 5u);
  EXPECT_EQ(rrole.elements[0].str, "slave");
  EXPECT_EQ(rrole.elements[1].str, "10.0.0.1");
  EXPECT_EQ(rrole.elements[2].integer, 6379);
  EXPECT_EQ(rrole.elements[3].str, "connected");
  EXPECT_EQ(rrole.elements[4].integer, p.t.redis(1).replOffset());
  p.t.redis(0).crash();
  p.w.runFor(milliseconds(500));
  rrole = p.w.must(p.r, {"ROLE"});
  EXPECT_EQ(rrole.elements[3].str, "connect");
  EXPECT_EQ(rrole.elements[4].integer, -1);
}

TEST(RedisCommands, ConfigSetRefusesUnknownImmutableAndProtectedParameters) {
  Pair p;
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "foo", "bar"}).str,
            "ERR Unknown option or number of arguments for CONFIG SET - 'foo'");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "daemonize", "yes"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'daemonize') - can't set immutable config");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "dir", "/tmp"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'dir') - can't set protected config");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "replicaof", "x"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'replicaof') - can't set immutable config");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "databases", "3"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'databases') - can't set immutable config");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "maxmemory"}).str,
            "ERR wrong number of arguments for 'config|set' command");
}

TEST(RedisCommands, ConfigSetOfSeveralParametersIsAllOrNothing) {
  Pair p;
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "maxmemory", "10mb", "appendonly", "maybe"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'appendonly') - argument must be 'yes' or 'no'");
  auto mm = p.w.must(p.m, {"CONFIG", "GET", "maxmemory"});
  EXPECT_EQ(mm.elements[1].str, "0");  // nothing applied
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "maxmemory", "10mb", "maxmemory", "20mb"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'maxmemory') - duplicate parameter");
  EXPECT_TRUE(p.w.must(p.m, {"CONFIG", "SET", "maxmemory", "10mb", "maxmemory-policy", "allkeys-lru"}).isOk());
  mm = p.w.must(p.m, {"CONFIG", "GET", "maxmemory"});
  EXPECT_EQ(mm.elements[1].str, "10485760");
}

TEST(RedisCommands, ConfigSetValidatesAndClampsValues) {
  Pair p;
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "min-replicas-to-write", "-1"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'min-replicas-to-write') - argument must be "
            "between 0 and 2147483647 inclusive");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "maxmemory", "1zz"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'maxmemory') - argument must be a memory value");
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "SET", "save", "abc"}).str,
            "ERR CONFIG SET failed (possibly related to argument 'save') - Invalid save parameters");
  EXPECT_NE(p.w.must(p.m, {"CONFIG", "SET", "maxmemory-policy", "foo"}).str.find("must be one of the following"),
            std::string::npos);
  ASSERT_TRUE(p.w.must(p.m, {"CONFIG", "SET", "hz", "1000"}).isOk());
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "GET", "hz"}).elements[1].str, "500");
  ASSERT_TRUE(p.w.must(p.m, {"CONFIG", "SET", "repl-backlog-size", "1"}).isOk());
  EXPECT_EQ(p.w.must(p.m, {"CONFIG", "GET", "repl-backlog-size"}).elements[1].str, "16384");
}

TEST(RedisCommands, ConfigAliasesAndPatterns) {
  Pair p;
  ASSERT_TRUE(p.w.must(p.m, {"CONFIG", "SET", "slave-priority", "5"}).isOk());
  auto rp = p.w.must(p.m, {"CONFIG", "GET", "replica-priority"});
  ASSERT_EQ(rp.elements.size(), 2u);
  EXPECT_EQ(rp.elements[1].str, "5");
  auto many = p.w.must(p.m, {"CONFIG", "GET", "maxmemory", "hz"});
  EXPECT_EQ(many.elements.size(), 4u);
  EXPECT_TRUE(p.w.must(p.m, {"CONFIG", "GET", "nosuch"}).elements.empty());
  auto slaves = p.w.must(p.m, {"CONFIG", "GET", "slave*"});
  bool sawPriority = false;
  for (std::size_t i = 0; i + 1 < slaves.elements.size(); i += 2)
    if (slaves.elements[i].str == "slave-priority") sawPriority = slaves.elements[i + 1].str == "5";
  EXPECT_TRUE(sawPriority);
  // A changed replica-priority shows in INFO where Sentinel reads it.
  ASSERT_TRUE(p.w.must(p.r, {"CONFIG", "SET", "replica-priority", "0"}).isOk());
  EXPECT_EQ(infoField(p.w.must(p.r, {"INFO", "replication"}).str, "slave_priority"), "0");
}

// A name without glob characters is looked up rather than matched against every
// parameter: the answer must be the one the glob walk gives (case ignored, the name as the
// table spells it, an alias under its own name).
TEST(RedisCommands, ConfigGetPlainNameAnswersAsTheGlobDoes) {
  Pair p;
  ASSERT_TRUE(p.w.must(p.m, {"CONFIG", "SET", "slave-priority", "7"}).isOk());
  auto plain = p.w.must(p.m, {"CONFIG", "GET", "Slave-PRIORITY"});
  ASSERT_EQ(plain.elements.size(), 2u);
  EXPECT_EQ(plain.elements[0].str, "slave-priority");
  EXPECT_EQ(plain.elements[1].str, "7");
  auto glob = p.w.must(p.m, {"CONFIG", "GET", "Slave-PRIORIT[Y]"});
  ASSERT_EQ(glob.elements.size(), 2u);
  EXPECT_EQ(glob.elements[0].str, plain.elements[0].str);
  EXPECT_EQ(glob.elements[1].str, plain.elements[1].str);
  // Both spellings of one parameter in one call: both names answered, sorted.
  auto both = p.w.must(p.m, {"CONFIG", "GET", "replica-priority", "SLAVE-priority"});
  ASSERT_EQ(both.elements.size(), 4u);
  EXPECT_EQ(both.elements[0].str, "replica-priority");
  EXPECT_EQ(both.elements[2].str, "slave-priority");
  EXPECT_EQ(both.elements[3].str, "7");
}

TEST(RedisCommands, AuthNoauthAndWrongpass) {
  SimWorld w;
  TopologyOptions o;
  o.replicas = 0;
  o.sentinels = 0;
  o.password = "s3cret";
  Topology t(w.sim, o);
  w.runFor(milliseconds(100));
  const auto m = Topology::redisEp(0);
  EXPECT_EQ(w.must(m, {"PING"}).str, "NOAUTH Authentication required.");
  EXPECT_EQ(w.must(m, {"GET", "a"}).str, "NOAUTH Authentication required.");
  EXPECT_EQ(w.must(m, {"AUTH", "wrong"}).str, "WRONGPASS invalid username-password pair or user is disabled.");
  EXPECT_EQ(w.must(m, {"AUTH", "a", "b"}).str, "WRONGPASS invalid username-password pair or user is disabled.");
  EXPECT_EQ(w.must(m, {"PING"}, "wrong").str, "WRONGPASS invalid username-password pair or user is disabled.");
  EXPECT_EQ(w.must(m, {"PING"}, "s3cret").str, "PONG");
  EXPECT_TRUE(w.must(m, {"AUTH", "default", "s3cret"}).isOk());
  // Removing the password: AUTH then says none is configured.
  ASSERT_TRUE(w.must(m, {"CONFIG", "SET", "requirepass", ""}, "s3cret").isOk());
  EXPECT_EQ(w.must(m, {"PING"}).str, "PONG");
  EXPECT_EQ(w.must(m, {"AUTH", "x"}).str.rfind("ERR AUTH <password> called without any password configured", 0), 0u);
}

// As Redis: a connection opened while there is no password stays authenticated when
// requirepass is set (real redis-server 7.0: PING on the same connection answers PONG); a
// new one must AUTH. The replication links and Sentinel's links live on.
TEST(RedisCommands, RequirepassSetLaterLeavesOpenConnectionsAuthenticated) {
  SimWorld w;
  TopologyOptions o;
  o.replicas = 1;
  Topology t(w.sim, o);
  ASSERT_TRUE(w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40)));
  for (int i = 0; i < 2; ++i) {
    ASSERT_TRUE(w.must(Topology::redisEp(i), {"CONFIG", "SET", "masterauth", "pw"}).isOk());
    ASSERT_TRUE(w.must(Topology::redisEp(i), {"CONFIG", "SET", "requirepass", "pw"}).isOk());
  }
  EXPECT_EQ(w.must(Topology::redisEp(0), {"PING"}).str, "NOAUTH Authentication required.");  // a new connection
  w.runFor(seconds(90));  // past repl-timeout (60 s) and Sentinel's down-after
  EXPECT_EQ(w.count("disconnecting timedout replica"), 0u) << w.lastTrace();
  EXPECT_EQ(w.count("+sdown"), 0u) << w.lastTrace();
  EXPECT_EQ(infoField(w.must(Topology::redisEp(0), {"INFO", "replication"}, "pw").str, "connected_slaves"), "1");
}

TEST(RedisCommands, ReplicaofRepliesAsRedis) {
  Pair p;
  EXPECT_EQ(p.w.must(p.r, {"REPLICAOF", "10.0.0.1", "6379"}).str, "OK Already connected to specified master");
  EXPECT_EQ(p.w.must(p.r, {"REPLICAOF", "10.0.0.1", "notaport"}).str, "ERR Invalid master port");
  EXPECT_EQ(p.w.must(p.r, {"REPLICAOF", "a"}).str, "ERR wrong number of arguments for 'replicaof' command");
  EXPECT_TRUE(p.w.must(p.r, {"SLAVEOF", "NO", "ONE"}).isOk());
  EXPECT_TRUE(p.t.redis(1).isMaster());
  EXPECT_TRUE(p.w.must(p.r, {"REPLICAOF", "no", "one"}).isOk());
  EXPECT_EQ(p.w.must(p.r, {"CONFIG", "GET", "replicaof"}).elements[1].str, "");
  EXPECT_TRUE(p.w.must(p.r, {"REPLICAOF", "10.0.0.1", "6379"}).isOk());
  EXPECT_EQ(p.w.must(p.r, {"CONFIG", "GET", "replicaof"}).elements[1].str, "10.0.0.1 6379");
}

TEST(RedisCommands, DataCommands) {
  Pair p;
  EXPECT_TRUE(p.w.must(p.m, {"SET", "a", "1"}).isOk());
  EXPECT_TRUE(p.w.must(p.m, {"SET", "b", "2"}).isOk());
  EXPECT_EQ(p.w.must(p.m, {"GET", "a"}).str, "1");
  EXPECT_EQ(p.w.must(p.m, {"GET", "zz"}).type, RedisReply::Type::Nil);
  auto mget = p.w.must(p.m, {"MGET", "a", "zz", "b"});
  ASSERT_EQ(mget.elements.size(), 3u);
  EXPECT_EQ(mget.elements[0].str, "1");
  EXPECT_EQ(mget.elements[1].type, RedisReply::Type::Nil);
  EXPECT_EQ(mget.elements[2].str, "2");
  EXPECT_EQ(p.w.must(p.m, {"DBSIZE"}).integer, 2);
  EXPECT_EQ(p.w.must(p.m, {"DEL", "a", "zz"}).integer, 1);
  EXPECT_EQ(p.w.must(p.m, {"DBSIZE"}).integer, 1);
  EXPECT_EQ(p.w.must(p.m, {"SET", "b", "3", "NX"}).type, RedisReply::Type::Nil);
  EXPECT_EQ(p.w.must(p.m, {"GET", "b"}).str, "2");
  EXPECT_EQ(p.w.must(p.m, {"NOSUCH", "x"}).str, "ERR unknown command 'NOSUCH', with args beginning with: 'x' ");
  EXPECT_EQ(p.w.must(p.m, {"GET"}).str, "ERR wrong number of arguments for 'get' command");
  p.w.runFor(milliseconds(5));
  EXPECT_EQ(p.w.must(p.r, {"DBSIZE"}).integer, 1);
}

TEST(RedisCommands, FailoverCommandHandsTheMasterRoleToAReplica) {
  Pair p;
  EXPECT_EQ(p.w.must(p.r, {"FAILOVER"}).str, "ERR FAILOVER is not valid when server is a replica.");
  EXPECT_EQ(p.w.must(p.m, {"FAILOVER", "TO", "10.0.0.9", "6379"}).str,
            "ERR FAILOVER target HOST and PORT is not a replica.");
  EXPECT_EQ(p.w.must(p.m, {"FAILOVER", "ABORT"}).str, "ERR No failover in progress.");
  ASSERT_TRUE(p.w.must(p.m, {"SET", "k", "v"}).isOk());
  ASSERT_TRUE(p.w.must(p.m, {"FAILOVER"}).isOk());
  EXPECT_EQ(p.w.must(p.m, {"FAILOVER"}).str, "ERR FAILOVER already in progress.");
  EXPECT_TRUE(p.w.runUntil([&] { return p.t.redis(1).isMaster() && p.t.redis(0).masterLinkUp(); }, seconds(5)))
      << p.w.lastTrace();
  EXPECT_EQ(p.t.redis(0).masterHost(), "10.0.0.2");
  EXPECT_EQ(p.t.redis(0).data().count("k"), 1u);
  EXPECT_EQ(p.t.redis(1).fullSyncs(), 0u);  // the old master resumed with a partial resync
}

TEST(RedisCommands, ExecAndDiscardWithoutMultiAreErrors) {
  Pair p;
  RedisNode& n = p.t.redis(0);
  EXPECT_EQ(n.executeAdmin({"EXEC"}, "").str, "ERR EXEC without MULTI");
  EXPECT_EQ(n.executeAdmin({"DISCARD"}, "").str, "ERR DISCARD without MULTI");
}

}  // namespace
}  // namespace kun::redissim::test
