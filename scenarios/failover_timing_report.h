#pragma once
// The failover-timing report: the JSON that --json writes and the text table printed.
//   {"options": {...}, "runs": [{"odown_ms": 1052 | null, ...}], "summary": {"odown_ms":
//    {"min", "median", "max"}, ...}}
// Metric keys, in order: odown_ms, first_switch_ms, last_switch_ms, new_master_writable_ms,
// old_master_replica_ms, lost_acked_sentinel_client, lost_acked_pinned_client.
#include <string>
#include <vector>

#include <nlohmann/json.hpp>

#include "scenarios/failover_timing.h"

namespace kun {

nlohmann::json failoverTimingJson(const FailoverTimingOptions& opts, const std::string& mode,
                                  const std::vector<FailoverRun>& runs);
std::string failoverTimingText(const FailoverTimingOptions& opts, const std::string& mode,
                               const std::vector<FailoverRun>& runs);
// One line of the --events log (JSON lines, one run per line, the same for both modes):
//   {"run", "fault", "hang_ms", "down_after_ms", "odown_ms", "old_master_replica_ms",
//    "events": [{"ms", "sentinel", "type", "payload"}]}
nlohmann::json failoverEventLine(int run, const FailoverTimingOptions& opts, const FailoverRun& result,
                                 const std::vector<FailoverTimelineEvent>& events);
// Appends that line to opts.eventLog (nothing if it is ""); false if the file cannot be written.
bool appendFailoverEventLine(const std::string& path, const nlohmann::json& line);
// "kill" or "hang:MS".
std::string faultName(const FailoverTimingOptions& opts);

}  // namespace kun
