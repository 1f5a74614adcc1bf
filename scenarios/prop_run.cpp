#include "scenarios/prop_run.h"

#include <filesystem>
#include <fstream>

#include <fmt/format.h>
#include <rapidcheck.h>

#include "chaos/faults/fault_schedule.h"
#include "core/api/object.h"
#include "core/rediscluster/sentinel_timings.h"
#include "core/runtime/random.h"
#include "scenarios/invariants.h"
#include "scenarios/prop_generators.h"
#include "scenarios/scenario_runner.h"
#include "scenarios/scenario_write.h"

namespace kun::scenario {

namespace {

Object defaultCluster() {
  return Object{{"apiVersion", "redis.kun/v1beta1"},
                {"kind", "RedisCluster"},
                {"metadata", {{"name", "prop"}, {"namespace", "default"}}},
                {"spec", {{"size", 3}, {"sentinel", {{"replicas", 3}}}}}};
}

std::vector<std::string> stringsOf(const Object& lines) {
  std::vector<std::string> out;
  if (lines.is_array())
    for (const auto& l : lines)
      if (l.is_string()) out.push_back(l.get<std::string>());
  return out;
}

// RapidCheck's own reporting is replaced by the progress lines of the property.
class Silent final : public rc::detail::TestListener {
 public:
  void onTestCaseFinished(const rc::detail::CaseDescription&) override {}
  void onShrinkTried(const rc::detail::CaseDescription&, bool) override {}
  void onTestFinished(const rc::detail::TestMetadata&, const rc::detail::TestResult&) override {}
};

std::string breaksArgs(const std::vector<std::string>& breaks) {
  std::string out;
  for (const auto& b : breaks) out += " --break " + b;
  return out;
}

}  // namespace

Duration settleBound(const Object& cluster, const chaos::FaultSchedule& schedule, const rediscluster::HealOptions& heal) {
  const rediscluster::SentinelTimings own{heal.downAfterMs, heal.failoverTimeoutMs};
  const Object* custom = nullptr;
  if (const Object* spec = memberOf(cluster, "spec"))
    if (const Object* sentinel = memberOf(*spec, "sentinel")) custom = memberOf(*sentinel, "customConfig");
  auto longest = rediscluster::effectiveSentinelTimings(custom ? stringsOf(*custom) : std::vector<std::string>{}, own);
  for (const auto& f : schedule.faults)
    if (f.kind == chaos::FaultKind::ParamChange && f.param == chaos::Param::SentinelConfig)
      longest = rediscluster::longer(longest, rediscluster::effectiveSentinelTimings(stringsOf(f.value), own));
  return healBound(longest.downAfterMs, longest.failoverTimeoutMs);
}

PropResult runProperty(const PropOptions& opts) {
  PropResult result;
  std::vector<chaos::FaultKind> kinds(opts.kinds.begin(), opts.kinds.end());
  if (kinds.empty()) kinds = chaos::allFaultKinds();
  chaos::ScheduleOptions so;
  so.horizon = opts.horizon;
  so.maxFaults = opts.maxFaults;
  const auto say = [&](const std::string& line) {
    if (opts.progress) opts.progress(line);
  };

  std::optional<Scenario> lastFailing;
  bool shrinking = false;
  int shrinkTrials = 0;
  // The failure as a scenario file; "" or why it could not be written.
  const auto writeFailing = [&](Scenario sc, const RunReport& report) -> std::string {
    result.file = (std::filesystem::path(opts.outDir) / (sc.name + ".yaml")).string();
    sc.description = fmt::format("minimal failing schedule found by kun-sim prop --seed {}{}: {}", opts.seed,
                                 breaksArgs(opts.breaks), report.failureDetail);
    std::error_code ec;
    std::filesystem::create_directories(opts.outDir, ec);
    std::ofstream f(result.file, std::ios::trunc);
    f << writeScenario(sc);
    f.close();
    return f ? std::string() : "cannot write " + result.file;
  };
  const auto property = [&] {
    const auto faults = *genScheduleFaults(kinds, so);
    // Not shrunk: another world seed is another world, no simpler than this one.
    const auto worldSeed =
        *rc::gen::noShrink(rc::gen::resize(rc::kNominalSize, rc::gen::inRange<std::uint64_t>(1, 1u << 31)));
    // Drawn only when asked, so the schedules of a seed stay what they were without it.
    const bool deleteAtEnd = opts.deleteCluster && *rc::gen::arbitrary<bool>();
    chaos::FaultSchedule schedule;
    schedule.faults = faults;
    // Drawn after the rest, so the schedules of a seed stay what they were without it.
    const Object cluster = !opts.cluster.is_null() ? opts.cluster
                           : opts.varyCluster       ? *genCluster()
                                                    : defaultCluster();
    const Duration settle = opts.settle > Duration::zero() ? opts.settle : settleBound(cluster, schedule, opts.heal);
    Scenario s = scenarioFromSchedule(fmt::format("prop-{}-{}", opts.seed, worldSeed), {cluster}, schedule,
                                      worldSeed, settle, deleteAtEnd);
    if (shrinking && shrinkTrials >= opts.shrinkBudget) {
      // Out of budget: every candidate left counts as passing, so RapidCheck settles on
      // the smallest failure found so far without running anything more.
      result.shrinkCut = true;
      return;
    }
    RunOptions ro;
    ro.seed = worldSeed;
    ro.heal = opts.heal;
    const auto r = runScenario(s, ro);
    ++result.trials;
    if (shrinking) ++shrinkTrials;
    if (!shrinking) {
      say(fmt::format("run {}/{}: {} fault(s){}, world seed {}: {}", result.trials, opts.runs, faults.size(),
                      deleteAtEnd ? " then delete" : "", worldSeed,
                      r.report.passed() ? "pass" : "FAIL: " + r.report.failureDetail));
      if (r.report.passed()) ++result.passedBeforeFailure;
    } else {
      say(fmt::format("  shrink {}: {} fault(s): {}", result.trials, faults.size(),
                      r.report.passed() ? "passes" : "still fails"));
    }
    if (!r.report.passed()) {
      shrinking = true;
      lastFailing = s;
      result.report = r.report;
      if (auto written = writeFailing(*lastFailing, result.report); !written.empty()) say("  cannot write it: " + written);
    }
    RC_ASSERT(r.report.passed());
  };

  rc::detail::TestParams params;
  params.seed = opts.seed;
  params.maxSuccess = opts.runs;
  params.maxSize = 100;
  rc::detail::TestMetadata meta;
  meta.id = meta.description = "kun-sim prop";
  Silent listener;
  const auto outcome = rc::detail::checkProperty(rc::detail::toProperty(property), meta, params, listener);
  if (outcome.is<rc::detail::Error>()) {
    result.error = outcome.get<rc::detail::Error>().description;
    return result;
  }
  if (outcome.is<rc::detail::GaveUpResult>()) {
    result.error = "RapidCheck gave up: " + outcome.get<rc::detail::GaveUpResult>().description;
    return result;
  }
  if (!outcome.is<rc::detail::FailureResult>() || !lastFailing) return result;

  result.failed = true;
  if (auto written = writeFailing(*lastFailing, result.report); !written.empty()) {
    result.error = written;
    return result;
  }
  result.replay = "kun-sim replay " + result.file + breaksArgs(opts.breaks);
  return result;
}

}  // namespace kun::scenario
