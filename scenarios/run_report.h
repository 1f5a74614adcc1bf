#pragma once
// What one scenario run found, and its JSON form (the contract of DESIGN.md: scenario,
// seed, trace_hash, virtual_seconds, wall_seconds, faults, recoveries, invariants,
// writes, plus the verdict, the failure class and the command that reproduces the run).
#include <cstdint>
#include <functional>
#include <map>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/time.h"

namespace kun::scenario {

// Which kind of failure a run ended in; None when it passed.
enum class FailureClass { None, BadInput, Safety, Liveness, Assertion, Crash };
std::string_view failureClassName(FailureClass c);  // "none", "bad-input", "safety", ...

struct InvariantOutcome {
  enum class State { Held, Violated, NotChecked };
  State state = State::NotChecked;
  std::optional<std::int64_t> atMs;  // the first violation, ms of virtual time from the start
  std::string detail;
};

struct FaultOutcome {
  std::string kind, description, detail;
  std::int64_t atMs = 0;
  std::optional<std::int64_t> endMs;
  bool applied = false;
};

struct Recovery {
  std::string fault;                       // its description
  std::int64_t fromMs = 0;                 // when it ended (or happened)
  std::optional<std::int64_t> healthyMs;   // first healthy sample after, minus fromMs
};

struct StepOutcome {
  int line = 0;
  std::string kind, detail;
  std::int64_t atMs = 0;
  bool ok = true;
};

struct RunReport {
  std::string scenario, file;
  std::uint64_t seed = 0;
  std::string traceHash;
  double virtualSeconds = 0, wallSeconds = 0;
  std::uint64_t simEvents = 0;  // simulated events the loop ran (what a run costs)
  FailureClass failure = FailureClass::None;
  std::string failureDetail;  // the first thing that failed
  std::vector<FaultOutcome> faults;
  std::vector<Recovery> recoveries;
  std::map<std::string, InvariantOutcome, std::less<>> invariants;  // by name, found by string_view
  std::vector<StepOutcome> steps;
  std::int64_t writesAcknowledged = 0, writesLost = 0;
  std::map<std::string, std::int64_t> lostByCause;  // cause -> count ("unexplained" is a violation)
  std::int64_t operatorApiWrites = 0, operatorRedisWrites = 0, operatorRestarts = 0;
  std::string reproduce;  // the one command that runs this again

  bool passed() const { return failure == FailureClass::None; }
  // 0 passed, 2 bad input, 1 anything else.
  int exitCode() const;
  // The first violation recorded, keeping the earliest class and detail.
  void fail(FailureClass c, std::string detail);
};

Object reportJson(const RunReport& r);
// A few lines for the terminal: verdict, invariants, writes, the reproduce command.
std::string reportSummary(const RunReport& r);

}  // namespace kun::scenario
