// `kun-sim prop`: random fault schedules against the operator until one fails; the
// failure is shrunk, written as a scenario file, and the replay command printed.
// Exit 0 when every run passed, 1 on a failure (found and written), 2 on bad input.
#include <boost/program_options.hpp>

#include <charconv>
#include <cstdio>
#include <cstdlib>
#include <sstream>

#include <fmt/format.h>

#include "chaos/faults/fault_schedule.h"
#include "scenarios/cluster_manifest.h"
#include "scenarios/commands.h"
#include "scenarios/operator_breaks.h"
#include "scenarios/prop_jobs.h"

namespace kun::cli {

namespace po = boost::program_options;

namespace {

bool parseNumber(const std::string& option, const std::string& text, std::uint64_t min, std::uint64_t max,
                 std::uint64_t& out) {
  auto [p, ec] = std::from_chars(text.data(), text.data() + text.size(), out);
  if (ec == std::errc() && p == text.data() + text.size() && out >= min && out <= max) return true;
  std::fprintf(stderr, "kun-sim prop: --%s: expected an integer in [%llu, %llu], got '%s'\n", option.c_str(),
               static_cast<unsigned long long>(min), static_cast<unsigned long long>(max), text.c_str());
  return false;
}

}  // namespace

int propertyRuns(int argc, char** argv) {
  po::options_description d("options");
  std::string runs = "100", seed = "1", maxFaults = "5", minutes = "10", faults, cluster, out = ".",
              shrinkBudget = "300", jobs = "1";
  std::vector<std::string> breaks;
  bool quiet = false, deleteCluster = false, varyCluster = false;
  d.add_options()("runs", po::value(&runs)->value_name("N"), "schedules to try (default 100)")(
      "seed", po::value(&seed)->value_name("N"), "seed of the whole sequence of schedules (default 1)")(
      "max-faults", po::value(&maxFaults)->value_name("K"), "at most K faults per schedule (default 5)")(
      "faults", po::value(&faults)->value_name("KINDS"),
      "comma-separated fault kinds to draw from, e.g. pod-kill,network-partition (default: all)")(
      "minutes", po::value(&minutes)->value_name("M"), "faults start within M virtual minutes (default 10)")(
      "cluster", po::value(&cluster)->value_name("FILE"),
      "the RedisCluster manifest to run the schedules against (a YAML file holding it; default: "
      "size 3 with 3 sentinels); its spec.sentinel.customConfig timings set the bounds too")(
      "vary-cluster", po::bool_switch(&varyCluster),
      "draw the cluster too, per schedule: 3-5 redis pods, 3 or 5 sentinels, with or without "
      "persistence and a password, Sentinel timings of its own (shrinks towards the default)")(
      "out", po::value(&out)->value_name("DIR"), "where the minimal failing scenario is written (default .)")(
      "shrink-budget", po::value(&shrinkBudget)->value_name("N"),
      "stop shrinking after N runs and keep the smallest failure so far (default 300)")(
      "break", po::value(&breaks)->value_name("NAME"),
      "test a deliberately broken operator (repeatable); see kun-sim run --help")(
      "delete-cluster", po::bool_switch(&deleteCluster),
      "let schedules end by deleting the cluster (checks no-orphans too)")(
      "jobs,j", po::value(&jobs)->value_name("N"),
      "run the schedules in N processes side by side (default 1): job k runs --seed S+k with its "
      "share of the runs; the first failure found is shrunk and reported, and stops the others (one "
      "that had found a failure too leaves it in --out, not yet minimal)")(
      "quiet,q", po::bool_switch(&quiet), "print only the verdict")("help,h", "show this help");
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv).options(d).run(), vm);
    po::notify(vm);
  } catch (const po::error& e) {
    std::fprintf(stderr, "kun-sim prop: %s (see kun-sim prop --help)\n", e.what());
    return 2;
  }
  if (vm.count("help")) {
    std::ostringstream o;
    o << d;
    std::printf(
        "usage: kun-sim prop [options]\n\n"
        "Runs random fault schedules and spec changes (RapidCheck) against the operator in the\n"
        "simulator, each judged by every invariant. On the first failure, shrinks it to a minimal\n"
        "schedule, writes it as a scenario file and prints the command that replays it.\n"
        "Exit status: 0 every run passed, 1 a failure was found, 2 bad input.\n\n%s",
        o.str().c_str());
    return 0;
  }
  scenario::PropOptions opts;
  std::uint64_t n = 0;
  if (!parseNumber("runs", runs, 1, 1'000'000, n)) return 2;
  opts.runs = static_cast<int>(n);
  if (!parseNumber("seed", seed, 0, UINT64_MAX, opts.seed)) return 2;
  if (!parseNumber("max-faults", maxFaults, 1, 100, n)) return 2;
  opts.maxFaults = static_cast<int>(n);
  if (!parseNumber("shrink-budget", shrinkBudget, 0, 1'000'000, n)) return 2;
  opts.shrinkBudget = static_cast<int>(n);
  if (!parseNumber("minutes", minutes, 1, 24 * 60, n)) return 2;
  opts.horizon = kun::minutes(static_cast<std::int64_t>(n));
  if (!parseNumber("jobs", jobs, 1, 256, n)) return 2;
  const int jobCount = static_cast<int>(n);
  auto kinds = chaos::parseFaultKinds(faults);
  if (!kinds) {
    std::fprintf(stderr, "kun-sim prop: --faults: %s\n", kinds.error().message.c_str());
    return 2;
  }
  opts.kinds = *kinds;
  if (!cluster.empty() && varyCluster) {
    std::fprintf(stderr, "kun-sim prop: --cluster and --vary-cluster are alternatives; give one\n");
    return 2;
  }
  opts.varyCluster = varyCluster;
  if (!cluster.empty()) {
    auto manifest = scenario::readClusterManifestFile(cluster);
    if (!manifest) {
      std::fprintf(stderr, "kun-sim prop: --cluster: %s\n", manifest.error().message.c_str());
      return 2;
    }
    opts.cluster = std::move(*manifest);
  }
  for (const auto& b : breaks)
    if (auto st = scenario::applyOperatorBreak(b, opts.heal); !st) {
      std::fprintf(stderr, "kun-sim prop: %s\n", st.error().message.c_str());
      return 2;
    }
  opts.breaks = breaks;
  opts.deleteCluster = deleteCluster;
  opts.outDir = out;
  if (!quiet) opts.progress = [](const std::string& line) { std::fprintf(stderr, "%s\n", line.c_str()); };
  // RapidCheck announces its configuration once; let it show this run's seed (with jobs,
  // each would announce the same seed, not its own: the lines below name them).
  if (jobCount == 1) ::setenv("RC_PARAMS", ("seed=" + std::to_string(opts.seed)).c_str(), 0);
  const auto jr = scenario::runPropertyJobs(opts, jobCount);
  const auto& r = jr.result;
  if (!r.error.empty()) {
    std::fprintf(stderr, "kun-sim prop: %s\n", r.error.c_str());
    return 2;
  }
  const auto seeds = [&] {
    return jr.jobs == 1 ? fmt::format("seed {}", opts.seed)
                        : fmt::format("{} jobs, seeds {}-{}", jr.jobs, opts.seed, opts.seed + jr.jobs - 1);
  };
  if (!r.failed) {
    std::printf("kun-sim prop: %d runs passed (%s)\n", r.trials, seeds().c_str());
    return 0;
  }
  if (jr.jobs == 1) {
    std::printf("kun-sim prop: FAIL after %d passing runs (%d runs with shrinking): %s\n", r.passedBeforeFailure,
                r.trials, r.report.failureDetail.c_str());
  } else {
    // The failing job's own sequence, to run it again alone.
    std::string alone = fmt::format("kun-sim prop --runs {} --seed {} --max-faults {} --minutes {}", jr.failed.runs,
                                    jr.failed.seed, maxFaults, minutes);
    if (!faults.empty()) alone += " --faults " + faults;
    if (!cluster.empty()) alone += " --cluster " + cluster;
    if (varyCluster) alone += " --vary-cluster";
    if (deleteCluster) alone += " --delete-cluster";
    if (vm.count("shrink-budget")) alone += " --shrink-budget " + shrinkBudget;
    for (const auto& b : breaks) alone += " --break " + b;
    std::printf("kun-sim prop: FAIL in job %d after %d passing runs of its own (%d runs with shrinking; %s): %s\n"
                "job %d alone: %s\n",
                jr.failed.index, r.passedBeforeFailure, r.trials, seeds().c_str(), r.report.failureDetail.c_str(),
                jr.failed.index, alone.c_str());
  }
  std::printf("%s failing schedule: %s\nreplay: %s\n",
              r.shrinkCut ? "smallest (shrink budget spent)" : "minimal", r.file.c_str(), r.replay.c_str());
  return 1;
}

}  // namespace kun::cli
