// e2e (opt-in, label e2e): real redis-server and redis-sentinel processes on 127.77.K.x.
// Waits for real Sentinel timers, so each case takes seconds; nothing here asserts speed.
#include <gtest/gtest.h>
#include <signal.h>

#include <cerrno>
#include <filesystem>
#include <set>
#include <thread>

#include "core/redis/hiredis_admin_real.h"
#include "core/redis/info_parser.h"
#include "core/redis/sentinel_parser.h"
#include "fakeapi/local/ack_writer_real.h"
#include "fakeapi/local/local_sentinel_cluster_real.h"
#include "scenarios/failover_timing.h"

namespace kun::local {
namespace {

using Steady = std::chrono::steady_clock;  // wall-clock ok: real processes

bool processGone(int pid) { return ::kill(pid, 0) != 0 && errno == ESRCH; }

// Polls until check() or the deadline; a generous bound, not a speed assertion.
template <class F>
bool eventually(std::chrono::seconds bound, F check) {
  const auto deadline = Steady::now() + bound;  // wall-clock ok
  while (Steady::now() < deadline) {            // wall-clock ok
    if (check()) return true;
    std::this_thread::sleep_for(std::chrono::milliseconds(100));  // wall-clock ok
  }
  return check();
}

LocalClusterOptions fastSentinels() {
  LocalClusterOptions o;
  o.downAfterMs = 1000;
  o.failoverTimeoutMs = 10000;
  return o;
}

std::optional<ReplicationInfo> replication(HiredisAdmin& admin, const RedisEndpoint& ep) {
  auto r = admin.command(ep, {"INFO", "replication"});
  if (!r || r->type != RedisReply::Type::String) return std::nullopt;
  auto info = parseReplicationInfo(r->str);
  if (!info) return std::nullopt;
  return *info;
}

// Every sentinel names the same master, and it is not `old`.
std::optional<RedisEndpoint> agreedNewMaster(HiredisAdmin& admin, LocalSentinelCluster& c,
                                             const RedisEndpoint& old) {
  std::optional<RedisEndpoint> agreed;
  for (const auto& s : c.sentinels()) {
    auto m = masterFromSentinels(admin, {s}, c.options().masterName);
    if (!m || *m == old || (agreed && *agreed != *m)) return std::nullopt;
    agreed = m;
  }
  return agreed;
}

TEST(LocalSentinelCluster, StartsHealthyAndCleansUpEverything) {
  std::vector<int> pids;
  std::string dir;
  {
    auto c = LocalSentinelCluster::start(fastSentinels());
    ASSERT_TRUE(c.ok()) << c.error().message;
    pids = (*c)->livePids();
    dir = (*c)->dir();
    EXPECT_EQ(pids.size(), 6u);
    HiredisAdmin admin;
    auto master = replication(admin, (*c)->redis(0));
    ASSERT_TRUE(master);
    EXPECT_TRUE(master->isMaster());
    ASSERT_EQ(master->replicas.size(), 2u);
    // The replicas announce their own 127.77.K.x addresses, not 127.0.0.1 (in the order
    // they connected, which is theirs to race).
    std::set<std::string> announced;
    for (const auto& r : master->replicas) announced.insert(r.ip);
    EXPECT_EQ(announced, (std::set<std::string>{(*c)->redis(1).host, (*c)->redis(2).host}));
    auto peers = admin.command((*c)->sentinel(0), {"SENTINEL", "SENTINELS", "mymaster"});
    ASSERT_TRUE(peers.ok());
    auto list = parseSentinelSentinels(*peers);
    ASSERT_TRUE(list.ok());
    ASSERT_EQ(list->size(), 2u);
    for (const auto& p : *list) EXPECT_NE(p.ip, "127.0.0.1");
  }
  for (int pid : pids) EXPECT_TRUE(processGone(pid)) << pid;
  EXPECT_FALSE(std::filesystem::exists(dir));
}

TEST(LocalSentinelCluster, KilledMasterIsFailedOverAndRejoinsAsReplicaAfterRestart) {
  std::vector<int> pids;
  {
    auto started = LocalSentinelCluster::start(fastSentinels());
    ASSERT_TRUE(started.ok()) << started.error().message;
    LocalSentinelCluster& c = **started;
    const RedisEndpoint old = c.redis(0);
    HiredisAdmin admin;
    ASSERT_TRUE(admin.command(old, {"SET", "before", "1"}).ok());
    ASSERT_TRUE(admin.command(old, {"WAIT", "2", "2000"}).ok());

    ASSERT_TRUE(c.kill(NodeRef::redis(0)).ok());
    EXPECT_FALSE(c.running(NodeRef::redis(0)));
    std::optional<RedisEndpoint> next;
    ASSERT_TRUE(eventually(std::chrono::seconds(60), [&] {
      next = agreedNewMaster(admin, c, old);
      return next.has_value();
    })) << "no failover";
    auto promoted = replication(admin, *next);
    ASSERT_TRUE(promoted);
    EXPECT_TRUE(promoted->isMaster());
    auto set = admin.command(*next, {"SET", "after", "1"});
    ASSERT_TRUE(set.ok());
    EXPECT_TRUE(set->isOk());
    auto kept = admin.command(*next, {"GET", "before"});
    ASSERT_TRUE(kept.ok());
    EXPECT_EQ(kept->str, "1");  // replicated before the kill (WAIT), so kept

    ASSERT_TRUE(c.restart(NodeRef::redis(0)).ok());
    EXPECT_TRUE(eventually(std::chrono::seconds(60), [&] {
      auto info = replication(admin, old);
      return info && info->isReplica() && info->masterHost == next->host;
    })) << "old master never became a replica of the new one";
    pids = c.livePids();
    EXPECT_EQ(pids.size(), 6u);
  }
  for (int pid : pids) EXPECT_TRUE(processGone(pid)) << pid;
}

TEST(LocalSentinelCluster, HungMasterIsFailedOverAndRejoinsWhenResumed) {
  auto started = LocalSentinelCluster::start(fastSentinels());
  ASSERT_TRUE(started.ok()) << started.error().message;
  LocalSentinelCluster& c = **started;
  const RedisEndpoint old = c.redis(0);
  HiredisAdmin admin;
  ASSERT_TRUE(c.hang(NodeRef::redis(0)).ok());
  EXPECT_TRUE(c.running(NodeRef::redis(0)));  // stopped, not dead
  std::optional<RedisEndpoint> next;
  ASSERT_TRUE(eventually(std::chrono::seconds(60), [&] {
    next = agreedNewMaster(admin, c, old);
    return next.has_value();
  })) << "no failover";
  ASSERT_TRUE(c.resume(NodeRef::redis(0)).ok());
  EXPECT_TRUE(eventually(std::chrono::seconds(60), [&] {
    auto info = replication(admin, old);
    return info && info->isReplica() && info->masterHost == next->host;
  }));
}

TEST(LocalFailoverTiming, OneKillRunReportsTheFailoverInOrder) {
  FailoverTimingOptions o;
  o.downAfterMs = 1000;
  o.failoverTimeoutMs = 10000;
  o.fault = FailoverTimingOptions::Fault::Kill;
  o.runs = 1;
  auto runs = measureFailoverTimingLocal(o);
  ASSERT_EQ(runs.size(), 1u);
  const FailoverRun& r = runs[0];
  ASSERT_TRUE(r.odownMs && r.firstSwitchMs && r.lastSwitchMs && r.newMasterWritableMs &&
              r.oldMasterReplicaMs);
  EXPECT_GE(*r.odownMs, o.downAfterMs);  // Sentinel waits at least down-after
  EXPECT_LE(*r.odownMs, *r.firstSwitchMs);
  EXPECT_LE(*r.firstSwitchMs, *r.lastSwitchMs);
  EXPECT_LE(*r.firstSwitchMs, *r.oldMasterReplicaMs);  // restarted only after the switch
  EXPECT_GE(r.lostAckedPinnedClient, 0);
}

}  // namespace
}  // namespace kun::local
