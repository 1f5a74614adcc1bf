#pragma once
// Command-line options of `kun-sim failover-timing`:
//   --down-after MS --failover-timeout MS --parallel-syncs N --fault kill|hang:MS
//   [--runs N] [--seed N] [--json OUT] [--events FILE] [--mode sim|local] [--help]
#include <string>

#include "core/runtime/result.h"
#include "scenarios/failover_timing.h"

namespace kun {

struct FailoverTimingArgs {
  FailoverTimingOptions opts;
  std::string mode = "sim";  // "sim" or "local"
  std::string jsonOut;       // "" = no JSON file
  bool help = false;
};

// argv[0] is the subcommand name. Errors are Invalid with `field` = the option ("--fault")
// and a message that says what was expected.
Result<FailoverTimingArgs> parseFailoverTimingArgs(int argc, char** argv);
std::string failoverTimingUsage();

}  // namespace kun
