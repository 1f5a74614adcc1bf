#include "core/rediscluster/heal.h"

#include <algorithm>

#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster {

std::string_view healPhaseName(HealPhase p) {
  switch (p) {
    case HealPhase::None: return "";
    case HealPhase::Creating: return "Creating";
    case HealPhase::Recovering: return "Recovering";
    case HealPhase::Scaling: return "Scaling";
    case HealPhase::Updating: return "Updating";
  }
  return "";
}

HealReport heal(HealContext& ctx) {
  using namespace healstep;
  HealRun run(ctx);
  // Each step sees what the earlier ones did (run.masterIp, passwords); a step that must
  // wait for the world, or that failed, ends the pass.
  for (auto step : {healGuard, healPasswords, healMaster, healReplicas, healSentinels, healConfig,
                    healSentinelReset, healScaleDown, healRolling}) {
    // A roll or a scale-down follows the StatefulSets as written: not after a failed Ensure.
    if (!ctx.objectsEnsured && (step == healScaleDown || step == healRolling)) break;
    if (step(run) == Next::Stop || run.failed()) break;
  }
  if (run.failed() && !run.report.requeueAfter) run.phase(HealPhase::Recovering);
  // Whatever this pass changed may have touched a node's config (a fence, a new master).
  if (ctx.configChecks && (run.report.changed() || run.failed())) ctx.configChecks->byPod.clear();
  return std::move(run.report);
}

std::int32_t redisReplicasToKeep(const api::RedisCluster& rc, const ClusterView& view) {
  std::int32_t keep = rc.spec.size;
  // While a pod that a scale-down would remove is master (or the pods disagree about who
  // is), the StatefulSet keeps every pod up to it.
  for (const auto& n : view.redis)
    if (n.isMaster() && n.pod.ordinal >= rc.spec.size) keep = std::max(keep, n.pod.ordinal + 1);
  return keep;
}

}  // namespace kun::rediscluster
