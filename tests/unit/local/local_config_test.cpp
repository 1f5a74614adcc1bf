#include "fakeapi/local/local_config.h"

#include <gtest/gtest.h>

#include "fakeapi/local/address_block_real.h"
#include "fakeapi/local/sentinel_events_real.h"

namespace kun::local {
namespace {

bool hasLine(const std::string& text, const std::string& line) {
  return ("\n" + text).find("\n" + line + "\n") != std::string::npos;
}

TEST(LocalConfig, ReplicaBindsConnectsAndAnnouncesItsOwnAddress) {
  RedisNodeConfig c;
  c.self = {"127.77.3.2", 6379};
  c.dir = "/tmp/x/redis-1";
  c.replicaOf = RedisEndpoint{"127.77.3.1", 6379};
  const std::string text = redisConfigText(c);
  EXPECT_TRUE(hasLine(text, "bind 127.77.3.2"));
  EXPECT_TRUE(hasLine(text, "port 6379"));
  EXPECT_TRUE(hasLine(text, "bind-source-addr 127.77.3.2"));
  EXPECT_TRUE(hasLine(text, "replica-announce-ip 127.77.3.2"));
  EXPECT_TRUE(hasLine(text, "protected-mode no"));
  EXPECT_TRUE(hasLine(text, "dir /tmp/x/redis-1"));
  EXPECT_TRUE(hasLine(text, "replicaof 127.77.3.1 6379"));
  EXPECT_TRUE(hasLine(text, "save \"\""));
  EXPECT_TRUE(hasLine(text, "appendonly no"));
  EXPECT_EQ(text.find("requirepass"), std::string::npos);
}

TEST(LocalConfig, MasterWithPasswordAndPersistence) {
  RedisNodeConfig c;
  c.self = {"127.77.3.1", 6379};
  c.dir = "/d";
  c.persistence = true;
  c.password = "s3cret";
  const std::string text = redisConfigText(c);
  EXPECT_EQ(text.find("replicaof"), std::string::npos);
  EXPECT_TRUE(hasLine(text, "appendonly yes"));
  EXPECT_TRUE(hasLine(text, "requirepass \"s3cret\""));
  EXPECT_TRUE(hasLine(text, "masterauth \"s3cret\""));
}

TEST(LocalConfig, SentinelMonitorsWithTheGivenTimers) {
  SentinelNodeConfig c;
  c.self = {"127.77.3.4", 26379};
  c.dir = "/d";
  c.master = {"127.77.3.1", 6379};
  c.quorum = 2;
  c.downAfterMs = 1000;
  c.failoverTimeoutMs = 60000;
  c.parallelSyncs = 1;
  const std::string text = sentinelConfigText(c);
  EXPECT_TRUE(hasLine(text, "bind 127.77.3.4"));
  EXPECT_TRUE(hasLine(text, "port 26379"));
  EXPECT_TRUE(hasLine(text, "sentinel announce-ip 127.77.3.4"));
  EXPECT_TRUE(hasLine(text, "sentinel monitor mymaster 127.77.3.1 6379 2"));
  EXPECT_TRUE(hasLine(text, "sentinel down-after-milliseconds mymaster 1000"));
  EXPECT_TRUE(hasLine(text, "sentinel failover-timeout mymaster 60000"));
  EXPECT_TRUE(hasLine(text, "sentinel parallel-syncs mymaster 1"));
  EXPECT_EQ(text.find("auth-pass"), std::string::npos);
  c.authPass = "pw";
  EXPECT_TRUE(hasLine(sentinelConfigText(c), "sentinel auth-pass mymaster \"pw\""));
}

TEST(SentinelEvents, SwitchMasterPayloadNamesTheNewMaster) {
  auto ep = switchMasterTarget("mymaster 127.77.1.1 6379 127.77.1.3 6379");
  ASSERT_TRUE(ep);
  EXPECT_EQ(*ep, (RedisEndpoint{"127.77.1.3", 6379}));
  EXPECT_FALSE(switchMasterTarget("mymaster 127.77.1.1 6379"));
  EXPECT_FALSE(switchMasterTarget("mymaster a 1 b port"));
}

TEST(AddressBlock, TwoReservationsNeverShareAddresses) {
  auto a = AddressBlock::reserve(6, {6379, 26379});
  ASSERT_TRUE(a.ok()) << a.error().message;
  auto b = AddressBlock::reserve(6, {6379, 26379});
  ASSERT_TRUE(b.ok()) << b.error().message;
  EXPECT_NE(a->block(), b->block());
  EXPECT_NE(a->address(0), b->address(0));
  EXPECT_EQ(a->address(0).rfind("127.77.", 0), 0u);
}

}  // namespace
}  // namespace kun::local
