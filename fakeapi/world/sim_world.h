#pragma once
// A simulated Kubernetes cluster running simulated Redis, from one seed, on one SimLoop and
// one Trace: SimCluster (store, nodes, scheduler, kubelet, StatefulSets, PVCs), the network
// model, the Redis simulator and the PodBridge that turns redis/sentinel containers into
// simulated processes at their pod IPs. What the operator's scenario tests and the chaos
// harness build on.
#include <cstdint>
#include <functional>
#include <memory>
#include <string>

#include "chaos/network/network_model.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "fakeapi/redis/redis_sim.h"
#include "fakeapi/world/pod_bridge.h"

namespace kun::sim {

struct SimWorldOptions {
  std::uint64_t seed = 1;
  int nodes = 3;
  int zones = 3;
  // Passed to SimCluster; its seed/nodes/zones are replaced by the ones above.
  SimClusterOptions cluster;
  NetworkModel::Options network;
  PodBridgeOptions bridge;
  // Where the operator's Redis commands come from (outside every pod CIDR).
  std::string operatorIp = "10.250.0.1";
};

class SimWorld {
 public:
  explicit SimWorld(SimWorldOptions opts = {});
  ~SimWorld();
  SimWorld(const SimWorld&) = delete;
  SimWorld& operator=(const SimWorld&) = delete;

  SimCluster& cluster() { return *cluster_; }
  SimLoop& loop() { return cluster_->loop(); }
  Trace& trace() { return cluster_->trace(); }
  FakeStore& store() { return cluster_->store(); }
  KubeClient& client() { return cluster_->client(); }
  NetworkModel& net() { return *net_; }
  redissim::RedisSim& redis() { return *redis_; }
  PodBridge& bridge() { return *bridge_; }
  std::uint64_t seed() const { return cluster_->seed(); }
  const std::string& operatorIp() const { return opts_.operatorIp; }

  // RedisAdmin sending from the operator's IP / a test client's IP, through the network.
  RedisAdmin& operatorAdmin() { return redis_->admin(opts_.operatorIp); }
  RedisAdmin& clientAdmin(const std::string& ip) { return redis_->admin(ip); }

  bool runUntil(const std::function<bool()>& pred, Duration timeout) {
    return cluster_->runUntil(pred, timeout);
  }
  void runFor(Duration d) { cluster_->runFor(d); }

 private:
  SimWorldOptions opts_;
  std::unique_ptr<SimCluster> cluster_;
  std::unique_ptr<NetworkModel> net_;
  std::unique_ptr<redissim::RedisSim> redis_;
  std::unique_ptr<PodBridge> bridge_;
};

}  // namespace kun::sim
