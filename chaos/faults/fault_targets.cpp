#include "chaos/faults/fault_targets.h"

#include <algorithm>
#include <map>

#include "core/api/object.h"
#include "core/kube/resource.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/names.h"
#include "fakeapi/redis/redis_sim.h"

namespace kun::chaos {

namespace {

Error notFound(std::string what) { return makeError(Reason::NotFound, std::move(what)); }

template <class T>
const T& pick(const std::vector<T>& v, Random& rng) {
  return v[static_cast<std::size_t>(rng.below(v.size()))];
}

}  // namespace

ClusterTargets::ClusterTargets(KubeClient& client, redissim::RedisSim* redis, std::string ns,
                               std::string cluster, std::string operatorIp, std::string masterName)
    : client_(client),
      redis_(redis),
      ns_(std::move(ns)),
      cluster_(std::move(cluster)),
      operatorIp_(std::move(operatorIp)),
      masterName_(std::move(masterName)) {}

std::vector<PodRef> ClusterTargets::pods(bool sentinel) {
  using rediscluster::Component;
  const auto selector = rediscluster::selectorString(cluster_, sentinel ? Component::Sentinel : Component::Redis);
  // The stored versions themselves: only a few fields are read.
  auto list = client_.listShared(res::pods, ns_, ListOptions{selector, {}});
  std::vector<PodRef> out;
  if (!list) return out;
  for (const auto& ptr : *list) {
    const Object& p = *ptr;
    if (p["metadata"].contains("deletionTimestamp")) continue;
    PodRef ref{ns_, meta::name(p), p.value("/status/podIP"_json_pointer, std::string{}),
               p.value("/spec/nodeName"_json_pointer, std::string{}), sentinel};
    out.push_back(std::move(ref));
  }
  std::sort(out.begin(), out.end(), [](const PodRef& a, const PodRef& b) { return a.name < b.name; });
  return out;
}

std::vector<PodRef> ClusterTargets::redisPods() { return pods(false); }
std::vector<PodRef> ClusterTargets::sentinelPods() { return pods(true); }

std::optional<PodRef> ClusterTargets::master() {
  if (!redis_) return std::nullopt;
  const auto rp = redisPods();
  auto byIp = [&](const std::string& ip) -> std::optional<PodRef> {
    for (const auto& p : rp)
      if (p.ip == ip) return p;
    return std::nullopt;
  };
  // The sentinels' majority view first: it is who clients are sent to.
  std::map<std::string, int> votes;
  int sentinelsUp = 0;
  for (auto* s : redis_->sentinels()) {
    if (!s->up()) continue;
    ++sentinelsUp;
    if (auto a = s->masterAddress(masterName_); a && a->host != "127.0.0.1") ++votes[a->host];
  }
  for (const auto& [ip, n] : votes)
    if (2 * n > sentinelsUp)
      if (auto p = byIp(ip)) return p;
  // Else the only running redis that replicates from nobody.
  std::optional<PodRef> only;
  for (const auto& p : rp) {
    auto* node = redis_->redis({p.ip, 6379});
    if (!node || !node->up() || !node->isMaster()) continue;
    if (only) return std::nullopt;  // two claim to be master: no single answer
    only = p;
  }
  return only;
}

std::vector<std::string> ClusterTargets::nodes() {
  std::vector<std::string> out;
  if (auto l = client_.list(res::nodes, "")) {
    for (const auto& n : l->items) out.push_back(meta::name(n));
  }
  std::sort(out.begin(), out.end());
  return out;
}

std::string ClusterTargets::zoneOf(const std::string& node) {
  auto n = client_.get(res::nodes, "", node);
  if (!n) return {};
  return n->value("/metadata/labels/topology.kubernetes.io~1zone"_json_pointer, std::string{});
}

std::string ClusterTargets::objectName(std::string_view component) {
  if (component == "redis") return rediscluster::names::redis(cluster_);
  if (component == "sentinel") return rediscluster::names::sentinel(cluster_);
  return std::string(component);
}

Result<PodRef> resolvePod(FaultTargets& t, std::string_view target, Random& rng) {
  if (target == "master") {
    if (auto m = t.master()) return *m;
    return notFound("no master to aim at");
  }
  if (target == "replica" || target == "redis") {
    auto pods = t.redisPods();
    if (target == "replica") {
      const auto m = t.master();
      std::erase_if(pods, [&](const PodRef& p) { return m && p.name == m->name; });
    }
    if (pods.empty()) return notFound(std::string("no ") + std::string(target) + " pod");
    return pick(pods, rng);
  }
  if (target == "sentinel") {
    auto pods = t.sentinelPods();
    if (pods.empty()) return notFound("no sentinel pod");
    return pick(pods, rng);
  }
  auto all = t.redisPods();
  auto s = t.sentinelPods();
  all.insert(all.end(), s.begin(), s.end());
  if (target == "any") {
    if (all.empty()) return notFound("no pod");
    return pick(all, rng);
  }
  for (const auto& p : all)
    if (p.name == target) return p;
  return notFound("no pod named " + std::string(target));
}

Result<std::string> resolveNode(FaultTargets& t, std::string_view target, Random& rng) {
  if (target == "master-node") {
    auto m = t.master();
    if (!m || m->node.empty()) return notFound("the master runs on no node");
    return m->node;
  }
  const auto nodes = t.nodes();
  if (target == "any") {
    if (nodes.empty()) return notFound("no node");
    return pick(nodes, rng);
  }
  if (std::find(nodes.begin(), nodes.end(), target) == nodes.end())
    return notFound("no node named " + std::string(target));
  return std::string(target);
}

Result<std::vector<std::string>> resolveZone(FaultTargets& t, std::string_view target, Random& rng) {
  std::string zone(target);
  if (target == "master-zone") {
    auto node = resolveNode(t, "master-node", rng);
    if (!node) return node.error();
    zone = t.zoneOf(*node);
  } else if (target == "any") {
    std::vector<std::string> zones;
    for (const auto& n : t.nodes()) zones.push_back(t.zoneOf(n));
    std::sort(zones.begin(), zones.end());
    zones.erase(std::unique(zones.begin(), zones.end()), zones.end());
    if (zones.empty()) return notFound("no zone");
    zone = pick(zones, rng);
  }
  std::vector<std::string> out;
  for (const auto& n : t.nodes())
    if (!zone.empty() && t.zoneOf(n) == zone) out.push_back(n);
  if (out.empty()) return notFound("no node in zone " + zone);
  return out;
}

Result<std::vector<std::string>> resolveIps(FaultTargets& t, std::string_view target, Random& rng) {
  std::vector<std::string> out;
  if (target == "sentinels" || target == "redises") {
    for (const auto& p : target == "sentinels" ? t.sentinelPods() : t.redisPods())
      if (!p.ip.empty()) out.push_back(p.ip);
  } else if (target == "operator") {
    if (!t.operatorIp().empty()) out.push_back(t.operatorIp());
  } else {
    auto p = resolvePod(t, target, rng);
    if (!p) return p.error();
    if (!p->ip.empty()) out.push_back(p->ip);
  }
  if (out.empty()) return notFound("no address for " + std::string(target));
  return out;
}

}  // namespace kun::chaos
