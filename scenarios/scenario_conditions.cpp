#include "scenarios/scenario_conditions.h"

#include <algorithm>

namespace kun::scenario {

const std::vector<std::string_view>& conditionNames() {
  static const std::vector<std::string_view> names{"healthy",         "pods-ready",    "master-elected",
                                                   "sentinels-agree", "faults-ended",  "writes-readable",
                                                   "master-changed",  "converged"};
  return names;
}

bool isCondition(std::string_view name) {
  const auto& n = conditionNames();
  return std::find(n.begin(), n.end(), name) != n.end();
}

}  // namespace kun::scenario
