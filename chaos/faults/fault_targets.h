#pragma once
// Who a fault hits, resolved when it starts: the cluster's redis and sentinel pods as the
// API server lists them, the master as the Sentinels name it, nodes and zones. The
// injectors ask this interface only, so a runner can aim faults at any world it builds.
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/kube/kube_client.h"
#include "core/runtime/random.h"
#include "core/runtime/result.h"

namespace kun::redissim {
class RedisSim;
}

namespace kun::chaos {

struct PodRef {
  std::string ns, name, ip, node;
  bool sentinel = false;
  int port() const { return sentinel ? 26379 : 6379; }
  bool operator==(const PodRef&) const = default;
};

class FaultTargets {
 public:
  virtual ~FaultTargets() = default;
  // Pods that exist and are not being deleted, sorted by name (ip may be empty before the
  // pod runs).
  virtual std::vector<PodRef> redisPods() = 0;
  virtual std::vector<PodRef> sentinelPods() = 0;
  // The master now: the address most Sentinels give, else the one redis that says it is a
  // master. nullopt while there is none.
  virtual std::optional<PodRef> master() = 0;
  // The address the operator's Redis connections come from ("" when there is no operator).
  virtual std::string operatorIp() = 0;
  virtual std::vector<std::string> nodes() = 0;            // sorted
  virtual std::string zoneOf(const std::string& node) = 0;  // "" when unknown
  // Object names for "redis" / "sentinel" (StatefulSet, Service, ConfigMap) of the cluster.
  virtual std::string objectName(std::string_view component) = 0;
  virtual std::string ns() = 0;
};

// Targets of one RedisCluster in a fake API + Redis simulator: pods by the operator's
// selector labels, the master from the simulated Sentinels (redis may be null: then from
// the pods' own view it cannot be told, and master() is nullopt).
class ClusterTargets final : public FaultTargets {
 public:
  ClusterTargets(KubeClient& client, redissim::RedisSim* redis, std::string ns, std::string cluster,
                 std::string operatorIp = {}, std::string masterName = "mymaster");
  std::vector<PodRef> redisPods() override;
  std::vector<PodRef> sentinelPods() override;
  std::optional<PodRef> master() override;
  std::string operatorIp() override { return operatorIp_; }
  std::vector<std::string> nodes() override;
  std::string zoneOf(const std::string& node) override;
  std::string objectName(std::string_view component) override;
  std::string ns() override { return ns_; }

 private:
  std::vector<PodRef> pods(bool sentinel);

  KubeClient& client_;
  redissim::RedisSim* redis_;
  std::string ns_, cluster_, operatorIp_, masterName_;
};

// One pod for a single-pod target: "master", "replica" (a redis pod that is not the
// master), "sentinel", "redis", "any", or a pod name. Random choices draw from rng.
Result<PodRef> resolvePod(FaultTargets& t, std::string_view target, Random& rng);
// A node for "master-node", "any" or a node name.
Result<std::string> resolveNode(FaultTargets& t, std::string_view target, Random& rng);
// The nodes of a zone given as "master-zone", "any" or a zone name.
Result<std::vector<std::string>> resolveZone(FaultTargets& t, std::string_view target, Random& rng);
// The IPs of a network endpoint set: a single-pod target, or "sentinels" / "redises" (all
// of them) or "operator".
Result<std::vector<std::string>> resolveIps(FaultTargets& t, std::string_view target, Random& rng);

}  // namespace kun::chaos
