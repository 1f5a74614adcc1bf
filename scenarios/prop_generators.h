#pragma once
// The generators of `kun-sim prop` (RapidCheck), apart from the run, so that what they
// draw can be checked on its own.
#include <vector>

#include <rapidcheck/Gen.h>

#include "chaos/faults/fault.h"
#include "chaos/faults/fault_schedule.h"
#include "core/api/object.h"

namespace kun::scenario {

// The faults of one schedule: 1..so.maxFaults of them, each of any of `kinds` (non-empty),
// starting anywhere in [0, so.horizon), with any parameters. Uniform over all of that at
// every RapidCheck size; shrinks towards fewer faults, earlier starts, the first kind and
// plain parameters.
rc::Gen<std::vector<chaos::Fault>> genScheduleFaults(std::vector<chaos::FaultKind> kinds, chaos::ScheduleOptions so);

// A RedisCluster to run a schedule against (kun-sim prop --vary-cluster), named prop in
// namespace default: 3..5 redis pods, 3 or 5 sentinels, with or without persistence and a
// password, Sentinel's down-after (1..9 s) and failover-timeout (5, 10 or 15 s) set by
// spec.sentinel.customConfig or left to the operator. Every one is a spec the operator
// accepts. Shrinks towards the default cluster (3 pods, 3 sentinels, persistence, no
// password, the operator's timings).
rc::Gen<Object> genCluster();

}  // namespace kun::scenario
