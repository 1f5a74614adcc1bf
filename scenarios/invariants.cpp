#include "scenarios/invariants.h"

#include <set>
#include <vector>

#include <fmt/format.h>

#include "core/kube/resource.h"
#include "core/rediscluster/config_values.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/names.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {

using rediscluster::ClusterView;

const std::vector<InvariantInfo>& invariantCatalog() {
  using P = InvariantPhase;
  static const std::vector<InvariantInfo> all{
      {inv::kSingleWritableMaster, P::Safety,
       "at most one redis node accepts writes as master, except for the Sentinel split-brain window: while a "
       "partition or hang is active, and for down-after + 20 s after a node comes back; an API outage (api-errors "
       "500 or 429 refusing at least half the calls) while the window is open holds it open until down-after + 20 s "
       "after the outage ends (with no sentinel left, the operator ends the split brain, and it needs its API)"},
      {inv::kNoUnexplainedWriteLoss, P::Safety,
       "an acknowledged write is missing from the master only when a fault that makes real Sentinel lose writes "
       "(a kill, hang, failure or partition of redis, a node or zone failure) began after it was acknowledged "
       "and before every redis node had it (only a deletion of the redis StatefulSet or a node or zone failure can "
       "take a write every node held), or one of the pods of a deleted StatefulSet acknowledged it while shutting down "
       "(within 30 s of the deletion), or a Sentinel failover moved away from the node that acknowledged it (before the "
       "write, or within the split-brain bound after it), or a Sentinel failover promoted a replica that had restarted "
       "without its data while the failover ran; lost writes are counted per cause"},
      {inv::kFailoverReady, P::Safety,
       "Sentinel can fail over at any time: at least max(quorum, majority) sentinels monitor the master, list "
       "one of its replicas and know enough other sentinels, except from the start of a fault until the cluster "
       "is healthy again after it (a single fault aimed at a replica excuses nothing while two replicas remain)"},
      {inv::kReplicasFollowMaster, P::Liveness,
       "every redis node other than the master is its replica with the link up and no sync running"},
      {inv::kSentinelsAgree, P::Liveness, "every sentinel names the same master, and it is the master"},
      {inv::kSentinelListsExact, P::Liveness,
       "every sentinel knows exactly the current replicas and the other sentinels: no stale entry for a gone or "
       "reused address"},
      {inv::kConfigApplied, P::Liveness, "every redis node runs with spec.config (as CONFIG GET reports it)"},
      {inv::kSpecMatches, P::Liveness,
       "the StatefulSets have spec.size and spec.sentinel.replicas replicas, the spec's images and resources, and "
       "every pod on their current template (rollout finished), and every other "
       "object the operator keeps (auth Secret, ConfigMaps, Services, PodDisruptionBudgets) exists"},
      {inv::kStatusTruthful, P::Liveness,
       "status says Healthy and names the master that the world has (status.masterIP)"},
      {inv::kNoOrphans, P::Liveness,
       "after a RedisCluster is deleted nothing it owned remains (PVCs only with keepAfterDeletion)"},
      {inv::kOperatorQuiet, P::Liveness,
       "once healthy and settled, the operator makes no API writes and sends no state-changing Redis command"},
      {inv::kEventualHealth, P::Liveness,
       "after the last fault ends the cluster is Healthy within a bound derived from the Sentinel settings"},
  };
  return all;
}

const InvariantInfo* findInvariant(std::string_view name) {
  for (const auto& i : invariantCatalog())
    if (i.name == name) return &i;
  return nullptr;
}

Duration splitBrainBound(std::int64_t downAfterMs) { return milliseconds(downAfterMs) + seconds(20); }

Duration healBound(std::int64_t downAfterMs, std::int64_t failoverTimeoutMs) {
  return 2 * milliseconds(downAfterMs + failoverTimeoutMs) + seconds(120);
}

std::vector<std::string> writableMasters(const ClusterView& view) {
  std::vector<std::string> out;
  for (const auto* m : view.masters()) out.push_back(m->pod.ip);
  return out;
}

std::optional<std::string> checkReplicasFollowMaster(const ClusterView& view, const std::string& masterIp) {
  if (masterIp.empty()) return "no single master";
  for (const auto& n : view.redis) {
    if (n.pod.ip == masterIp) continue;
    if (!n.reachable) return n.pod.name + " unreachable";
    if (!n.isReplica() || n.replication.masterHost != masterIp)
      return fmt::format("{} is {} (master host '{}'), not a replica of {}", n.pod.name, n.replication.role,
                         n.replication.masterHost, masterIp);
    if (!n.inSync()) return n.pod.name + " is not in sync with the master";
  }
  return std::nullopt;
}

std::optional<std::string> checkSentinelsAgree(const ClusterView& view) {
  std::set<std::string> named;
  for (const auto& s : view.sentinels) {
    if (!s.reachable || !s.monitoring) return s.pod.name + " does not monitor the master";
    named.insert(s.master.ip);
  }
  if (named.size() > 1) {
    std::string list;
    for (const auto& ip : named) list += (list.empty() ? "" : ", ") + ip;
    return "sentinels name different masters: " + list;
  }
  if (named.size() == 1) {
    const auto* m = view.redisByIp(*named.begin());
    if (!m || !m->isMaster()) return "the sentinels name " + *named.begin() + ", which is not a master";
  }
  return std::nullopt;
}

std::optional<std::string> checkSentinelListsExact(const api::RedisCluster& rc, const ClusterView& view) {
  std::set<std::string> redisIps, sentinelIps;
  for (const auto& n : view.redis) redisIps.insert(n.pod.ip);
  for (const auto& s : view.sentinels) sentinelIps.insert(s.pod.ip);
  for (const auto& s : view.sentinels) {
    if (!s.monitoring) return s.pod.name + " does not monitor the master";
    if (static_cast<int>(s.replicas.size()) != rc.spec.size - 1)
      return fmt::format("{} lists {} replicas, want {}", s.pod.name, s.replicas.size(), rc.spec.size - 1);
    for (const auto& r : s.replicas)
      if (!redisIps.count(r.ip)) return fmt::format("{} lists replica {}, which is no pod of the cluster", s.pod.name, r.ip);
    if (static_cast<int>(s.peers.size()) != rc.spec.sentinel.replicas - 1)
      return fmt::format("{} knows {} other sentinels, want {}", s.pod.name, s.peers.size(),
                         rc.spec.sentinel.replicas - 1);
    for (const auto& p : s.peers)
      if (!sentinelIps.count(p.ip) || p.ip == s.pod.ip)
        return fmt::format("{} knows sentinel {}, which is no other sentinel pod", s.pod.name, p.ip);
  }
  return std::nullopt;
}

std::optional<std::string> checkConfigApplied(ScenarioWorld& w, const api::RedisCluster& rc, const ClusterView& view) {
  if (rc.spec.config.empty()) return std::nullopt;
  for (const auto& n : view.redis) {
    if (!n.reachable) return n.pod.name + " unreachable";
    for (const auto& [key, want] : rc.spec.config) {
      auto r = w.harnessAdmin().command({n.pod.ip, 6379}, {"CONFIG", "GET", key}, rc.spec.password);
      if (!r || r->type != RedisReply::Type::Array) return n.pod.name + ": CONFIG GET " + key + " failed";
      if (r->elements.size() < 2) continue;  // a parameter this Redis does not have
      if (!rediscluster::sameConfigValue(r->elements[1].str, want))
        return fmt::format("{}: {} is '{}', spec says '{}'", n.pod.name, key, r->elements[1].str, want);
    }
  }
  return std::nullopt;
}

namespace {

std::optional<std::string> checkStatefulSet(ScenarioWorld& w, const std::string& ns, const std::string& name,
                                            std::int32_t replicas, const std::string& image, const Object& resources) {
  // The stored version itself, read in place (a get() copies the whole set).
  auto sts = w.harnessClient().getShared(res::statefulsets, ns, name);
  if (!sts) return "StatefulSet " + name + " is missing";
  const Object& set = **sts;
  const auto have = set.value("/spec/replicas"_json_pointer, -1);
  if (have != replicas) return fmt::format("StatefulSet {} has {} replicas, spec says {}", name, have, replicas);
  const Object* containers = &set;
  for (const char* k : {"spec", "template", "spec", "containers"})
    if (containers) containers = memberOf(*containers, k);
  if (!containers || !containers->is_array() || containers->empty()) return "StatefulSet " + name + " has no containers";
  const Object& c = (*containers)[0];
  const std::string got = c.value("image", "");
  if (got != image) return fmt::format("StatefulSet {} runs image {}, spec says {}", name, got, image);
  const Object* res = memberOf(c, "resources");
  const bool noneWanted = resources.is_null() || resources.empty();
  if (noneWanted ? res && !res->empty() : !res || *res != resources)
    return fmt::format("StatefulSet {} asks for resources {}, spec says {}", name, res ? res->dump() : "{}",
                       noneWanted ? "{}" : resources.dump());
  // Every pod runs the template. The operator rolls pods itself (updateStrategy OnDelete),
  // under which the StatefulSet controller never moves status.currentRevision: the pods on
  // the update revision tell.
  const auto generation = set.value("/metadata/generation"_json_pointer, std::int64_t{0});
  const auto observed = set.value("/status/observedGeneration"_json_pointer, std::int64_t{0});
  if (observed < generation)
    return fmt::format("StatefulSet {}: generation {} not yet observed (status has {})", name, generation, observed);
  const auto updated = set.value("/status/updatedReplicas"_json_pointer, 0);
  if (updated != replicas)
    return fmt::format("StatefulSet {}: rollout unfinished ({} of {} pods on revision {})", name, updated, replicas,
                       set.value("/status/updateRevision"_json_pointer, std::string()));
  return std::nullopt;
}

// The objects besides the StatefulSets that the operator keeps for a cluster, each named
// as names.h spells it: a deleted one must come back (a client resolving the Service, a pod
// mounting the ConfigMap, would fail without it).
std::optional<std::string> checkOwnedObjects(ScenarioWorld& w, const api::RedisCluster& rc) {
  namespace names = rediscluster::names;
  const std::string& ns = rc.namespaceOf();
  const std::string& n = rc.name();
  struct Want {
    const Resource* r;
    const char* kind;
    std::string name;
  };
  std::vector<Want> want = {{&res::secrets, "Secret", names::auth(n)},
                            {&res::configmaps, "ConfigMap", names::redis(n)},
                            {&res::configmaps, "ConfigMap", names::sentinel(n)},
                            {&res::configmaps, "ConfigMap", names::sentinelReadiness(n)},
                            {&res::services, "Service", names::redis(n)},
                            {&res::services, "Service", names::sentinel(n)},
                            {&res::services, "Service", names::sentinelHeadless(n)}};
  if (rc.spec.shutdownConfigMap.empty()) want.push_back({&res::configmaps, "ConfigMap", names::shutdown(n)});
  for (const auto& o : want)
    if (!w.harnessClient().getShared(*o.r, ns, o.name)) return fmt::format("{} {} is missing", o.kind, o.name);
  // Served as policy/v1 or, by an older API server, policy/v1beta1.
  for (const std::string& pdb : {names::redis(n), names::sentinel(n)})
    if (!w.harnessClient().getShared(res::poddisruptionbudgets, ns, pdb) &&
        !w.harnessClient().getShared(res::poddisruptionbudgetsV1beta1, ns, pdb))
      return fmt::format("PodDisruptionBudget {} is missing", pdb);
  return std::nullopt;
}

}  // namespace

std::optional<std::string> checkSpecMatches(ScenarioWorld& w, const api::RedisCluster& rc) {
  if (auto v = checkStatefulSet(w, rc.namespaceOf(), rediscluster::names::redis(rc.name()), rc.spec.size, rc.spec.image,
                                rc.spec.resources))
    return v;
  if (auto v = checkStatefulSet(w, rc.namespaceOf(), rediscluster::names::sentinel(rc.name()),
                                rc.spec.sentinel.replicas, rc.spec.sentinel.image, rc.spec.sentinel.resources))
    return v;
  return checkOwnedObjects(w, rc);
}

std::optional<std::string> checkStatusTruthful(const api::RedisCluster& rc, const rediscluster::Health& health) {
  bool healthy = false;
  for (const auto& c : rc.status.conditions)
    if (c.type == "Healthy") healthy = c.status == "True";
  if (health.healthy != healthy)
    return fmt::format("status says Healthy={}, the world is {}", healthy ? "True" : "False",
                       health.healthy ? "healthy" : "not healthy");
  if (rc.status.masterIP != health.masterIP)
    return fmt::format("status.masterIP is '{}', the master is '{}'", rc.status.masterIP, health.masterIP);
  // And it is about the spec as it is: the operator has seen the latest generation. An
  // invalid edit is the exception: the status says so (Failed, InvalidSpec) and keeps the
  // generation of the spec still in force.
  const api::Condition* failed = api::findCondition(rc.status, "Failed");
  const bool invalidEdit = failed && failed->status == "True" && failed->reason == "InvalidSpec";
  if (rc.status.observedGeneration != rc.generation() && !invalidEdit)
    return fmt::format("status.observedGeneration is {}, the spec's generation {}", rc.status.observedGeneration,
                       rc.generation());
  return std::nullopt;
}

std::optional<std::string> checkNoOrphans(ScenarioWorld& w, const std::string& ns, const std::string& cluster,
                                          bool keepPvcs) {
  const Resource* kinds[] = {&res::statefulsets, &res::services,  &res::configmaps, &res::secrets,
                             &res::pods,         &res::poddisruptionbudgets, &res::persistentvolumeclaims};
  for (const Resource* r : kinds) {
    if (keepPvcs && r == &res::persistentvolumeclaims) continue;
    for (auto c : {rediscluster::Component::Redis, rediscluster::Component::Sentinel}) {
      auto l = w.harnessClient().list(*r, ns, ListOptions{rediscluster::selectorString(cluster, c), {}});
      if (l && !l->items.empty())
        return fmt::format("{} {} of the deleted cluster remains", r->groupResource(), meta::name(l->items[0]));
    }
  }
  return std::nullopt;
}

}  // namespace kun::scenario
