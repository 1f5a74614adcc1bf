#pragma once
// The names a scenario's waitFor and assert steps may use, in one place so the parser can
// reject a misspelt one and the runner evaluates exactly these.
#include <string_view>
#include <vector>

namespace kun::scenario {

// waitFor and assert:
//   healthy          the one Healthy function (core/rediscluster/health.h) holds
//   pods-ready       every redis and sentinel pod exists, Running and Ready
//   master-elected   the Sentinels agree on one master and it is a running master
//   sentinels-agree  every Sentinel names the same master
//   faults-ended     every fault of the schedule and of the steps has ended
//   writes-readable  every acknowledged test write reads back from the master
//   master-changed   the master is not the one the run started with
//   converged        healthy, and every liveness check holds (the StatefulSets match the
//                    spec, the config is applied, the status is truthful, ...): a change
//                    has been carried out, not just survived
const std::vector<std::string_view>& conditionNames();
bool isCondition(std::string_view name);

}  // namespace kun::scenario
