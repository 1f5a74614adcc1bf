// The simulated failover-timing run: it measures what it claims to, and is reproducible.
#include <gtest/gtest.h>

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

}  // namespace
}  // namespace kun::redissim
