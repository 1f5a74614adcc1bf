#pragma once
// What the runner concludes from one view of one cluster (its health, writable masters
// and the sentinels' votes), kept while it judges the same pair of objects. The sampler, the waits and the
// checks judge a cluster several times per view: ScenarioWorld keeps a view until
// something it reads changes, and cluster() the parsed cluster until it is stored anew.
// Both are immutable and shared, and assessHealth is a function of the two alone, so the
// same pair gives the same verdicts. The pair is held, not just its addresses: a new
// object can never take the address of one still held here.
#include <cstdint>
#include <map>
#include <memory>
#include <string>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/health.h"
#include "core/rediscluster/observe.h"

namespace kun::scenario {

struct Verdicts {
  rediscluster::Health health;         // assessHealth(rc, view)
  std::vector<std::string> masters;    // writableMasters(view)
  // The master each reachable, monitoring sentinel names: ip -> (sentinels, the highest
  // config epoch among them); reachable counts those sentinels.
  std::map<std::string, std::pair<int, std::int64_t>> votes;
  int reachable = 0;
};

class ViewVerdicts {
 public:
  // The verdicts on (rc, view): derived again only when either is not the object held.
  const Verdicts& of(const std::shared_ptr<const api::RedisCluster>& rc,
                     const std::shared_ptr<const rediscluster::ClusterView>& view);
  // How many times of() derived them (for tests).
  std::size_t derived() const { return derived_; }

 private:
  std::shared_ptr<const api::RedisCluster> rc_;
  std::shared_ptr<const rediscluster::ClusterView> view_;
  Verdicts verdicts_;
  std::size_t derived_ = 0;
};

}  // namespace kun::scenario
