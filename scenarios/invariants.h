#pragma once
// The invariants a scenario run is held to, each named once here (reports, the README and
// the tests use these names) and defined once in invariants.cpp. Safety invariants must
// hold at every sample, faults or not; liveness invariants are checked once the last
// fault has ended and the cluster had time to heal.
//
// "Healthy" is not defined here: it is rediscluster::assessHealth, the operator's own
// function, so the harness and the operator can never disagree about what healed means.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/health.h"
#include "core/rediscluster/observe.h"
#include "core/runtime/time.h"

namespace kun::scenario {

class ScenarioWorld;

enum class InvariantPhase { Safety, Liveness };

struct InvariantInfo {
  std::string_view name;
  InvariantPhase phase;
  std::string_view description;  // one sentence, as the README lists it
};

namespace inv {
inline constexpr std::string_view kSingleWritableMaster = "single-writable-master";
inline constexpr std::string_view kFailoverReady = "failover-ready";
inline constexpr std::string_view kReplicasFollowMaster = "replicas-follow-master";
inline constexpr std::string_view kSentinelsAgree = "sentinels-agree";
inline constexpr std::string_view kSentinelListsExact = "sentinel-lists-exact";
inline constexpr std::string_view kConfigApplied = "config-applied";
inline constexpr std::string_view kSpecMatches = "spec-matches";
inline constexpr std::string_view kStatusTruthful = "status-truthful";
inline constexpr std::string_view kNoUnexplainedWriteLoss = "no-unexplained-write-loss";
inline constexpr std::string_view kNoOrphans = "no-orphans";
inline constexpr std::string_view kOperatorQuiet = "operator-quiet";
inline constexpr std::string_view kEventualHealth = "eventual-health";
}  // namespace inv

const std::vector<InvariantInfo>& invariantCatalog();
const InvariantInfo* findInvariant(std::string_view name);

// How long two masters may coexist outside a partition: a master that was hung or cut
// off comes back as master until a Sentinel converts it. sentinel.c does that once the
// instance has been up for 8 s (4 hello periods) and its role was reported over 8 s ago,
// at its next INFO (every 10 s for a replica): down-after to see it up, then up to 18 s.
// (Found by kun-sim prop: +convert-to-slave 11.3 s after a delay fault ended.)
Duration splitBrainBound(std::int64_t downAfterMs);
// How long after the last fault ended the cluster may take to be healthy again: Sentinel
// detection and failover (down-after + failover-timeout, twice, for a failover that times
// out and is retried), pods rescheduled and booted, and the operator's requeue cycles.
Duration healBound(std::int64_t downAfterMs, std::int64_t failoverTimeoutMs);

// Liveness checks of a healed cluster; each returns the violation, or nothing when it
// holds. view is the harness's own observation; health = assessHealth(rc, view).
std::optional<std::string> checkReplicasFollowMaster(const rediscluster::ClusterView& view, const std::string& masterIp);
std::optional<std::string> checkSentinelsAgree(const rediscluster::ClusterView& view);
std::optional<std::string> checkSentinelListsExact(const api::RedisCluster& rc, const rediscluster::ClusterView& view);
std::optional<std::string> checkConfigApplied(ScenarioWorld& w, const api::RedisCluster& rc,
                                              const rediscluster::ClusterView& view);
std::optional<std::string> checkSpecMatches(ScenarioWorld& w, const api::RedisCluster& rc);
std::optional<std::string> checkStatusTruthful(const api::RedisCluster& rc, const rediscluster::Health& health);
// After the cluster was deleted: nothing it owned remains (PVCs aside when the spec kept them).
std::optional<std::string> checkNoOrphans(ScenarioWorld& w, const std::string& ns, const std::string& cluster,
                                          bool keepPvcs);
// The masters of a view that accept writes (reachable, role master).
std::vector<std::string> writableMasters(const rediscluster::ClusterView& view);

}  // namespace kun::scenario
