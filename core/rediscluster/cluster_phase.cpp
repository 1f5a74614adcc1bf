#include "core/rediscluster/cluster_phase.h"

#include <fmt/format.h>

namespace kun::rediscluster {

std::string summarize(const std::vector<std::string>& reasons, std::size_t max) {
  std::string out;
  for (std::size_t i = 0; i < reasons.size() && i < max; ++i) {
    if (i) out += "; ";
    out += reasons[i];
  }
  if (reasons.size() > max) out += fmt::format(" (+{} more)", reasons.size() - max);
  return out;
}

namespace {

std::string progress(const PhaseInput& in) {
  if (!in.heal.actions.empty() || !in.heal.waits.empty()) {
    std::vector<std::string> all = in.heal.actions;
    all.insert(all.end(), in.heal.waits.begin(), in.heal.waits.end());
    return summarize(all);
  }
  if (!in.health.reasons.empty()) return summarize(in.health.reasons);
  if (in.objectsCreated + in.objectsUpdated > 0)
    return fmt::format("{} objects created, {} updated", in.objectsCreated, in.objectsUpdated);
  return "waiting for the cluster to settle";
}

}  // namespace

PhaseDecision decidePhase(const PhaseInput& in) {
  const auto& spec = in.cluster.spec;
  const bool wrote = in.heal.changed() || in.objectsCreated + in.objectsUpdated > 0;
  if (in.health.healthy && !wrote) {
    return {ClusterPhase::Healthy, "ClusterHealthy",
            fmt::format("master {}, {} replicas, {} sentinels", in.health.masterIP, spec.size - 1,
                        spec.sentinel.replicas)};
  }
  switch (in.heal.phase) {
    case HealPhase::Creating: return {ClusterPhase::Creating, "Creating", progress(in)};
    case HealPhase::Recovering: return {ClusterPhase::Recovering, "Recovering", progress(in)};
    case HealPhase::Scaling: return {ClusterPhase::Scaling, "Scaling", progress(in)};
    case HealPhase::Updating: return {ClusterPhase::Updating, "Updating", progress(in)};
    case HealPhase::None: break;
  }
  if (!everHealthy(in.cluster.status)) return {ClusterPhase::Creating, "Creating", progress(in)};
  if ((in.redisReplicas >= 0 && in.redisReplicas != spec.size) ||
      (in.sentinelReplicas >= 0 && in.sentinelReplicas != spec.sentinel.replicas))
    return {ClusterPhase::Scaling, "Scaling", progress(in)};
  if (in.objectsUpdated > 0 || in.cluster.generation() != in.cluster.status.observedGeneration)
    return {ClusterPhase::Updating, "Updating", progress(in)};
  // A scale or update that is still converging keeps its name until Healthy.
  for (ClusterPhase p : {ClusterPhase::Scaling, ClusterPhase::Updating})
    if (conditionTrue(in.cluster.status, conditionTypeOf(p))) return {p, std::string(conditionTypeOf(p)), progress(in)};
  return {ClusterPhase::Recovering, "Recovering", progress(in)};
}

}  // namespace kun::rediscluster
