#include "core/redis/hiredis_reply.h"

#include <gtest/gtest.h>

#include "tests/unit/redisclient/fixture.h"

namespace kun {
namespace {

TEST(RespDecode, AllReplyTypes) {
  auto r = decodeResp("+OK\r\n-ERR bad\r\n:42\r\n$3\r\nabc\r\n$-1\r\n*2\r\n:1\r\n*0\r\n");
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_EQ(r->size(), 6u);
  EXPECT_TRUE((*r)[0].isOk());
  EXPECT_TRUE((*r)[1].isError());
  EXPECT_EQ((*r)[1].errorCode(), "ERR");
  EXPECT_EQ((*r)[2].integer, 42);
  EXPECT_EQ((*r)[3].type, RedisReply::Type::String);
  EXPECT_EQ((*r)[3].str, "abc");
  EXPECT_EQ((*r)[4].type, RedisReply::Type::Nil);
  ASSERT_EQ((*r)[5].elements.size(), 2u);
  EXPECT_EQ((*r)[5].elements[1].type, RedisReply::Type::Array);
}

TEST(RespDecode, BinarySafeBulkStrings) {
  auto r = decodeResp(std::string("$3\r\na\0b\r\n", 9));
  ASSERT_TRUE(r.ok());
  ASSERT_EQ(r->size(), 1u);
  EXPECT_EQ((*r)[0].str, std::string("a\0b", 3));
}

TEST(RespDecode, TruncatedAndGarbageAreInvalid) {
  EXPECT_TRUE(decodeResp("*2\r\n:1\r\n").is(Reason::Invalid));
  EXPECT_TRUE(decodeResp("$10\r\nabc").is(Reason::Invalid));
  EXPECT_TRUE(decodeResp("?what\r\n").is(Reason::Invalid));
}

TEST(RespDecode, SentinelPubSubStreamFromRealSentinel) {
  auto r = decodeResp(testing::fixtureBytes("pubsub_kill.resp"));
  ASSERT_TRUE(r.ok()) << r.error().message;
  ASSERT_GE(r->size(), 5u);
  EXPECT_EQ((*r)[0].elements[0].str, "psubscribe");
  bool sawSwitch = false;
  for (const auto& m : *r) {
    if (m.elements.size() == 4 && m.elements[2].str == "+switch-master") {
      sawSwitch = true;
      EXPECT_EQ(m.elements[3].str, "mymaster 127.88.0.2 6379 127.88.0.3 6379");
    }
  }
  EXPECT_TRUE(sawSwitch);
}

TEST(RespDecode, ReplicaRefusesWrites) {
  auto r = testing::fixtureReply("set_readonly.resp");
  EXPECT_EQ(r.errorCode(), "READONLY");
}

}  // namespace
}  // namespace kun
