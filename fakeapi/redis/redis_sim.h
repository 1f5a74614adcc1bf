#pragma once
// The simulated Redis world: the fabric over a network model, and the redis-server and
// redis-sentinel processes on it, created and removed by whoever plays the cluster (a
// test, the failover-timing run, the simulated kubelet). One Random per process, forked
// from the world's by a name, so adding a node never perturbs another's choices.
#include <map>
#include <memory>
#include <string>
#include <unordered_map>
#include <vector>

#include "core/runtime/random.h"
#include "core/runtime/trace.h"
#include "fakeapi/redis/fabric.h"
#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/sentinel_node.h"
#include "fakeapi/redis/sim_redis_admin.h"

namespace kun::redissim {

class RedisSim {
 public:
  RedisSim(EventLoop& loop, NetworkModel& net, Random rng, Trace* trace = nullptr);
  ~RedisSim();

  RedisNode& addRedis(RedisNodeOptions opts);
  SentinelNode& addSentinel(SentinelOptions opts);
  // The pod is gone: its process object is destroyed (connections reset).
  void remove(const RedisEndpoint& ep);
  // A pod recreated at newIp: the old process goes, a new one starts there, with the old
  // disk when the volume is persistent (a PVC) and empty otherwise (emptyDir).
  RedisNode& recreateRedis(const RedisEndpoint& old, const std::string& newIp);

  RedisNode* redis(const RedisEndpoint& ep) const;
  SentinelNode* sentinel(const RedisEndpoint& ep) const;
  // Moves with every process added or removed: while it stays, redis() and sentinel()
  // answer as before (a caller may keep what they returned).
  std::uint64_t processChanges() const { return processChanges_; }
  std::vector<RedisNode*> redisNodes() const;
  std::vector<SentinelNode*> sentinels() const;

  // Every sentinel's events (those there are and those added later), as they happen: for
  // an observer that must know when a failover began, not when a poll first saw it.
  void setSentinelEventListener(SentinelNode::EventListener l);

  SimRedisAdmin& admin(const std::string& clientIp);
  Fabric& fabric() { return fabric_; }
  NetworkModel& net() { return net_; }
  EventLoop& loop() { return loop_; }
  Trace* trace() const { return trace_; }

 private:
  Random forkFor(const std::string& kind, const RedisEndpoint& ep);

  EventLoop& loop_;
  NetworkModel& net_;
  Random rng_;
  Trace* trace_;
  Fabric fabric_;
  std::uint64_t created_ = 0;
  std::uint64_t processChanges_ = 0;
  std::map<RedisEndpoint, std::unique_ptr<RedisNode>> redis_;
  std::map<RedisEndpoint, std::unique_ptr<SentinelNode>> sentinels_;
  // The same nodes hashed by endpoint, for redis()/sentinel(): the kubelet's probes and
  // the harness's sampler ask for a node by endpoint all the time, and the ordered maps
  // compared host strings at every level. The maps keep the order lists are given in.
  std::unordered_map<RedisEndpoint, RedisNode*, EndpointHash> redisByEp_;
  std::unordered_map<RedisEndpoint, SentinelNode*, EndpointHash> sentinelByEp_;
  std::map<std::string, std::unique_ptr<SimRedisAdmin>> admins_;
  SentinelNode::EventListener sentinelEvents_;
};

}  // namespace kun::redissim
