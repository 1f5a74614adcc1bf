#include "scenarios/view_verdicts.h"

#include "scenarios/invariants.h"

namespace kun::scenario {

const Verdicts& ViewVerdicts::of(const std::shared_ptr<const api::RedisCluster>& rc,
                                 const std::shared_ptr<const rediscluster::ClusterView>& view) {
  if (rc == rc_ && view == view_ && rc_) return verdicts_;
  verdicts_.health = rediscluster::assessHealth(*rc, *view);
  verdicts_.masters = writableMasters(*view);
  rc_ = rc;
  view_ = view;
  ++derived_;
  return verdicts_;
}

}  // namespace kun::scenario
