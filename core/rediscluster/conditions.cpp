#include "core/rediscluster/conditions.h"

#include <algorithm>
#include <array>

namespace kun::rediscluster {

namespace {

constexpr std::array<std::string_view, 6> kOrder = {conditions::kCreating, conditions::kHealthy,
                                                     conditions::kUpdating, conditions::kScaling,
                                                     conditions::kRecovering, conditions::kFailed};

std::size_t rank(std::string_view type) {
  auto it = std::find(kOrder.begin(), kOrder.end(), type);
  return static_cast<std::size_t>(it - kOrder.begin());  // unknown types after ours
}

const char* statusText(bool t) { return t ? "True" : "False"; }

}  // namespace

std::string_view conditionTypeOf(ClusterPhase p) {
  switch (p) {
    case ClusterPhase::Creating: return conditions::kCreating;
    case ClusterPhase::Healthy: return conditions::kHealthy;
    case ClusterPhase::Updating: return conditions::kUpdating;
    case ClusterPhase::Scaling: return conditions::kScaling;
    case ClusterPhase::Recovering: return conditions::kRecovering;
  }
  return conditions::kCreating;
}

bool setCondition(api::RedisClusterStatus& s, std::string_view type, bool isTrue, std::string_view reason,
                  std::string_view message, const std::string& now) {
  api::Condition* c = api::findCondition(s, type);
  if (!c) {
    if (!isTrue) return false;
    api::Condition made;
    made.type = std::string(type);
    made.status = statusText(true);
    made.reason = std::string(reason);
    made.message = std::string(message);
    made.lastUpdateTime = made.lastTransitionTime = now;
    // Stable order: ours by rank, anything else (another tool's) where it was.
    auto at = std::find_if(s.conditions.begin(), s.conditions.end(),
                           [&](const api::Condition& o) { return rank(o.type) > rank(type) && rank(o.type) < kOrder.size(); });
    s.conditions.insert(at, std::move(made));
    return true;
  }
  const bool flips = c->status != statusText(isTrue);
  if (!flips && c->reason == reason && c->message == message) return false;
  if (flips) c->lastTransitionTime = now;
  c->status = statusText(isTrue);
  c->reason = std::string(reason);
  c->message = std::string(message);
  c->lastUpdateTime = now;
  return true;
}

bool clearCondition(api::RedisClusterStatus& s, std::string_view type, const std::string& now) {
  api::Condition* c = api::findCondition(s, type);
  if (!c || c->status == statusText(false)) return false;
  c->status = statusText(false);
  c->lastTransitionTime = c->lastUpdateTime = now;
  return true;
}

bool conditionTrue(const api::RedisClusterStatus& s, std::string_view type) {
  const api::Condition* c = api::findCondition(s, type);
  return c && c->status == "True";
}

bool everHealthy(const api::RedisClusterStatus& s) { return api::findCondition(s, conditions::kHealthy) != nullptr; }

}  // namespace kun::rediscluster
