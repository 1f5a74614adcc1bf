#include "scenarios/failover_timing_report.h"

#include <gtest/gtest.h>

namespace kun {
namespace {

FailoverRun run(std::optional<std::int64_t> odown, std::optional<std::int64_t> sw,
                std::int64_t lostPinned) {
  FailoverRun r;
  r.odownMs = odown;
  r.firstSwitchMs = sw;
  r.lastSwitchMs = sw ? std::optional<std::int64_t>(*sw + 100) : std::nullopt;
  r.newMasterWritableMs = sw;
  r.oldMasterReplicaMs = std::nullopt;
  r.lostAckedPinnedClient = lostPinned;
  return r;
}

TEST(FailoverTimingReport, JsonHasRunsSummaryAndOptions) {
  FailoverTimingOptions o;
  o.fault = FailoverTimingOptions::Fault::Hang;
  o.hangMs = 3000;
  o.downAfterMs = 1000;
  const std::vector<FailoverRun> runs = {run(1000, 2000, 5), run(1200, std::nullopt, 0),
                                         run(1100, 2400, 9)};
  auto j = failoverTimingJson(o, "local", runs);

  ASSERT_EQ(j["runs"].size(), 3u);
  for (const char* key : {"odown_ms", "first_switch_ms", "last_switch_ms", "new_master_writable_ms",
                          "old_master_replica_ms", "lost_acked_sentinel_client",
                          "lost_acked_pinned_client"}) {
    EXPECT_TRUE(j["runs"][0].contains(key)) << key;
    EXPECT_TRUE(j["summary"].contains(key)) << key;
    EXPECT_EQ(j["summary"][key].size(), 3u) << key;
  }
  EXPECT_EQ(j["runs"][0]["odown_ms"], 1000);
  EXPECT_TRUE(j["runs"][1]["first_switch_ms"].is_null());
  EXPECT_TRUE(j["runs"][0]["old_master_replica_ms"].is_null());
  EXPECT_EQ(j["runs"][2]["lost_acked_pinned_client"], 9);

  EXPECT_EQ(j["summary"]["odown_ms"]["min"], 1000);
  EXPECT_EQ(j["summary"]["odown_ms"]["median"], 1100.0);
  EXPECT_EQ(j["summary"]["odown_ms"]["max"], 1200);
  EXPECT_EQ(j["summary"]["first_switch_ms"]["median"], 2200.0);  // the run without one is left out
  EXPECT_TRUE(j["summary"]["old_master_replica_ms"]["median"].is_null());
  EXPECT_EQ(j["summary"]["lost_acked_pinned_client"]["median"], 5.0);

  EXPECT_EQ(j["options"]["fault"], "hang:3000");
  EXPECT_EQ(j["options"]["mode"], "local");
  EXPECT_EQ(j["options"]["down_after_ms"], 1000);
}

TEST(FailoverTimingReport, TextShowsEachRunAndTheSummaryRows) {
  FailoverTimingOptions o;
  auto text = failoverTimingText(o, "sim", {run(1000, 2000, 5), run(std::nullopt, std::nullopt, 0)});
  EXPECT_NE(text.find("fault kill"), std::string::npos);
  EXPECT_NE(text.find("\n1 "), std::string::npos);
  EXPECT_NE(text.find("\n2 "), std::string::npos);
  EXPECT_NE(text.find("median"), std::string::npos);
  EXPECT_NE(text.find(" -"), std::string::npos);  // what did not happen
}

}  // namespace
}  // namespace kun
