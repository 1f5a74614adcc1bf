#pragma once
// A fault schedule: faults in time, written by hand (a scenario file) or generated from a
// seed. Generation draws from kun::Random only, with integer ratios, so one seed gives one
// schedule everywhere; times are whole milliseconds so a schedule written as YAML reads
// back equal.
#include <cstdint>
#include <set>
#include <vector>

#include "chaos/faults/fault.h"
#include "core/runtime/random.h"

namespace kun::chaos {

struct FaultSchedule {
  std::vector<Fault> faults;  // sorted by `at` (stable for equal times)

  void sort();
  // When the last fault ends (the start of the liveness phase); zero when empty.
  Duration lastEnd() const;
  bool operator==(const FaultSchedule&) const = default;
};

struct ScheduleOptions {
  std::set<FaultKind> kinds;  // empty: every kind
  int minFaults = 1;
  int maxFaults = 5;
  Duration horizon = minutes(10);  // faults start in [0, horizon)
  Duration minDuration = seconds(5);
  Duration maxDuration = seconds(60);
  // Parameter changes: 1 in invalidDen is an invalid one (0: never).
  std::uint64_t invalidDen = 4;
};

FaultSchedule generateSchedule(Random rng, const ScheduleOptions& opts);
// One fault of kind k at `at`, its parameters drawn from rng (what generateSchedule uses).
Fault generateFault(Random& rng, FaultKind k, Duration at, const ScheduleOptions& opts);

// "pod-kill,network-partition" -> kinds; Invalid names the unknown one. "all" or "": every kind.
Result<std::set<FaultKind>> parseFaultKinds(std::string_view list);

}  // namespace kun::chaos
