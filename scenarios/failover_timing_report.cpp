#include "scenarios/failover_timing_report.h"

#include <fmt/format.h>

#include <cstdint>
#include <fstream>
#include <optional>
#include <utility>

#include "scenarios/failover_summary.h"

namespace kun {

namespace {

using Getter = std::optional<std::int64_t> (*)(const FailoverRun&);

struct Metric {
  const char* key;
  Getter get;
};

const Metric kMetrics[] = {
    {"odown_ms", [](const FailoverRun& r) { return r.odownMs; }},
    {"first_switch_ms", [](const FailoverRun& r) { return r.firstSwitchMs; }},
    {"last_switch_ms", [](const FailoverRun& r) { return r.lastSwitchMs; }},
    {"new_master_writable_ms", [](const FailoverRun& r) { return r.newMasterWritableMs; }},
    {"old_master_replica_ms", [](const FailoverRun& r) { return r.oldMasterReplicaMs; }},
    {"lost_acked_sentinel_client",
     [](const FailoverRun& r) { return std::optional<std::int64_t>(r.lostAckedSentinelClient); }},
    {"lost_acked_pinned_client",
     [](const FailoverRun& r) { return std::optional<std::int64_t>(r.lostAckedPinnedClient); }},
};

template <class T>
nlohmann::json orNull(const std::optional<T>& v) {
  return v ? nlohmann::json(*v) : nlohmann::json(nullptr);
}

MetricSummary summaryOf(const Metric& m, const std::vector<FailoverRun>& runs) {
  std::vector<std::optional<std::int64_t>> values;
  for (const auto& r : runs) values.push_back(m.get(r));
  return summarize(std::move(values));
}

std::string cell(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : std::string("-");
}

std::string cell(const std::optional<double>& v) {
  if (!v) return "-";
  return *v == static_cast<double>(static_cast<std::int64_t>(*v)) ? fmt::format("{}", static_cast<std::int64_t>(*v))
                                                                   : fmt::format("{:.1f}", *v);
}

}  // namespace

std::string faultName(const FailoverTimingOptions& opts) {
  return opts.fault == FailoverTimingOptions::Fault::Kill ? "kill"
                                                          : "hang:" + std::to_string(opts.hangMs);
}

nlohmann::json failoverEventLine(int run, const FailoverTimingOptions& opts, const FailoverRun& result,
                                 const std::vector<FailoverTimelineEvent>& events) {
  nlohmann::json j;
  j["run"] = run;
  j["fault"] = opts.fault == FailoverTimingOptions::Fault::Kill ? "kill" : "hang";
  j["hang_ms"] = opts.hangMs;
  j["down_after_ms"] = opts.downAfterMs;
  j["odown_ms"] = orNull(result.odownMs);
  j["old_master_replica_ms"] = orNull(result.oldMasterReplicaMs);
  j["events"] = nlohmann::json::array();
  for (const auto& e : events)
    j["events"].push_back({{"ms", e.ms}, {"sentinel", e.sentinel}, {"type", e.type}, {"payload", e.payload}});
  return j;
}

bool appendFailoverEventLine(const std::string& path, const nlohmann::json& line) {
  if (path.empty()) return true;
  std::ofstream out(path, std::ios::app);
  out << line.dump() << "\n";
  return static_cast<bool>(out);
}

nlohmann::json failoverTimingJson(const FailoverTimingOptions& opts, const std::string& mode,
                                  const std::vector<FailoverRun>& runs) {
  nlohmann::json j;
  j["options"] = {
      {"mode", mode},
      {"down_after_ms", opts.downAfterMs},
      {"failover_timeout_ms", opts.failoverTimeoutMs},
      {"parallel_syncs", opts.parallelSyncs},
      {"fault", faultName(opts)},
      {"runs", opts.runs},
      {"seed", opts.seed},
      {"write_interval_ms", opts.writeIntervalMs},
      {"observe_ms", opts.observeMs},
  };
  j["runs"] = nlohmann::json::array();
  for (const auto& r : runs) {
    nlohmann::json o = nlohmann::json::object();
    for (const auto& m : kMetrics) o[m.key] = orNull(m.get(r));
    j["runs"].push_back(std::move(o));
  }
  nlohmann::json s = nlohmann::json::object();
  for (const auto& m : kMetrics) {
    MetricSummary sum = summaryOf(m, runs);
    s[m.key] = {{"min", orNull(sum.min)}, {"median", orNull(sum.median)}, {"max", orNull(sum.max)}};
  }
  j["summary"] = std::move(s);
  return j;
}

std::string failoverTimingText(const FailoverTimingOptions& opts, const std::string& mode,
                               const std::vector<FailoverRun>& runs) {
  std::string out = fmt::format(
      "failover-timing: mode {}, fault {}, down-after {} ms, failover-timeout {} ms, "
      "parallel-syncs {}, runs {}, seed {}\n"
      "times in ms after the fault; '-' = did not happen\n\n",
      mode, faultName(opts), opts.downAfterMs, opts.failoverTimeoutMs, opts.parallelSyncs,
      runs.size(), opts.seed);
  const char* headers[] = {"odown", "first_switch", "last_switch", "writable", "old_as_replica",
                           "lost_sentinel", "lost_pinned"};
  out += fmt::format("{:<8}", "run");
  for (const char* h : headers) out += fmt::format("{:>15}", h);
  out += "\n";
  for (std::size_t i = 0; i < runs.size(); ++i) {
    out += fmt::format("{:<8}", i + 1);
    for (const auto& m : kMetrics) out += fmt::format("{:>15}", cell(m.get(runs[i])));
    out += "\n";
  }
  std::vector<MetricSummary> sums;
  for (const auto& m : kMetrics) sums.push_back(summaryOf(m, runs));
  out += fmt::format("{:<8}", "min");
  for (const auto& s : sums) out += fmt::format("{:>15}", cell(s.min));
  out += fmt::format("\n{:<8}", "median");
  for (const auto& s : sums) out += fmt::format("{:>15}", cell(s.median));
  out += fmt::format("\n{:<8}", "max");
  for (const auto& s : sums) out += fmt::format("{:>15}", cell(s.max));
  out += "\n";
  return out;
}

}  // namespace kun
