// SimRedisAdmin::sentinelInstances hands a sentinel's instances to the reader without
// building the reply. What the reader makes of them must be what parsing the reply of the
// same command gives, in every state a sentinel can be in (healthy, a replica down, the
// master down and failing over, a peer gone).
#include <gtest/gtest.h>

#include <limits>
#include <sstream>
#include <type_traits>

#include "core/redis/sentinel_parser.h"
#include "fakeapi/redis/sim_redis_admin.h"
#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

constexpr const char* kName = "mymaster";

std::string flagsOf(const SentinelFlags& f) {
  std::string out;
  for (const auto n : f.names()) out.append(n) += ",";
  return out;
}

std::string describe(const SentinelMasterInfo& m) {
  std::ostringstream o;
  o << m.name << '|' << m.ip << '|' << m.port << '|' << m.runId << '|' << flagsOf(m.flags) << '|' << m.failoverState
    << '|' << m.linkPendingCommands << '|' << m.lastPingSentMs << '|' << m.lastOkPingReplyMs << '|'
    << m.lastPingReplyMs << '|' << m.sDownTimeMs.value_or(-7) << '|' << m.oDownTimeMs.value_or(-7) << '|'
    << m.downAfterMs << '|' << m.infoRefreshMs << '|' << m.roleReported << '|' << m.configEpoch << '|'
    << m.numSlaves << '|' << m.numOtherSentinels << '|' << m.quorum << '|' << m.failoverTimeoutMs << '|'
    << m.parallelSyncs;
  for (std::size_t i = 0; i < m.fields.size(); ++i) o << '|' << m.fields.key(i) << '=' << m.fields.value(i);
  return o.str();
}

std::string describe(const SentinelReplicaInfo& s) {
  std::ostringstream o;
  o << s.name << '|' << s.ip << '|' << s.port << '|' << s.runId << '|' << flagsOf(s.flags) << '|'
    << s.lastOkPingReplyMs << '|' << s.infoRefreshMs << '|' << s.roleReported << '|' << s.masterLinkDownTimeMs << '|'
    << s.masterLinkStatus << '|' << s.masterHost << '|' << s.masterPort << '|' << s.slavePriority << '|'
    << s.slaveReplOffset << '|' << s.replicaAnnounced << '|' << s.fields.size();
  return o.str();
}

std::string describe(const SentinelPeerInfo& p) {
  std::ostringstream o;
  o << p.name << '|' << p.ip << '|' << p.port << '|' << p.runId << '|' << flagsOf(p.flags) << '|'
    << p.lastHelloMessageMs << '|' << p.votedLeader << '|' << p.votedLeaderEpoch << '|' << p.fields.size();
  return o.str();
}

template <class T>
std::string describe(const Result<T>& r) {
  return r.ok() ? describe(*r) : "error " + r.error().message;
}
template <class T>
std::string describe(const Result<std::vector<T>>& r) {
  if (!r.ok()) return "error " + r.error().message;
  std::string out = std::to_string(r->size()) + " entries";
  for (const auto& e : *r) out += "\n" + describe(e);
  return out;
}

int streamedCount = 0;

// The simulator lists an instance's keys as kSentinelKeys does, in its order: the reader's
// guess of the next key holds, and the keyed feed names the same keys as the reply.
void expectKeysInTableOrder(const RedisReply& entry) {
  ASSERT_EQ(entry.type, RedisReply::Type::Array);
  std::size_t last = 0;
  for (std::size_t i = 0; i < entry.elements.size(); i += 2) {
    const std::size_t k = kSentinelKeys.indexOf(entry.elements[i].str);
    ASSERT_LT(k, kSentinelKeys.size()) << entry.elements[i].str;
    if (i > 0) {
      EXPECT_GT(k, last) << entry.elements[i].str;
    }
    last = k;
  }
}

// The command through both paths of one admin; the transport result must agree as well.
template <class Info, class Parsed>
void expectSame(SimWorld& w, const RedisEndpoint& ep, const Argv& argv, Parsed (*parse)(const RedisReply&),
                Parsed (SentinelReader<Info>::*take)()) {
  SimRedisAdmin& admin = w.sim.admin(Topology::kClientIp);
  auto reply = admin.command(ep, argv);
  SentinelReader<Info> reader;
  auto streamed = admin.sentinelInstances(ep, argv, reader);
  ASSERT_EQ(reply.ok(), streamed.ok()) << ep.toString();
  if (!reply.ok()) return;
  if (*streamed) {  // not instances: the same reply
    EXPECT_EQ(describe(parse(**streamed)), describe(parse(*reply)));
    return;
  }
  ++streamedCount;
  if constexpr (std::is_same_v<Parsed, Result<Info>>) {
    expectKeysInTableOrder(*reply);
  } else {
    for (const RedisReply& e : reply->elements) expectKeysInTableOrder(e);
  }
  EXPECT_EQ(describe((reader.*take)()), describe(parse(*reply))) << ep.toString() << " " << argv[1];
  if constexpr (std::is_same_v<Parsed, Result<Info>>) {  // takeOne into the caller's Info reads the same
    SentinelReader<Info> again;
    ASSERT_TRUE(admin.sentinelInstances(ep, argv, again).ok());
    Info into;
    const Status taken = again.takeOne(into);
    EXPECT_EQ(taken.ok() ? describe(into) : "error " + taken.error().message, describe(parse(*reply)))
        << ep.toString() << " " << argv[1];
  }
}

void expectSameEverywhere(SimWorld& w, int sentinels) {
  for (int i = 0; i < sentinels; ++i) {
    const RedisEndpoint ep = Topology::sentinelEp(i);
    expectSame<SentinelMasterInfo>(w, ep, {"SENTINEL", "MASTER", kName}, parseSentinelMaster,
                                   &SentinelReader<SentinelMasterInfo>::takeOne);
    expectSame<SentinelMasterInfo>(w, ep, {"sentinel", "master", "nope"}, parseSentinelMaster,
                                   &SentinelReader<SentinelMasterInfo>::takeOne);
    for (const char* sub : {"REPLICAS", "slaves"})
      expectSame<SentinelReplicaInfo>(w, ep, {"SENTINEL", sub, kName}, parseSentinelReplicas,
                                      &SentinelReader<SentinelReplicaInfo>::takeAll);
    expectSame<SentinelPeerInfo>(w, ep, {"Sentinel", "SENTINELS", kName}, parseSentinelSentinels,
                                 &SentinelReader<SentinelPeerInfo>::takeAll);
    expectSame<SentinelMasterInfo>(w, ep, {"SENTINEL", "MASTERS"}, parseSentinelMasters,
                                   &SentinelReader<SentinelMasterInfo>::takeAll);
  }
}

// assign() over flags already set reads as parse() into fresh ones.
TEST(SentinelInstances, FlagsAssignedOverOthersReadAsParsed) {
  auto all = [](const SentinelFlags& f) {
    return std::vector<bool>{f.master,     f.slave,        f.sentinel,           f.sDown,
                             f.oDown,      f.masterDown,   f.disconnected,       f.failoverInProgress,
                             f.promoted,   f.reconfSent,   f.reconfInprog,       f.reconfDone,
                             f.forceFailover};
  };
  const std::string every =
      "master,slave,sentinel,s_down,o_down,master_down,disconnected,failover_in_progress,promoted,reconf_sent,"
      "reconf_inprog,reconf_done,force_failover";
  ASSERT_EQ(all(SentinelFlags::parse(every)), std::vector<bool>(13, true));
  for (const std::string text : {"", "slave", "master,s_down,odd", "sentinel,,disconnected", "x"}) {
    SentinelFlags f = SentinelFlags::parse(every);
    f.assign(text);
    EXPECT_EQ(all(f), all(SentinelFlags::parse(text))) << text;
    EXPECT_EQ(f.text, text);
  }
}

TEST(SentinelInstances, StreamedInstancesReadAsTheReplyParses) {
  SimWorld w;
  Topology t{w.sim, TopologyOptions{}};
  const int sentinels = t.sentinelCount();
  w.runFor(seconds(2));  // still discovering
  expectSameEverywhere(w, sentinels);
  ASSERT_TRUE(w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40)));
  expectSameEverywhere(w, sentinels);
  t.redis(1).crash();  // a replica down
  w.runFor(seconds(8));
  expectSameEverywhere(w, sentinels);
  t.redis(0).crash();  // the master down: failover
  for (int step = 0; step < 20; ++step) {
    w.runFor(milliseconds(700));
    expectSameEverywhere(w, sentinels);
  }
  t.sentinel(2).hang();  // a hung sentinel times out on both paths
  w.runFor(seconds(1));
  expectSameEverywhere(w, sentinels);
  t.sentinel(2).resume();
  t.sentinel(1).crash();  // refused on both paths; its peers see it go
  w.runFor(seconds(40));
  expectSameEverywhere(w, sentinels);
  EXPECT_GT(streamedCount, 200);  // most were streamed (the rest: errors, MASTERS, transport failures)
}

// A number handed over reads as its decimal text would, in every field of every kind: a
// text field keeps the digits, a numeric one the number when its type holds it, and the
// error for one it does not hold names the same field and text.
// The same by the key's index (fieldAt, numberAt), as the simulator hands them over.
template <class Info>
void expectNumbersReadAsText(std::initializer_list<std::string_view> keys) {
  const std::int64_t values[] = {0, 7, -1, 2147483647, 2147483648, -2147483648LL, -2147483649LL,
                                 std::numeric_limits<std::int64_t>::max(), std::numeric_limits<std::int64_t>::min()};
  for (std::string_view key : keys) {
    const std::size_t k = kSentinelKeys.indexOf(key);
    ASSERT_LT(k, kSentinelKeys.size()) << key;
    for (std::int64_t v : values) {
      SentinelReader<Info> readers[4];  // number, text, number by index, text by index
      for (int i = 0; i < 4; ++i) {
        SentinelFieldSink& sink = readers[i];
        sink.beginEntry();
        sink.field("name", "n");
        sink.field("port", "6379");
        switch (i) {
          case 0: sink.number(key, v); break;
          case 1: sink.field(key, std::to_string(v)); break;
          case 2: sink.numberAt(k, v); break;
          default: sink.fieldAt(k, std::to_string(v)); break;
        }
        sink.number("quorum", 2147483648LL);  // bad in a master: the first bad field in table order wins
        sink.endEntry();
      }
      const std::string want = describe(readers[1].takeAll());
      for (int i : {0, 2, 3}) EXPECT_EQ(describe(readers[i].takeAll()), want) << key << " " << v << " way " << i;
    }
  }
}

TEST(SentinelInstances, NumbersReadAsTheirText) {
  expectNumbersReadAsText<SentinelMasterInfo>(
      {"name", "ip", "port", "runid", "flags", "failover-state", "link-pending-commands", "last-ping-sent",
       "last-ok-ping-reply", "last-ping-reply", "s-down-time", "o-down-time", "down-after-milliseconds",
       "info-refresh", "role-reported", "config-epoch", "num-slaves", "num-other-sentinels", "quorum",
       "failover-timeout", "parallel-syncs", "link-refcount"});
  expectNumbersReadAsText<SentinelReplicaInfo>(
      {"name", "ip", "port", "runid", "flags", "last-ok-ping-reply", "info-refresh", "role-reported",
       "master-link-down-time", "master-link-status", "master-host", "master-port", "slave-priority",
       "slave-repl-offset", "replica-announced", "role-reported-time"});
  expectNumbersReadAsText<SentinelPeerInfo>({"name", "ip", "port", "runid", "flags", "last-hello-message",
                                             "voted-leader", "voted-leader-epoch", "link-refcount"});
}

// A reader fed only the keys it wants, by index, reads as one fed every key by name: the
// keys it leaves to the sender to skip make no difference, bad numbers included (the first
// in table order is reported whichever order they came in).
template <class Info>
void expectSkippedKeysMakeNoDifference() {
  const SentinelKeySet wanted = SentinelReader<Info>().wantedKeys();
  const std::string_view values[] = {"7", "x", "", "2147483648"};
  for (std::size_t bad = 0; bad <= kSentinelKeys.size(); ++bad) {
    for (std::string_view badValue : values) {
      for (bool reversed : {false, true}) {
        SentinelReader<Info> all, some;
        all.beginEntry();
        some.beginEntry();
        for (std::size_t j = 0; j < kSentinelKeys.size(); ++j) {
          const std::size_t k = reversed ? kSentinelKeys.size() - 1 - j : j;
          // Every key but `bad` and those after it in table order reads a good number.
          const std::string_view v = k < bad ? std::string_view("12") : badValue;
          all.field(kSentinelKeys.name(k), v);
          if (wanted & sentinelKeyBit(k)) some.fieldAt(k, v);
        }
        all.endEntry();
        some.endEntry();
        EXPECT_EQ(describe(some.takeAll()), describe(all.takeAll())) << bad << " " << badValue << " " << reversed;
      }
    }
  }
}

TEST(SentinelInstances, SkippedKeysMakeNoDifference) {
  EXPECT_EQ(SentinelReader<SentinelMasterInfo>().wantedKeys(), kAllSentinelKeys);  // it keeps every field
  EXPECT_NE(SentinelReader<SentinelReplicaInfo>().wantedKeys(), kAllSentinelKeys);
  EXPECT_NE(SentinelReader<SentinelPeerInfo>().wantedKeys(), kAllSentinelKeys);
  expectSkippedKeysMakeNoDifference<SentinelMasterInfo>();
  expectSkippedKeysMakeNoDifference<SentinelReplicaInfo>();
  expectSkippedKeysMakeNoDifference<SentinelPeerInfo>();
}

}  // namespace
}  // namespace kun::redissim::test
