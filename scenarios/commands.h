#pragma once
// The kun-sim subcommands. Each takes the arguments after its name (argv[0] is the
// subcommand) and returns the process exit status: 0 ok, 1 a check failed, 2 bad input.
namespace kun::cli {

int demoStatefulSet(int argc, char** argv);  // demo: a StatefulSet heals after pod deletions
int failoverTiming(int argc, char** argv);   // failover-timing: see failover_timing.h
int runScenarioCommand(int argc, char** argv);  // run: a scenario file in the simulator
int replayScenario(int argc, char** argv);      // replay: a file `prop` wrote, with its seed
int propertyRuns(int argc, char** argv);        // prop: random schedules, shrunk on failure

}  // namespace kun::cli
