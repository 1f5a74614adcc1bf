#include "fakeapi/redis/redis_sim.h"

namespace kun::redissim {

RedisSim::RedisSim(EventLoop& loop, NetworkModel& net, Random rng, Trace* trace)
    : loop_(loop), net_(net), rng_(std::move(rng)), trace_(trace), fabric_(loop, net) {}

RedisSim::~RedisSim() {
  // Processes first: they detach from the fabric.
  admins_.clear();
  sentinelByEp_.clear();
  sentinels_.clear();
  redisByEp_.clear();
  redis_.clear();
}

Random RedisSim::forkFor(const std::string& kind, const RedisEndpoint& ep) {
  return rng_.fork(kind + " " + ep.toString() + " #" + std::to_string(++created_));
}

RedisNode& RedisSim::addRedis(RedisNodeOptions opts) {
  ++processChanges_;
  const RedisEndpoint ep{opts.ip, opts.port};
  redis_.erase(ep);
  redisByEp_.erase(ep);
  auto node = std::make_unique<RedisNode>(fabric_, forkFor("redis", ep), std::move(opts), trace_);
  RedisNode& ref = *node;
  redis_[ep] = std::move(node);
  redisByEp_[ep] = &ref;
  return ref;
}

SentinelNode& RedisSim::addSentinel(SentinelOptions opts) {
  ++processChanges_;
  const RedisEndpoint ep{opts.ip, opts.port};
  sentinels_.erase(ep);
  sentinelByEp_.erase(ep);
  auto node = std::make_unique<SentinelNode>(fabric_, forkFor("sentinel", ep), std::move(opts), trace_);
  SentinelNode& ref = *node;
  if (sentinelEvents_) ref.setEventListener(sentinelEvents_);
  sentinels_[ep] = std::move(node);
  sentinelByEp_[ep] = &ref;
  return ref;
}

void RedisSim::setSentinelEventListener(SentinelNode::EventListener l) {
  sentinelEvents_ = std::move(l);
  for (auto& [ep, s] : sentinels_) s->setEventListener(sentinelEvents_);
}

void RedisSim::remove(const RedisEndpoint& ep) {
  ++processChanges_;
  redisByEp_.erase(ep);
  redis_.erase(ep);
  sentinelByEp_.erase(ep);
  sentinels_.erase(ep);
}

RedisNode& RedisSim::recreateRedis(const RedisEndpoint& old, const std::string& newIp) {
  ++processChanges_;
  RedisNodeOptions opts;
  auto it = redis_.find(old);
  if (it != redis_.end()) {
    RedisNode& n = *it->second;
    opts.port = old.port;
    opts.config = n.options().config;
    opts.bootDelay = n.options().bootDelay;
    opts.persistentVolume = n.persistentVolume();
    if (n.persistentVolume()) opts.disk = n.takeDisk();
    redisByEp_.erase(old);
    redis_.erase(it);
  }
  opts.ip = newIp;
  return addRedis(std::move(opts));
}

RedisNode* RedisSim::redis(const RedisEndpoint& ep) const {
  auto it = redisByEp_.find(ep);
  return it == redisByEp_.end() ? nullptr : it->second;
}

SentinelNode* RedisSim::sentinel(const RedisEndpoint& ep) const {
  auto it = sentinelByEp_.find(ep);
  return it == sentinelByEp_.end() ? nullptr : it->second;
}

std::vector<RedisNode*> RedisSim::redisNodes() const {
  std::vector<RedisNode*> out;
  for (const auto& [ep, n] : redis_) out.push_back(n.get());
  return out;
}

std::vector<SentinelNode*> RedisSim::sentinels() const {
  std::vector<SentinelNode*> out;
  for (const auto& [ep, n] : sentinels_) out.push_back(n.get());
  return out;
}

SimRedisAdmin& RedisSim::admin(const std::string& clientIp) {
  auto& a = admins_[clientIp];
  if (!a) a = std::make_unique<SimRedisAdmin>(fabric_, clientIp, trace_);
  return *a;
}

}  // namespace kun::redissim
