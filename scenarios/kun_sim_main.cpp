// kun-sim: the harness's command line. Dispatches to one subcommand.
#include <cstdio>
#include <cstring>
#include <string_view>

#include "scenarios/commands.h"

namespace {

struct Subcommand {
  const char* name;
  int (*run)(int, char**);
  const char* summary;
};

const Subcommand kSubcommands[] = {
    {"run", kun::cli::runScenarioCommand, "run a scenario file in the simulator and check every invariant"},
    {"replay", kun::cli::replayScenario, "run a scenario written by prop again, exactly"},
    {"prop", kun::cli::propertyRuns, "random fault schedules (RapidCheck), shrunk to a minimal failing one"},
    {"demo", kun::cli::demoStatefulSet,
     "create a StatefulSet in the simulated cluster, delete pods, show it heal"},
    {"failover-timing", kun::cli::failoverTiming,
     "time a Sentinel failover (1 master, 2 replicas, 3 sentinels), simulated or local"},
};

void usage(std::FILE* out) {
  std::fprintf(out,
               "usage: kun-sim <command> [options]\n\n"
               "The simulation and chaos harness of the KUN Redis Sentinel operator.\n\n"
               "commands:\n");
  for (const auto& c : kSubcommands) std::fprintf(out, "  %-18s %s\n", c.name, c.summary);
  std::fprintf(out, "\nRun 'kun-sim <command> --help' for a command's options.\n");
}

}  // namespace

int main(int argc, char** argv) {
  if (argc < 2) {
    usage(stderr);
    return 2;
  }
  const std::string_view cmd = argv[1];
  if (cmd == "--help" || cmd == "-h" || cmd == "help") {
    usage(stdout);
    return 0;
  }
  for (const auto& c : kSubcommands) {
    if (cmd == c.name) return c.run(argc - 1, argv + 1);
  }
  std::fprintf(stderr, "kun-sim: unknown command '%s'\n\n", argv[1]);
  usage(stderr);
  return 2;
}
