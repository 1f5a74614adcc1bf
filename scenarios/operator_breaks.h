#pragma once
// The operator's ForTest switches by name, for `kun-sim run/replay/prop --break NAME`: each
// breaks the operator one way (off in the product), so the harness can be shown to catch
// what it is meant to catch.
#include <string>
#include <string_view>
#include <vector>

#include "core/rediscluster/heal.h"
#include "core/runtime/result.h"

namespace kun::scenario {

// promote-oldest, skip-sentinel-reset, reset-all-sentinels, act-during-failover,
// restart-master-before-sync, add-unready-pod.
const std::vector<std::string_view>& operatorBreakNames();
// Sets the switch; Invalid (naming the choices) for an unknown name.
Status applyOperatorBreak(std::string_view name, rediscluster::HealOptions& heal);

}  // namespace kun::scenario
