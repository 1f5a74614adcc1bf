#include "fakeapi/world/pod_bridge.h"

namespace kun::sim {

PodBridge::PodBridge(SimCluster& cluster, redissim::RedisSim& redis, PodBridgeOptions opts)
    : cluster_(cluster), redis_(redis), opts_(std::move(opts)), rng_(cluster.random("bridge")),
      alive_(std::make_shared<bool>(true)) {}

PodBridge::~PodBridge() { *alive_ = false; }

redissim::RedisNode* PodBridge::redisOf(std::string_view, std::string_view) const { return nullptr; }
redissim::SentinelNode* PodBridge::sentinelOf(std::string_view, std::string_view) const { return nullptr; }
std::optional<Error> PodBridge::startError(std::string_view, std::string_view) const { return std::nullopt; }
const redissim::RedisDisk* PodBridge::claimDisk(std::string_view, std::string_view) const { return nullptr; }

}  // namespace kun::sim
