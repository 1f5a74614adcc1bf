#include "scenarios/failover_timing_args.h"

#include <boost/program_options.hpp>

#include <charconv>
#include <limits>
#include <sstream>

namespace kun {

namespace po = boost::program_options;

namespace {

po::options_description describe() {
  po::options_description d("options");
  d.add_options()
      ("down-after", po::value<std::string>()->value_name("MS"),
       "Sentinel down-after-milliseconds (required)")
      ("failover-timeout", po::value<std::string>()->value_name("MS"),
       "Sentinel failover-timeout in ms (required)")
      ("parallel-syncs", po::value<std::string>()->value_name("N"),
       "Sentinel parallel-syncs (required)")
      ("fault", po::value<std::string>()->value_name("kill|hang:MS"),
       "kill the master (SIGKILL; restarted after the first +switch-master), or hang it "
       "(SIGSTOP) for MS ms (required)")
      ("runs", po::value<std::string>()->value_name("N"), "number of runs (default 5)")
      ("seed", po::value<std::string>()->value_name("N"), "seed of run 1; run i uses seed+i (default 1)")
      ("json", po::value<std::string>()->value_name("OUT"), "also write the report as JSON to OUT")
      ("events", po::value<std::string>()->value_name("FILE"),
       "append each run's Sentinel events (ms after the fault) to FILE, one JSON line per run")
      ("mode", po::value<std::string>()->value_name("sim|local"),
       "sim: in the simulator (default); local: real redis-server/redis-sentinel on 127.77.x.x")
      ("help,h", "show this help");
  return d;
}

Error invalid(const std::string& option, const std::string& expected, const std::string& got) {
  return makeError(Reason::Invalid, "--" + option + ": expected " + expected + ", got '" + got + "'",
                   "--" + option);
}

template <class Int>
Result<Int> number(const po::variables_map& vm, const std::string& option, Int minimum,
                   const std::string& expected) {
  const std::string& s = vm[option].as<std::string>();
  Int v{};
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size() || s.empty() || v < minimum) {
    return invalid(option, expected, s);
  }
  return v;
}

}  // namespace

std::string failoverTimingUsage() {
  std::ostringstream out;
  out << "usage: kun-sim failover-timing --down-after MS --failover-timeout MS "
         "--parallel-syncs N --fault kill|hang:MS [--runs N] [--seed N] [--json OUT] "
         "[--events FILE] [--mode sim|local]\n\n"
         "Times a Sentinel failover of 1 master, 2 replicas and 3 sentinels (quorum 2): first\n"
         "+odown, first and last +switch-master, new master writable, old master back as a\n"
         "replica, and acknowledged writes lost by a client following Sentinel and by one\n"
         "pinned to the old master. Prints each run and min/median/max.\n\n"
      << describe();
  return out.str();
}

Result<FailoverTimingArgs> parseFailoverTimingArgs(int argc, char** argv) {
  FailoverTimingArgs a;
  po::variables_map vm;
  try {
    po::store(po::command_line_parser(argc, argv)  // skips argv[0], the subcommand
                  .options(describe())
                  .positional(po::positional_options_description())  // none: strays are errors
                  .style(po::command_line_style::unix_style ^ po::command_line_style::allow_guessing)
                  .run(),
              vm);
  } catch (const po::error& e) {
    return makeError(Reason::Invalid, e.what());
  }
  if (vm.count("help")) {
    a.help = true;
    return a;
  }
  for (const char* required : {"down-after", "failover-timeout", "parallel-syncs", "fault"}) {
    if (!vm.count(required)) {
      return makeError(Reason::Invalid, std::string("--") + required + " is required",
                       std::string("--") + required);
    }
  }
  constexpr std::int64_t kMaxMs = std::numeric_limits<std::int32_t>::max();
  auto downAfter = number<std::int64_t>(vm, "down-after", 1, "a positive integer (milliseconds)");
  if (!downAfter) return downAfter.error();
  auto timeout = number<std::int64_t>(vm, "failover-timeout", 1, "a positive integer (milliseconds)");
  if (!timeout) return timeout.error();
  auto syncs = number<int>(vm, "parallel-syncs", 1, "an integer >= 1");
  if (!syncs) return syncs.error();
  if (*downAfter > kMaxMs) return invalid("down-after", "at most 2147483647", vm["down-after"].as<std::string>());
  a.opts.downAfterMs = *downAfter;
  a.opts.failoverTimeoutMs = *timeout;
  a.opts.parallelSyncs = *syncs;

  const std::string fault = vm["fault"].as<std::string>();
  const std::string expectedFault = "kill or hang:MS with MS a positive integer";
  if (fault == "kill") {
    a.opts.fault = FailoverTimingOptions::Fault::Kill;
  } else if (fault.rfind("hang:", 0) == 0) {
    const std::string ms = fault.substr(5);
    std::int64_t v = 0;
    auto [p, ec] = std::from_chars(ms.data(), ms.data() + ms.size(), v);
    if (ms.empty() || ec != std::errc() || p != ms.data() + ms.size() || v < 1) {
      return invalid("fault", expectedFault, fault);
    }
    a.opts.fault = FailoverTimingOptions::Fault::Hang;
    a.opts.hangMs = v;
  } else {
    return invalid("fault", expectedFault, fault);
  }
  if (vm.count("runs")) {
    auto runs = number<int>(vm, "runs", 1, "an integer >= 1");
    if (!runs) return runs.error();
    a.opts.runs = *runs;
  }
  if (vm.count("seed")) {
    auto seed = number<std::uint64_t>(vm, "seed", 0, "a non-negative integer");
    if (!seed) return seed.error();
    a.opts.seed = *seed;
  }
  if (vm.count("json")) {
    a.jsonOut = vm["json"].as<std::string>();
    if (a.jsonOut.empty()) return invalid("json", "a file path", "");
  }
  if (vm.count("events")) {
    a.opts.eventLog = vm["events"].as<std::string>();
    if (a.opts.eventLog.empty()) return invalid("events", "a file path", "");
  }
  if (vm.count("mode")) {
    a.mode = vm["mode"].as<std::string>();
    if (a.mode != "sim" && a.mode != "local") return invalid("mode", "sim or local", a.mode);
  }
  // Each run watches long enough for the slowest real step seen (a hung master is
  // reconfigured about 10 s after it resumes) plus the fault itself.
  a.opts.observeMs = std::max<std::int64_t>(60000, a.opts.hangMs + 10 * a.opts.downAfterMs + 30000);
  return a;
}

}  // namespace kun
