#include "scenarios/view_verdicts.h"

#include <algorithm>

#include "scenarios/invariants.h"

namespace kun::scenario {

const Verdicts& ViewVerdicts::of(const std::shared_ptr<const api::RedisCluster>& rc,
                                 const std::shared_ptr<const rediscluster::ClusterView>& view) {
  if (rc == rc_ && view == view_ && rc_) return verdicts_;
  verdicts_.health = rediscluster::assessHealth(*rc, *view);
  verdicts_.masters = writableMasters(*view);
  verdicts_.votes.clear();
  verdicts_.reachable = 0;
  for (const auto& s : view->sentinels) {
    if (!s.reachable || !s.monitoring) continue;
    ++verdicts_.reachable;
    auto& [n, epoch] = verdicts_.votes[s.master.ip];
    ++n;
    epoch = std::max(epoch, s.master.configEpoch);
  }
  rc_ = rc;
  view_ = view;
  ++derived_;
  return verdicts_;
}

}  // namespace kun::scenario
