#include "core/redis/sentinel_parser.h"

#include <gtest/gtest.h>

#include <stdexcept>

#include "tests/unit/redisclient/fixture.h"

namespace kun {
namespace {

using testing::fixtureReply;

TEST(SentinelParser, MasterFromRealSentinel) {
  auto m = parseSentinelMaster(fixtureReply("sentinel_master.resp"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->name, "mymaster");
  EXPECT_EQ(m->endpoint(), (RedisEndpoint{"127.88.0.1", 6379}));
  EXPECT_TRUE(m->flags.master);
  EXPECT_FALSE(m->flags.down());
  EXPECT_EQ(m->numSlaves, 2);
  EXPECT_EQ(m->numOtherSentinels, 2);
  EXPECT_EQ(m->quorum, 2);
  EXPECT_EQ(m->downAfterMs, 1000);
  EXPECT_EQ(m->failoverTimeoutMs, 60000);
  EXPECT_EQ(m->parallelSyncs, 1);
  EXPECT_EQ(m->configEpoch, 0);
  EXPECT_FALSE(m->sDownTimeMs.has_value());
  EXPECT_TRUE(m->failoverState.empty());
  EXPECT_EQ(m->fields.at("role-reported"), "master");
}

TEST(SentinelParser, ObjectivelyDownMaster) {
  auto m = parseSentinelMaster(fixtureReply("sentinel_master_odown.resp"));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_TRUE(m->flags.sDown);
  EXPECT_TRUE(m->flags.oDown);
  EXPECT_TRUE(m->flags.master);
  EXPECT_FALSE(m->flags.disconnected);
  EXPECT_EQ(m->sDownTimeMs, 249);
  EXPECT_EQ(m->oDownTimeMs, 147);
  EXPECT_EQ(m->linkPendingCommands, 12);

  auto killed = parseSentinelMaster(fixtureReply("sentinel_master_odown_disconnected.resp"));
  ASSERT_TRUE(killed.ok());
  EXPECT_TRUE(killed->flags.disconnected);
  EXPECT_EQ(killed->configEpoch, 1);
}

TEST(SentinelParser, MastersList) {
  auto ms = parseSentinelMasters(fixtureReply("sentinel_masters.resp"));
  ASSERT_TRUE(ms.ok()) << ms.error().message;
  ASSERT_EQ(ms->size(), 1u);
  EXPECT_EQ((*ms)[0].name, "mymaster");
}

TEST(SentinelParser, ReplicasBeforeAndAfterFailover) {
  auto before = parseSentinelReplicas(fixtureReply("sentinel_replicas.resp"));
  ASSERT_TRUE(before.ok()) << before.error().message;
  ASSERT_EQ(before->size(), 2u);
  for (const auto& r : *before) {
    EXPECT_TRUE(r.flags.slave);
    EXPECT_EQ(r.masterHost, "127.88.0.1");
    EXPECT_EQ(r.masterLinkStatus, "ok");
    EXPECT_EQ(r.slavePriority, 100);
    EXPECT_TRUE(r.replicaAnnounced);
  }

  auto after = parseSentinelReplicas(fixtureReply("sentinel_replicas_after_failover.resp"));
  ASSERT_TRUE(after.ok());
  ASSERT_EQ(after->size(), 2u);
  EXPECT_EQ((*after)[0].name, "127.88.0.1:6379");  // the old master, now a replica
  EXPECT_EQ((*after)[0].masterHost, "127.88.0.2");
  EXPECT_EQ((*after)[0].slaveReplOffset, 19929);

  auto killed = parseSentinelReplicas(fixtureReply("sentinel_replicas_with_killed.resp"));
  ASSERT_TRUE(killed.ok());
  ASSERT_EQ(killed->size(), 2u);
  EXPECT_EQ((*killed)[0].endpoint(), (RedisEndpoint{"127.88.0.2", 6379}));
  EXPECT_TRUE((*killed)[0].flags.sDown);
  EXPECT_TRUE((*killed)[0].flags.slave);
  EXPECT_TRUE((*killed)[0].flags.disconnected);
  EXPECT_FALSE((*killed)[1].flags.down());
}

TEST(SentinelParser, SentinelsList) {
  auto ps = parseSentinelSentinels(fixtureReply("sentinel_sentinels.resp"));
  ASSERT_TRUE(ps.ok()) << ps.error().message;
  ASSERT_EQ(ps->size(), 2u);
  EXPECT_EQ((*ps)[0].ip, "127.88.0.13");
  EXPECT_EQ((*ps)[0].port, 26379);
  EXPECT_TRUE((*ps)[0].flags.sentinel);
  EXPECT_EQ((*ps)[0].votedLeader, "?");
  EXPECT_EQ((*ps)[0].runId, (*ps)[0].name);
}

TEST(SentinelParser, MasterAddress) {
  auto a = parseMasterAddr(fixtureReply("sentinel_get_master_addr.resp"));
  ASSERT_TRUE(a.ok());
  ASSERT_TRUE(a->has_value());
  EXPECT_EQ(**a, (RedisEndpoint{"127.88.0.1", 6379}));

  auto unknown = parseMasterAddr(fixtureReply("sentinel_get_master_addr_unknown.resp"));
  ASSERT_TRUE(unknown.ok());
  EXPECT_FALSE(unknown->has_value());

  EXPECT_TRUE(parseMasterAddr(RedisReply::array({RedisReply::bulk("h"), RedisReply::bulk("x")}))
                  .is(Reason::Invalid));
}

TEST(SentinelParser, UnknownMasterIsNotFound) {
  EXPECT_TRUE(parseSentinelMaster(fixtureReply("sentinel_master_unknown.resp")).is(Reason::NotFound));
}

TEST(SentinelParser, FlagsKeepUnknownNames) {
  auto f = SentinelFlags::parse("s_down,slave,reconf_inprog,brand_new_flag");
  EXPECT_TRUE(f.sDown);
  EXPECT_TRUE(f.slave);
  EXPECT_TRUE(f.reconfInprog);
  EXPECT_FALSE(f.master);
  EXPECT_TRUE(f.has("brand_new_flag"));
  EXPECT_FALSE(f.has("brand"));
  EXPECT_EQ(f.names(), (std::vector<std::string_view>{"s_down", "slave", "reconf_inprog", "brand_new_flag"}));
  EXPECT_EQ(SentinelFlags::parse(",master,,").names(), std::vector<std::string_view>{"master"});
  EXPECT_TRUE(SentinelFlags::parse("").names().empty());
}

// assign() reuses the object: nothing of the flags it held before is left.
TEST(SentinelParser, FlagsAssignedOverOthersAreAsParsed) {
  auto f = SentinelFlags::parse("s_down,o_down,master,failover_in_progress,some_long_unknown_flag_name");
  f.assign("slave,disconnected");
  const auto fresh = SentinelFlags::parse("slave,disconnected");
  EXPECT_EQ(f.text, fresh.text);
  EXPECT_EQ(f.names(), fresh.names());
  EXPECT_FALSE(f.sDown || f.oDown || f.master || f.failoverInProgress);
  EXPECT_TRUE(f.slave && f.disconnected);
  f.assign("");
  EXPECT_TRUE(f.text.empty());
  EXPECT_FALSE(f.slave || f.disconnected);
}

// A master entry keeps every field it was sent, integers as text, and reads a repeated key
// as its last value (what the map it replaced held); heal compares settings through it.
TEST(SentinelParser, MasterFieldsKeepEverythingSent) {
  using R = RedisReply;
  auto m = parseSentinelMaster(R::array({R::bulk("name"), R::bulk("mymaster"), R::bulk("quorum"), R::bulk("2"),
                                         R::bulk("brand-new-field"), R::integerReply(42), R::bulk("quorum"),
                                         R::bulk("3")}));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->fields.size(), 4u);
  ASSERT_TRUE(m->fields.find("brand-new-field").has_value());
  EXPECT_EQ(*m->fields.find("brand-new-field"), "42");
  EXPECT_EQ(m->fields.at("quorum"), "3");
  EXPECT_EQ(m->quorum, 2);  // a typed field reads the first of a repeated key
  EXPECT_FALSE(m->fields.find("ip").has_value());
  EXPECT_THROW((void)m->fields.at("ip"), std::out_of_range);
  EXPECT_EQ(m->fields["ip"], "");
  EXPECT_EQ(m->fields["name"], "mymaster");
  auto all = parseSentinelFields(fixtureReply("sentinel_master.resp"));
  ASSERT_TRUE(all.ok());
  auto real = parseSentinelMaster(fixtureReply("sentinel_master.resp"));
  ASSERT_TRUE(real.ok());
  for (const auto& [k, v] : *all) EXPECT_EQ(real->fields.at(k), v) << k;
}

// A master's fields read the same however they were handed over: a key of kSentinelKeys by
// name or by index, a number as a number or as its text, a key of none of them as sent.
TEST(SentinelParser, MasterFieldsReadTheSameHoweverHandedOver) {
  const std::size_t quorum = kSentinelKeys.indexOf("quorum");
  const std::size_t port = kSentinelKeys.indexOf("port");
  ASSERT_LT(quorum, kSentinelKeys.size());
  SentinelReader<SentinelMasterInfo> byName, byIndex;
  byName.beginEntry();
  byName.field("port", "6379");
  byName.field("brand-new-field", "-12");
  byName.field("quorum", "2");
  byName.field("other", "");
  byName.endEntry();
  byIndex.beginEntry();
  byIndex.numberAt(port, 6379);
  byIndex.number("brand-new-field", -12);
  byIndex.fieldAt(quorum, "2");
  byIndex.field("other", "");
  byIndex.endEntry();
  auto a = byName.takeOne();
  auto b = byIndex.takeOne();
  ASSERT_TRUE(a.ok() && b.ok());
  EXPECT_EQ(a->fields, b->fields);
  ASSERT_EQ(b->fields.size(), 4u);
  const std::pair<std::string, std::string> want[] = {
      {"port", "6379"}, {"brand-new-field", "-12"}, {"quorum", "2"}, {"other", ""}};
  for (std::size_t i = 0; i < 4; ++i) {
    EXPECT_EQ(b->fields.key(i), want[i].first);
    EXPECT_EQ(b->fields.value(i), want[i].second);
    EXPECT_EQ(b->fields.at(want[i].first), want[i].second);
  }
  EXPECT_EQ(b->port, 6379);
  EXPECT_EQ(b->quorum, 2);
  SentinelFieldList other = b->fields;
  other.add(quorum, {}, std::int64_t{3});  // a repeated key reads as its last value
  EXPECT_EQ(other.at("quorum"), "3");
  EXPECT_FALSE(other == b->fields);
  SentinelFieldList differs;
  differs.add(port, {}, std::int64_t{6380});
  differs.add(kSentinelKeys.size(), "brand-new-field", "-12");
  differs.add(quorum, {}, "2");
  differs.add(kSentinelKeys.size(), "other", "");
  EXPECT_FALSE(differs == b->fields);
}

// The typed reads find their key among others of the same length and are not fooled by
// near misses, and keys longer than any they read are kept too.
TEST(SentinelParser, TypedFieldsAreFoundAmongKeysOfTheSameLength) {
  using R = RedisReply;
  const std::string longKey = "a-field-name-longer-than-thirty-two-characters";
  auto m = parseSentinelMaster(R::array({R::bulk("xy"), R::bulk("a"), R::bulk("ip"), R::bulk("10.0.0.1"),
                                         R::bulk("qort"), R::bulk("1"), R::bulk("port"), R::integerReply(6379),
                                         R::bulk(longKey), R::bulk("v"), R::bulk("down-after-milliseconds"),
                                         R::bulk("5000"), R::bulk("down-after-millisecondz"), R::bulk("7")}));
  ASSERT_TRUE(m.ok()) << m.error().message;
  EXPECT_EQ(m->ip, "10.0.0.1");
  EXPECT_EQ(m->port, 6379);
  EXPECT_EQ(m->downAfterMs, 5000);
  EXPECT_EQ(m->name, "");
  EXPECT_EQ(m->fields[longKey], "v");
  EXPECT_EQ(m->fields["xy"], "a");
  auto peers = parseSentinelSentinels(R::array({R::array({R::bulk("ip"), R::bulk("10.0.0.2"), R::bulk("name"),
                                                          R::bulk("abc"), R::bulk("runid"), R::bulk("abc"),
                                                          R::bulk("voted-leader-epoch"), R::bulk("4")})}));
  ASSERT_TRUE(peers.ok()) << peers.error().message;
  ASSERT_EQ(peers->size(), 1u);
  EXPECT_EQ((*peers)[0].ip, "10.0.0.2");
  EXPECT_EQ((*peers)[0].votedLeaderEpoch, 4);
  EXPECT_EQ((*peers)[0].votedLeader, "");
}

// Giving the reply up (what observe does) parses to the same master as reading it.
TEST(SentinelParser, MasterFromAGivenUpReplyIsTheSame) {
  const RedisReply reply = fixtureReply("sentinel_master.resp");
  auto read = parseSentinelMaster(reply);
  auto taken = parseSentinelMaster(RedisReply(reply));
  ASSERT_TRUE(read.ok() && taken.ok());
  EXPECT_EQ(taken->fields, read->fields);
  EXPECT_EQ(taken->runId, read->runId);
  EXPECT_EQ(taken->flags.text, read->flags.text);
  EXPECT_EQ(taken->downAfterMs, read->downAfterMs);
  auto bad = parseSentinelMaster(RedisReply::array({RedisReply::bulk("port"), RedisReply::bulk("x")}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "SENTINEL MASTER: field port is not a number: 'x'");
}

// A value sent as a number reads as its decimal text would, in range or not, and the
// first bad number in the order the fields are read is the one reported.
TEST(SentinelParser, NumbersReadAsTheirText) {
  using R = RedisReply;
  for (std::int64_t port : {std::int64_t{6379}, std::int64_t{-1}, std::int64_t{1} << 40}) {
    const std::string text = std::to_string(port);
    auto asInt = parseSentinelSentinels(R::array({R::array({R::bulk("port"), R::integerReply(port)})}));
    auto asText = parseSentinelSentinels(R::array({R::array({R::bulk("port"), R::bulk(text)})}));
    ASSERT_EQ(asInt.ok(), asText.ok()) << text;
    if (asInt.ok()) EXPECT_EQ((*asInt)[0].port, (*asText)[0].port);
    else EXPECT_EQ(asInt.error().message, asText.error().message);
  }
  auto bad = parseSentinelReplicas(R::array({R::array({R::bulk("slave-priority"), R::bulk("x"), R::bulk("port"),
                                                       R::integerReply(std::int64_t{1} << 40)})}));
  ASSERT_FALSE(bad.ok());
  EXPECT_EQ(bad.error().message, "SENTINEL REPLICAS: field port is not a number: '1099511627776'");
  // A later entry is not read once one has failed.
  auto first = parseSentinelSentinels(R::array({R::array({R::bulk("port"), R::bulk("p")}), R::array({R::bulk("x")})}));
  ASSERT_FALSE(first.ok());
  EXPECT_EQ(first.error().message, "SENTINEL SENTINELS: field port is not a number: 'p'");
}

TEST(SentinelParser, MalformedFieldArrays) {
  using R = RedisReply;
  EXPECT_TRUE(parseSentinelFields(R::array({R::bulk("name")})).is(Reason::Invalid));
  EXPECT_TRUE(parseSentinelFields(R::array({R::integerReply(1), R::bulk("x")})).is(Reason::Invalid));
  auto badNum = parseSentinelMaster(R::array({R::bulk("quorum"), R::bulk("two")}));
  ASSERT_FALSE(badNum.ok());
  EXPECT_EQ(badNum.error().field, "quorum");
  EXPECT_TRUE(parseSentinelReplicas(R::bulk("x")).is(Reason::Invalid));
}

}  // namespace
}  // namespace kun
