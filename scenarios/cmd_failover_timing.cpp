// `kun-sim failover-timing`: parse the options, run the measurement in the simulator or
// against real processes, print each run and min/median/max, optionally write JSON.
#include <cstdio>
#include <fstream>

#include "scenarios/commands.h"
#include "scenarios/failover_timing.h"
#include "scenarios/failover_timing_args.h"
#include "scenarios/failover_timing_report.h"

namespace kun::cli {

int failoverTiming(int argc, char** argv) {
  auto args = parseFailoverTimingArgs(argc, argv);
  if (!args) {
    std::fprintf(stderr, "kun-sim failover-timing: %s\n\n%s", args.error().message.c_str(),
                 failoverTimingUsage().c_str());
    return 2;
  }
  if (args->help) {
    std::fputs(failoverTimingUsage().c_str(), stdout);
    return 0;
  }
  std::ofstream json;
  if (!args->jsonOut.empty()) {
    json.open(args->jsonOut, std::ios::trunc);  // opened first: a bad path fails before the runs
    if (!json) {
      std::fprintf(stderr, "kun-sim failover-timing: --json: cannot write '%s'\n",
                   args->jsonOut.c_str());
      return 2;
    }
  }
  const FailoverTimingOptions& opts = args->opts;
  std::vector<FailoverRun> runs = args->mode == "local" ? measureFailoverTimingLocal(opts)
                                                        : simulateFailoverTiming(opts);
  std::fputs(failoverTimingText(opts, args->mode, runs).c_str(), stdout);
  if (json.is_open()) {
    json << failoverTimingJson(opts, args->mode, runs).dump(2) << "\n";
    json.close();
    if (!json) {
      std::fprintf(stderr, "kun-sim failover-timing: --json: writing '%s' failed\n",
                   args->jsonOut.c_str());
      return 1;
    }
  }
  if (static_cast<int>(runs.size()) < opts.runs) {
    std::fprintf(stderr, "kun-sim failover-timing: only %zu of %d runs completed\n", runs.size(),
                 opts.runs);
    return 1;
  }
  return 0;
}

}  // namespace kun::cli
