#pragma once
// The generators of `kun-sim prop` (RapidCheck), apart from the run, so that what they
// draw can be checked on its own.
#include <vector>

#include <rapidcheck/Gen.h>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"

namespace kun::scenario {

// The faults of one schedule: 1..so.maxFaults of them, each of any of `kinds` (non-empty),
// starting anywhere in [0, so.horizon), with any parameters. Uniform over all of that at
// every RapidCheck size; shrinks towards fewer faults, earlier starts, the first kind and
// plain parameters.
rc::Gen<std::vector<chaos::Fault>> genScheduleFaults(std::vector<chaos::FaultKind> kinds, chaos::ScheduleOptions so);

}  // namespace kun::scenario
