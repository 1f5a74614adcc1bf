#include "scenarios/run_report.h"

#include <fmt/format.h>

namespace kun::scenario {

std::string_view failureClassName(FailureClass c) {
  switch (c) {
    case FailureClass::None: return "none";
    case FailureClass::BadInput: return "bad-input";
    case FailureClass::Safety: return "safety";
    case FailureClass::Liveness: return "liveness";
    case FailureClass::Assertion: return "assertion";
    case FailureClass::Crash: return "crash";
  }
  return "unknown";
}

int RunReport::exitCode() const {
  if (failure == FailureClass::None) return 0;
  return failure == FailureClass::BadInput ? 2 : 1;
}

void RunReport::fail(FailureClass c, std::string detail) {
  if (failure != FailureClass::None) return;
  failure = c;
  failureDetail = std::move(detail);
}

namespace {

std::string_view stateName(InvariantOutcome::State s) {
  switch (s) {
    case InvariantOutcome::State::Held: return "held";
    case InvariantOutcome::State::Violated: return "violated";
    case InvariantOutcome::State::NotChecked: return "not-checked";
  }
  return "unknown";
}

Object optionalMs(const std::optional<std::int64_t>& v) { return v ? Object(*v) : Object(); }

}  // namespace

Object reportJson(const RunReport& r) {
  Object faults = Object::array();
  for (const auto& f : r.faults)
    faults.push_back({{"kind", f.kind},
                      {"description", f.description},
                      {"at_ms", f.atMs},
                      {"end_ms", optionalMs(f.endMs)},
                      {"applied", f.applied},
                      {"detail", f.detail}});
  Object recoveries = Object::array();
  for (const auto& rec : r.recoveries)
    recoveries.push_back({{"fault", rec.fault}, {"from_ms", rec.fromMs}, {"time_to_healthy_ms", optionalMs(rec.healthyMs)}});
  Object invariants = Object::object();
  for (const auto& [name, o] : r.invariants) {
    Object v{{"status", stateName(o.state)}};
    if (o.state == InvariantOutcome::State::Violated)
      v["first_violation"] = Object{{"at_ms", optionalMs(o.atMs)}, {"detail", o.detail}};
    invariants[name] = v;
  }
  Object steps = Object::array();
  for (const auto& s : r.steps)
    steps.push_back({{"line", s.line}, {"kind", s.kind}, {"at_ms", s.atMs}, {"ok", s.ok}, {"detail", s.detail}});
  Object lost = Object::object();
  for (const auto& [cause, n] : r.lostByCause) lost[cause] = n;
  return Object{{"scenario", r.scenario},
                {"file", r.file},
                {"seed", r.seed},
                {"trace_hash", r.traceHash},
                {"virtual_seconds", r.virtualSeconds},
                {"sim_events", r.simEvents},
                {"wall_seconds", r.wallSeconds},
                {"verdict", r.passed() ? "pass" : "fail"},
                {"failure", {{"class", failureClassName(r.failure)}, {"detail", r.failureDetail}}},
                {"faults", faults},
                {"recoveries", recoveries},
                {"invariants", invariants},
                {"steps", steps},
                {"writes", {{"acknowledged", r.writesAcknowledged}, {"lost", r.writesLost}, {"lost_by_cause", lost}}},
                {"operator",
                 {{"api_writes", r.operatorApiWrites},
                  {"redis_state_changes", r.operatorRedisWrites},
                  {"restarts", r.operatorRestarts}}},
                {"reproduce", r.reproduce}};
}

std::string reportSummary(const RunReport& r) {
  std::string out = fmt::format("{}: {} (seed {}, {:.1f} s virtual in {:.2f} s, trace {})\n", r.scenario,
                                r.passed() ? "PASS" : "FAIL", r.seed, r.virtualSeconds, r.wallSeconds, r.traceHash);
  if (!r.passed()) out += fmt::format("  {} failure: {}\n", failureClassName(r.failure), r.failureDetail);
  for (const auto& [name, o] : r.invariants) {
    if (o.state == InvariantOutcome::State::Violated)
      out += fmt::format("  violated {} at {} ms: {}\n", name, o.atMs.value_or(-1), o.detail);
  }
  std::string causes;
  for (const auto& [c, n] : r.lostByCause) causes += fmt::format("{}{} {}", causes.empty() ? "" : ", ", n, c);
  out += fmt::format("  writes: {} acknowledged, {} lost{}\n", r.writesAcknowledged, r.writesLost,
                     causes.empty() ? "" : " (" + causes + ")");
  for (const auto& rec : r.recoveries)
    out += rec.healthyMs ? fmt::format("  recovered from {} in {} ms\n", rec.fault, *rec.healthyMs)
                         : fmt::format("  never recovered from {}\n", rec.fault);
  if (!r.passed()) out += "  reproduce: " + r.reproduce + "\n";
  return out;
}

}  // namespace kun::scenario
