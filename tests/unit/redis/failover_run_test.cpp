// The simulated failover-timing run: it measures what it claims to, and is reproducible.
#include <gtest/gtest.h>

#include <cstdio>
#include <cstdlib>

#include "fakeapi/redis/failover_run.h"

namespace kun::redissim {
namespace {

TEST(FailoverRun, KillIsFailedOverAndTheOldMasterComesBackAsReplica) {
  FailoverRunSpec spec;
  spec.downAfterMs = 1000;
  const auto r = runFailoverTiming(spec);
  ASSERT_TRUE(r.odownMs && r.firstSwitchMs && r.lastSwitchMs && r.newMasterWritableMs && r.oldMasterReplicaMs);
  EXPECT_GE(*r.odownMs, 1000);
  EXPECT_LT(*r.odownMs, 2500);
  EXPECT_LE(*r.odownMs, *r.firstSwitchMs);
  EXPECT_LE(*r.firstSwitchMs, *r.lastSwitchMs);
  EXPECT_LE(*r.firstSwitchMs, *r.newMasterWritableMs + 1000);
  EXPECT_GT(r.ackedSentinelClient, 0);
  EXPECT_GT(r.ackedPinnedClient, 0);  // after the restart the pinned client writes to an empty master
  EXPECT_EQ(r.lostAckedSentinelClient, 0);  // kill -9 with replicas in sync loses nothing here
  EXPECT_GT(r.lostAckedPinnedClient, 0);     // its writes to the restarted old master are gone
}

TEST(FailoverRun, ShortHangBelowDownAfterIsNoFailover) {
  FailoverRunSpec spec;
  spec.downAfterMs = 5000;
  spec.hang = true;
  spec.hangMs = 3000;
  const auto r = runFailoverTiming(spec);
  EXPECT_FALSE(r.odownMs);
  EXPECT_FALSE(r.firstSwitchMs);
  EXPECT_EQ(r.lostAckedSentinelClient, 0);
  EXPECT_EQ(r.lostAckedPinnedClient, 0);
}

TEST(FailoverRun, LongHangFailsOverAndLosesThePinnedClientsWrites) {
  FailoverRunSpec spec;
  spec.downAfterMs = 1000;
  spec.hang = true;
  spec.hangMs = 5000;
  const auto r = runFailoverTiming(spec);
  ASSERT_TRUE(r.firstSwitchMs && r.oldMasterReplicaMs);
  EXPECT_GT(*r.oldMasterReplicaMs, 5000);
  // After it resumes, the old master acknowledges the pinned client until it is converted.
  EXPECT_GT(r.lostAckedPinnedClient, 0);
}

TEST(FailoverRun, SameSeedSameRun) {
  FailoverRunSpec spec;
  spec.downAfterMs = 1000;
  spec.seed = 42;
  const auto a = runFailoverTiming(spec);
  const auto b = runFailoverTiming(spec);
  EXPECT_EQ(a.traceHash, b.traceHash);
  EXPECT_EQ(a.odownMs, b.odownMs);
  EXPECT_EQ(a.lastSwitchMs, b.lastSwitchMs);
  spec.seed = 43;
  EXPECT_NE(runFailoverTiming(spec).traceHash, a.traceHash);
}

// Prints one run's Sentinel events: KUN_FR_SEED, KUN_FR_DOWN_AFTER, KUN_FR_HANG_MS (0 = kill).
TEST(FailoverRun, DISABLED_PrintOneRun) {
  auto env = [](const char* n, std::int64_t d) { const char* v = std::getenv(n); return v ? std::atoll(v) : d; };
  FailoverRunSpec spec;
  spec.seed = static_cast<std::uint64_t>(env("KUN_FR_SEED", 1));
  spec.downAfterMs = env("KUN_FR_DOWN_AFTER", 1000);
  spec.hangMs = env("KUN_FR_HANG_MS", 0);
  spec.hang = spec.hangMs > 0;
  const auto r = runFailoverTiming(spec);
  for (const auto& e : r.events) std::printf("%s\n", e.c_str());
  std::printf("lost %lld/%lld of %lld/%lld\n", static_cast<long long>(r.lostAckedSentinelClient),
              static_cast<long long>(r.lostAckedPinnedClient), static_cast<long long>(r.ackedSentinelClient),
              static_cast<long long>(r.ackedPinnedClient));
}

}  // namespace
}  // namespace kun::redissim
