#include "core/redis/role_parser.h"

#include <gtest/gtest.h>

#include "tests/unit/redisclient/fixture.h"

namespace kun {
namespace {

using testing::fixtureReply;

TEST(RoleParser, MasterFromRealRedis) {
  auto r = parseRole(fixtureReply("role_new_master.resp"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->kind, RoleInfo::Kind::Master);
  EXPECT_EQ(r->masterReplOffset, 20473);
  ASSERT_EQ(r->replicas.size(), 2u);
  EXPECT_EQ(r->replicas[0].ip, "127.88.0.3");
  EXPECT_EQ(r->replicas[0].port, 6379);
  EXPECT_EQ(r->replicas[0].offset, 20337);
  EXPECT_EQ(r->replicas[1].ip, "127.88.0.1");
}

TEST(RoleParser, ReplicaFromRealRedis) {
  auto r = parseRole(fixtureReply("role_replica.resp"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->kind, RoleInfo::Kind::Replica);
  EXPECT_EQ(r->masterHost, "127.88.0.1");
  EXPECT_EQ(r->masterPort, 6379);
  EXPECT_EQ(r->linkState, "connected");
  EXPECT_EQ(r->replicaOffset, 2485);
}

TEST(RoleParser, SentinelFromRealRedis) {
  auto r = parseRole(fixtureReply("role_sentinel.resp"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  EXPECT_EQ(r->kind, RoleInfo::Kind::Sentinel);
  EXPECT_EQ(r->monitoredMasters, std::vector<std::string>{"mymaster"});
}

TEST(RoleParser, WrongShapesAreInvalidAndErrorsPassThrough) {
  EXPECT_TRUE(parseRole(RedisReply::integerReply(1)).is(Reason::Invalid));
  EXPECT_TRUE(parseRole(RedisReply::array({})).is(Reason::Invalid));
  EXPECT_TRUE(parseRole(RedisReply::array({RedisReply::bulk("leader")})).is(Reason::Invalid));
  EXPECT_TRUE(parseRole(RedisReply::array({RedisReply::bulk("slave"), RedisReply::bulk("h")}))
                  .is(Reason::Invalid));
  EXPECT_TRUE(parseRole(RedisReply::error("NOAUTH Authentication required.")).is(Reason::Auth));
}

}  // namespace
}  // namespace kun
