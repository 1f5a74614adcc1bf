#include "fakeapi/world/sim_world.h"

namespace kun::sim {

SimWorld::SimWorld(SimWorldOptions opts) : opts_(std::move(opts)) {
  SimClusterOptions co = opts_.cluster;
  co.seed = opts_.seed;
  co.nodes = opts_.nodes;
  co.zones = opts_.zones;
  cluster_ = std::make_unique<SimCluster>(co);
  net_ = std::make_unique<NetworkModel>(cluster_->loop(), cluster_->random("network"), opts_.network,
                                        &cluster_->trace());
  redis_ = std::make_unique<redissim::RedisSim>(cluster_->loop(), *net_, cluster_->random("redis"),
                                                &cluster_->trace());
  bridge_ = std::make_unique<PodBridge>(*cluster_, *redis_, opts_.bridge);
}

SimWorld::~SimWorld() {
  // The bridge is hooked into the kubelet; the processes run on the network.
  bridge_.reset();
  redis_.reset();
  net_.reset();
  cluster_.reset();
}

}  // namespace kun::sim
