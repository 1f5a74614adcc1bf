#pragma once
// failover-ready: Sentinel must stay able to fail over unless a fault takes that away.
//
// A sentinel can take part in a failover when it monitors the master, is not in TILT
// mode (it starts none there), lists one of its replicas (a pod of the cluster) to
// promote, and knows enough other sentinels to reach the quorum and win the leader
// election. An operator that makes too many sentinels
// forget at once (SENTINEL RESET or REMOVE/MONITOR on all of them) leaves the cluster
// with no failover until they rediscover, up to Sentinel's 10 s INFO period — a master
// lost then stays lost. So at every sample at least max(quorum, majority) sentinels must
// be able, except while faults excuse it: any fault from its start until the cluster is
// healthy again after it ended (healthy for kSettle without a break, as the world may
// not have reacted to an instant fault yet when it is first judged, and with nothing it
// delayed still on its way), except a single
// fault aimed at a replica while, whichever replica it hits, enough sentinels know another
// to promote (one that can hit the last such replica excuses like any other).
#include <cstddef>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chaos/faults/schedule_runner.h"
#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/observe.h"
#include "core/runtime/time.h"

namespace kun::scenario {

class FailoverReadiness {
 public:
  // Just before a fault is applied: the cluster as it is then (master = the single
  // writable master, "" when none), for whether a fault on any one replica leaves the
  // sentinels another to promote.
  void beforeFault(const api::RedisCluster& rc, const rediscluster::ClusterView& view, const std::string& master);
  // A fault began (ended unset) or ended.
  void onFault(const chaos::FaultRecord& r);
  // Every verdict of assessHealth on the cluster, as the runner computes them; the runner
  // passes false while packets a loss delayed are still on their way (the fault's doing,
  // still to land).
  void onHealth(TimePoint now, bool healthy);
  // One sample of the cluster. master = the single writable master ("" when there is
  // none). Returns the violation, if any.
  std::optional<std::string> sample(const std::shared_ptr<const api::RedisCluster>& rc,
                                    const std::shared_ptr<const rediscluster::ClusterView>& view,
                                    const std::string& master);
  // How many times sample() counted the able sentinels (for tests).
  std::size_t counted() const { return counted_; }

 private:
  struct Excuse {
    TimePoint began{};
    bool aimedAtReplica = false;
    bool replicaOnly = false;  // aimed at a replica, with others to promote: excuses nothing
    bool ended = false;
    std::optional<TimePoint> endedAt;  // an instant fault's start
  };
  static constexpr Duration kSettle = seconds(5);
  bool spareBeforeFault_ = false;  // beforeFault's finding, for the fault that follows
  std::vector<Excuse> active_;  // faults not yet followed by kSettle of health after their end
  bool seenHealthy_ = false;     // the cluster was first healthy (bootstrap excuses itself)
  std::optional<TimePoint> healthySince_;
  // Whether enough sentinels could fail over is a function of (rc, view, master) alone: it
  // is counted again only when one of them is not the one held (the sampler keeps a view,
  // and the cluster, until something it reads changes; holding them keeps their identity).
  std::shared_ptr<const api::RedisCluster> rc_;
  std::shared_ptr<const rediscluster::ClusterView> view_;
  std::string master_;
  std::optional<std::string> verdict_;
  std::size_t counted_ = 0;
};

}  // namespace kun::scenario
