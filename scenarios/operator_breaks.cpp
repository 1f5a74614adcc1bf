#include "scenarios/operator_breaks.h"

#include <utility>

namespace kun::scenario {

namespace {

using Switch = bool rediscluster::HealOptions::*;

const std::vector<std::pair<std::string_view, Switch>>& switches() {
  using H = rediscluster::HealOptions;
  static const std::vector<std::pair<std::string_view, Switch>> all{
      {"promote-oldest", &H::promoteOldestForTest},
      {"skip-sentinel-reset", &H::skipSentinelResetForTest},
      {"reset-all-sentinels", &H::resetAllSentinelsForTest},
      {"act-during-failover", &H::actDuringFailoverForTest},
      {"restart-master-before-sync", &H::restartMasterBeforeSyncForTest},
      {"add-unready-pod", &H::addUnreadyPodToSentinelForTest},
  };
  return all;
}

}  // namespace

const std::vector<std::string_view>& operatorBreakNames() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> n;
    for (const auto& [name, s] : switches()) n.push_back(name);
    return n;
  }();
  return names;
}

Status applyOperatorBreak(std::string_view name, rediscluster::HealOptions& heal) {
  for (const auto& [n, s] : switches())
    if (n == name) {
      heal.*s = true;
      return {};
    }
  std::string list;
  for (auto n : operatorBreakNames()) list += (list.empty() ? "" : ", ") + std::string(n);
  return makeError(Reason::Invalid, "--break: expected one of " + list + ", got '" + std::string(name) + "'", "--break");
}

}  // namespace kun::scenario
