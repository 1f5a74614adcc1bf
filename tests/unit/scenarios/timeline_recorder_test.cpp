// The recorder turns a running simulation into timeline data: roles as the processes show
// them, fault spans from the schedule runner, failover marks when the master changes.
#include <gtest/gtest.h>

#include "chaos/faults/schedule_runner.h"
#include "scenarios/timeline_recorder.h"
#include "tests/unit/chaos/chaos_world.h"

namespace kun::scenario {
namespace {

TEST(TimelineRecorder, RecordsHangFailoverAndFaultSpans) {
  chaostest::ChaosWorld w;
  ASSERT_TRUE(w.ready);
  chaos::FaultInjector inj(w.seams(), Random(4));
  chaos::FaultSchedule s;
  chaos::Fault hang;
  hang.kind = chaos::FaultKind::ProcessHang;
  hang.target = "master";
  hang.at = seconds(2);
  hang.duration = seconds(30);  // longer than down-after (5s): the Sentinels fail over
  s.faults = {hang};
  chaos::ScheduleRunner runner(w.cluster.loop(), inj, s);
  TimelineRecorder rec(w.cluster.loop(), w.targets, w.redis, [] { return true; }, seconds(1));
  runner.setListener([&](const chaos::FaultRecord& r) { rec.onFault(r); });
  rec.start();
  runner.start();
  w.cluster.runFor(seconds(60));
  rec.stop();
  const auto t = rec.timeline("hang");
  ASSERT_FALSE(t.samples.empty());
  EXPECT_EQ(t.samples.front().roles.at("redis-cluster-demo-0"), "master");
  bool sawHung = false;
  for (const auto& smp : t.samples) sawHung = sawHung || smp.roles.at("redis-cluster-demo-0") == "hung";
  EXPECT_TRUE(sawHung);
  ASSERT_EQ(t.faults.size(), 1u);
  EXPECT_EQ(t.faults[0].end - t.faults[0].begin, seconds(30));
  ASSERT_GE(t.failovers.size(), 1u);
  EXPECT_GT(t.failovers[0].time, t.faults[0].begin);
  // Quiet stretches are not stored sample by sample.
  EXPECT_LT(t.samples.size(), 30u);
  EXPECT_NE(renderTimelineSvg(t).find("redis-cluster-demo-0 hung"), std::string::npos);
}

}  // namespace
}  // namespace kun::scenario
