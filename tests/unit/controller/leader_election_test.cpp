// Leader election on a Lease in the fake API server, two or three candidates on one SimLoop.
// Whenever a candidate starts leading, the test counts the candidates that believe they
// lead at that instant (isLeader() is exact in time): overlap can only begin there.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <memory>
#include <vector>

#include "core/controller/leader_election.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"
#include "tests/unit/controller/switchable_client.h"

namespace kun {
namespace {

struct Candidate {
  std::unique_ptr<test::SwitchableClient> client;
  std::unique_ptr<LeaderElector> elector;
  int started = 0;
  int stopped = 0;
};

struct Election {
  SimLoop loop;
  FakeStore store{loop};
  Logger log{&loop, LogLevel::Off};
  std::vector<Candidate> candidates;
  int maxLeaders = 0;

  Candidate& add(const std::string& identity) {
    Candidate c;
    c.client = std::make_unique<test::SwitchableClient>(store);
    LeaderElectionOptions o;
    o.identity = identity;
    const std::size_t index = candidates.size();
    o.onStartedLeading = [this, index] {
      ++candidates[index].started;
      maxLeaders = std::max(maxLeaders, leaders());
    };
    o.onStoppedLeading = [this, index] { ++candidates[index].stopped; };
    c.elector = std::make_unique<LeaderElector>(*c.client, loop, o, log);
    candidates.push_back(std::move(c));
    return candidates.back();
  }

  int leaders() const {
    int n = 0;
    for (const auto& c : candidates) n += c.elector->isLeader() ? 1 : 0;
    return n;
  }

  LeaseRecord lease() {
    auto got = store.get(res::leases, "default", "kun-operator");
    return got ? leaseRecordOf(*got) : LeaseRecord{};
  }
};

TEST(LeaderElection, SingleCandidateCreatesTheLeaseAndRenewsIt) {
  Election e;
  Candidate& a = e.add("a");
  a.elector->start();
  e.loop.runFor(milliseconds(1));
  EXPECT_TRUE(a.elector->isLeader());
  EXPECT_EQ(a.started, 1);
  LeaseRecord first = e.lease();
  EXPECT_EQ(first.holderIdentity, "a");
  EXPECT_EQ(first.leaseDurationSeconds, 15);
  EXPECT_EQ(first.leaseTransitions, 0);
  EXPECT_EQ(first.acquireTime, "2026-01-01T00:00:00.000000Z");
  EXPECT_EQ(first.renewTime, first.acquireTime);

  e.loop.runFor(seconds(5));
  LeaseRecord later = e.lease();
  EXPECT_EQ(later.acquireTime, first.acquireTime);
  EXPECT_EQ(later.renewTime, "2026-01-01T00:00:04.000000Z");  // renewed every retryPeriod (2 s)
  EXPECT_EQ(later.leaseTransitions, 0);
  EXPECT_TRUE(a.elector->isLeader());
}

TEST(LeaderElection, SecondCandidateWaitsWhileTheLeaderRenews) {
  Election e;
  e.add("a").elector->start();
  e.loop.runFor(milliseconds(1));
  e.add("b").elector->start();
  e.loop.runFor(seconds(120));
  EXPECT_TRUE(e.candidates[0].elector->isLeader());
  EXPECT_FALSE(e.candidates[1].elector->isLeader());
  EXPECT_EQ(e.candidates[1].started, 0);
  EXPECT_EQ(e.candidates[1].elector->observedLeader(), "a");
  EXPECT_EQ(e.maxLeaders, 1);
}

TEST(LeaderElection, ReleaseOnStopLetsTheOtherTakeOverWithinARetryPeriod) {
  Election e;
  e.add("a").elector->start();
  e.loop.runFor(milliseconds(1));
  e.add("b").elector->start();
  e.loop.runFor(seconds(10));
  e.candidates[0].elector->stop();
  EXPECT_EQ(e.candidates[0].stopped, 1);
  EXPECT_EQ(e.lease().holderIdentity, "");
  const TimePoint released = e.loop.now();
  ASSERT_TRUE(e.loop.runUntil([&] { return e.candidates[1].elector->isLeader(); }, released + seconds(3)));
  EXPECT_LE(e.loop.now() - released, milliseconds(2400));  // retryPeriod plus at most 20 % jitter: none here
  LeaseRecord r = e.lease();
  EXPECT_EQ(r.holderIdentity, "b");
  EXPECT_EQ(r.leaseTransitions, 1);
  EXPECT_EQ(e.maxLeaders, 1);
}

TEST(LeaderElection, LeaderCutOffStopsAtRenewDeadlineAndTheOtherTakesOverAfterLeaseDuration) {
  Election e;
  e.add("a").elector->start();
  e.loop.runFor(milliseconds(1));
  e.add("b").elector->start();
  e.loop.runFor(seconds(3));  // a renewed at 2 s
  e.candidates[0].client->down = true;
  const TimePoint lastRenew = TimePoint{} + seconds(2);
  ASSERT_TRUE(e.loop.runUntil([&] { return !e.candidates[0].elector->isLeader(); }, e.loop.now() + seconds(20)));
  EXPECT_EQ(e.loop.now(), lastRenew + seconds(10));  // renewDeadline, exactly
  EXPECT_EQ(e.candidates[0].stopped, 1);
  ASSERT_TRUE(e.loop.runUntil([&] { return e.candidates[1].elector->isLeader(); }, e.loop.now() + seconds(20)));
  // b saw a's last renewal at 2 s and may take over only once it is 15 s old.
  EXPECT_GE(e.loop.now(), lastRenew + seconds(15));
  EXPECT_EQ(e.maxLeaders, 1);
  // a comes back: it finds b holding the Lease and stays a follower.
  e.candidates[0].client->down = false;
  e.loop.runFor(seconds(60));
  EXPECT_FALSE(e.candidates[0].elector->isLeader());
  EXPECT_TRUE(e.candidates[1].elector->isLeader());
  EXPECT_EQ(e.lease().leaseTransitions, 1);
}

TEST(LeaderElection, ALapsedLeaderDoesNotReleaseALeaseItNoLongerHolds) {
  Election e;
  e.add("a").elector->start();
  e.loop.runFor(milliseconds(1));
  e.add("b").elector->start();
  e.candidates[0].client->down = true;
  e.loop.runFor(seconds(30));
  ASSERT_TRUE(e.candidates[1].elector->isLeader());
  e.candidates[0].client->down = false;
  e.candidates[0].elector->stop();
  EXPECT_EQ(e.lease().holderIdentity, "b");
}

TEST(LeaderElection, OptionsAreChecked) {
  LeaderElectionOptions o;
  EXPECT_EQ(validateLeaderElectionOptions(o).error().field, "identity");
  o.identity = "x";
  EXPECT_TRUE(validateLeaderElectionOptions(o).ok());
  o.renewDeadline = o.leaseDuration;
  EXPECT_EQ(validateLeaderElectionOptions(o).error().field, "leaseDuration");
  o.renewDeadline = o.retryPeriod;
  EXPECT_EQ(validateLeaderElectionOptions(o).error().field, "renewDeadline");
}

// Any schedule of outages of any candidate: never two leaders at once, and once the
// outages end someone leads within leaseDuration + retryPeriod.
RC_GTEST_PROP(LeaderElectionProperty, NeverTwoLeaders, ()) {
  const int n = *rc::gen::inRange(2, 4);
  const auto outages = *rc::gen::container<std::vector<std::tuple<int, int, int>>>(
      *rc::gen::inRange(0, 8), rc::gen::tuple(rc::gen::inRange(0, n), rc::gen::inRange(0, 60000), rc::gen::inRange(1, 30000)));
  Election e;
  Random rnd(7);
  for (int i = 0; i < n; ++i) {
    e.add("c" + std::to_string(i));
    LeaderElectionOptions o = e.candidates.back().elector->options();
    e.candidates.back().elector = std::make_unique<LeaderElector>(*e.candidates.back().client, e.loop, o, e.log, &rnd);
  }
  for (auto& c : e.candidates) c.elector->start();
  TimePoint lastEnd{};
  for (const auto& [who, at, len] : outages) {
    auto* client = e.candidates[static_cast<std::size_t>(who)].client.get();
    e.loop.runAt(TimePoint{} + milliseconds(at), [client] { client->down = true; });
    e.loop.runAt(TimePoint{} + milliseconds(at + len), [client] { client->down = false; });
    lastEnd = std::max(lastEnd, TimePoint{} + milliseconds(at + len));
  }
  e.loop.runUntil(lastEnd);
  // Overlapping outages of one candidate end at the first end: settle them all.
  for (auto& c : e.candidates) c.client->down = false;
  e.loop.runFor(seconds(15) + seconds(3));
  RC_ASSERT(e.maxLeaders <= 1);
  RC_ASSERT(e.leaders() == 1);
}

}  // namespace
}  // namespace kun
