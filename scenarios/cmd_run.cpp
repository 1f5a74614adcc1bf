// `kun-sim run FILE [--seed N] [--json OUT] [--timeline OUT] [--trace OUT]` and `kun-sim replay FILE`:
// read a scenario, run it in the simulator, print the verdict, write the report and the
// picture. Exit 0 when everything held, 1 when something was violated, 2 on bad input.
#include <boost/program_options.hpp>

#include <charconv>
#include <cstdio>
#include <fstream>
#include <sstream>

#include "scenarios/commands.h"
#include "scenarios/operator_breaks.h"
#include "scenarios/run_report.h"
#include "scenarios/scenario_parse.h"
#include "scenarios/scenario_runner.h"

namespace kun::cli {

namespace po = boost::program_options;

namespace {

struct RunArgs {
  std::string file, json, timeline, trace;
  std::optional<std::uint64_t> seed;
  std::vector<std::string> breaks;
  bool quiet = false;
};

int usage(const char* cmd, const po::options_description& d, std::FILE* out, int code) {
  std::fprintf(out, "usage: kun-sim %s FILE.yaml [options]\n\n", cmd);
  std::fprintf(out, "%s\n",
               std::string(cmd) == "replay"
                   ? "Runs a scenario written by `kun-sim prop` again, with the seed it records: the same\n"
                     "trace hash, the same verdict."
                   : "Runs a scenario in the simulator: its manifests, steps and fault schedule, with the\n"
                     "operator, checking every invariant (see the README). Exit status: 0 everything held,\n"
                     "1 something was violated (the report says what, when and how to reproduce it),\n"
                     "2 bad input.");
  std::ostringstream o;
  o << d;
  std::fprintf(out, "\n%s", o.str().c_str());
  return code;
}

bool writeFile(const std::string& path, const std::string& text, const char* option) {
  std::ofstream f(path, std::ios::trunc);
  f << text;
  f.close();
  if (!f) {
    std::fprintf(stderr, "kun-sim: %s: cannot write '%s'\n", option, path.c_str());
    return false;
  }
  return true;
}

int runCommand(int argc, char** argv, bool replay) {
  const char* cmd = replay ? "replay" : "run";
  po::options_description d("options");
  std::string seedText;
  RunArgs a;
  d.add_options()("json", po::value(&a.json)->value_name("OUT"), "write the JSON report to OUT")(
      "timeline", po::value(&a.timeline)->value_name("OUT.svg"),
      "draw each node's role over time, the faults, failovers and health, as SVG")(
      "trace", po::value(&a.trace)->value_name("OUT"),
      "write every line the simulated run logged (Redis, Sentinel, kubelet, network, operator, "
      "faults), one per line with its virtual time, to OUT")(
      "quiet,q", po::bool_switch(&a.quiet), "print only the verdict")(
      "break", po::value(&a.breaks)->value_name("NAME"),
      "run a deliberately broken operator (repeatable): promote-oldest, skip-sentinel-reset, "
      "reset-all-sentinels, act-during-failover, restart-master-before-sync, add-unready-pod")(
      "help,h", "show this help");
  if (!replay) d.add_options()("seed", po::value(&seedText)->value_name("N"), "seed (default: the file's, else 1)");
  po::options_description hidden;
  hidden.add_options()("file", po::value(&a.file));
  po::options_description all;
  all.add(d).add(hidden);
  po::positional_options_description pos;
  pos.add("file", 1);
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(all).positional(pos).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "kun-sim %s: %s\n\n", cmd, e.what());
    return usage(cmd, d, stderr, 2);
  }
  if (vm.count("help")) return usage(cmd, d, stdout, 0);
  if (a.file.empty()) {
    std::fprintf(stderr, "kun-sim %s: expected a scenario file\n\n", cmd);
    return usage(cmd, d, stderr, 2);
  }
  if (!seedText.empty()) {
    std::uint64_t v = 0;
    auto [p, ec] = std::from_chars(seedText.data(), seedText.data() + seedText.size(), v);
    if (ec != std::errc() || p != seedText.data() + seedText.size()) {
      std::fprintf(stderr, "kun-sim %s: --seed: expected a non-negative integer, got '%s'\n", cmd, seedText.c_str());
      return 2;
    }
    a.seed = v;
  }
  auto scenario = scenario::readScenarioFile(a.file);
  if (!scenario) {
    std::fprintf(stderr, "kun-sim %s: %s\n", cmd, scenario.error().message.c_str());
    return 2;
  }
  scenario::RunOptions opts;
  opts.seed = a.seed;
  std::string breakArgs;
  for (const auto& b : a.breaks) {
    if (auto st = scenario::applyOperatorBreak(b, opts.heal); !st) {
      std::fprintf(stderr, "kun-sim %s: %s\n", cmd, st.error().message.c_str());
      return 2;
    }
    breakArgs += " --break " + b;
  }
  opts.timeline = !a.timeline.empty();
  opts.trace = !a.trace.empty();
  opts.command = std::string("kun-sim run ") + a.file + breakArgs;
  if (!a.quiet) opts.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  const auto result = scenario::runScenario(*scenario, opts);
  std::fputs(scenario::reportSummary(result.report).c_str(), stdout);
  if (!a.json.empty() && !writeFile(a.json, scenario::reportJson(result.report).dump(2) + "\n", "--json")) return 2;
  if (result.timeline && !writeFile(a.timeline, scenario::renderTimelineSvg(*result.timeline), "--timeline")) return 2;
  if (opts.trace) {
    std::string text;
    for (const auto& e : result.trace) text += formatLoopTime(e.time) + " " + e.component + " | " + e.text + "\n";
    if (!writeFile(a.trace, text, "--trace")) return 2;
  }
  return result.report.exitCode();
}

}  // namespace

int runScenarioCommand(int argc, char** argv) { return runCommand(argc, argv, false); }
int replayScenario(int argc, char** argv) { return runCommand(argc, argv, true); }

}  // namespace kun::cli
