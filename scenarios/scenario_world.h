#pragma once
// The world a scenario runs in: a SimWorld (Kubernetes, network, Redis and Sentinel
// simulated on one loop from one seed) with the RedisCluster CRD installed and the real
// operator core running in it, plus what the harness needs around them:
// - the operator's API client counts its writes and its Redis admin counts its
//   state-changing commands (operator-quiet);
// - the harness's own client reads and writes past the API fault hook, so checking the
//   world never changes how a run unfolds;
// - OperatorControl, so faults can restart the operator (its memory lost) or change a
//   RedisCluster's spec.
#include <cstdint>
#include <map>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "chaos/faults/fault_injector.h"
#include "chaos/faults/fault_targets.h"
#include "chaos/faults/operator_control.h"
#include "core/api/redis_cluster_types.h"
#include "core/kube/forwarding_client.h"
#include "core/kube/selector.h"
#include "core/operator/operator_core.h"
#include "core/rediscluster/health.h"
#include "fakeapi/redis/view_digest.h"
#include "fakeapi/store/unfaulted_client.h"
#include "fakeapi/world/sim_world.h"
#include "scenarios/scenario.h"
#include "scenarios/view_cache_check.h"

namespace kun::scenario {

struct ScenarioWorldOptions {
  std::uint64_t seed = 1;
  WorldSpec world;
  // The operator's heal options (the ForTest switches break it on purpose).
  rediscluster::HealOptions heal;
  std::size_t traceEntries = 0;  // trace entries kept (the hash covers all of them)
  bool verifyViewCache = false;  // see ViewCacheCheck
};



class ScenarioWorld final : public chaos::OperatorControl {
 public:
  explicit ScenarioWorld(ScenarioWorldOptions opts);
  ~ScenarioWorld() override;
  ScenarioWorld(const ScenarioWorld&) = delete;
  ScenarioWorld& operator=(const ScenarioWorld&) = delete;

  sim::SimWorld& world() { return *world_; }
  SimLoop& loop() { return world_->loop(); }
  KubeClient& harnessClient() { return harness_; }
  // Redis commands of the checks, from an address no fault aims at.
  RedisAdmin& harnessAdmin();
  static constexpr const char* kHarnessIp = "10.250.0.2";
  static constexpr const char* kClientIp = "10.250.0.3";  // the test writes' client

  // Creates the manifest, or replaces the spec of the one of that name.
  Status apply(const Object& manifest);
  // Creates namespace ns unless it exists, as a user does before applying a manifest into
  // it (the world starts with default and kube-system).
  Status ensureNamespace(const std::string& ns);
  // JSON merge patch of RedisCluster `name` in `ns`.
  Status patchCluster(const std::string& ns, const std::string& name, const Object& patch);
  // The RedisCluster as stored, defaulted; nullopt when it is gone or does not parse.
  // After an invalid parameter change (a fault with valid: false) its spec is the last one
  // before it: the operator must refuse the change and keep running that one, so that is
  // what health and the checks judge, until a valid change replaces it.
  // Both are derived again only when the store has changed since the last call (the
  // harness asks every sample; most samples find the store as it was).
  std::shared_ptr<const api::RedisCluster> cluster(const std::string& ns, const std::string& name);
  // The cluster's pods as the API server has them, and what their processes say, read by
  // the harness; health() is the one health function on that view.
  const rediscluster::ClusterPods& pods(const api::RedisCluster& rc);
  // Observed again only when something it reads changed (viewDigest): between changes the
  // earlier view is returned, whose offsets and ping ages may have drifted since — no check
  // reads those. When it changed, only the nodes whose own digest moved are asked again;
  // the others' entries are taken from the earlier view (the same reasoning, per node).
  std::shared_ptr<const rediscluster::ClusterView> observe(const api::RedisCluster& rc);
  rediscluster::Health health(const api::RedisCluster& rc) { return rediscluster::assessHealth(rc, *observe(rc)); }
  // What observe(rc) depends on that does not drift with time: the pods, the password, and
  // each process's own digest (RedisNode/SentinelNode::appendViewDigest) and reachability.
  // Also leaves each pod's part (PodSeen::now) and the rest's (Derived::baseNow) for observe.
  redissim::ViewHash viewDigest(const api::RedisCluster& rc);
  // Kept views, and the kubelet's kept readiness verdicts (PodBridge's), as checked.
  ViewCacheCheck viewCacheCheck() const;
  // The cluster whose faults ParamChange applies to: the first manifest's.
  void setFaultCluster(std::string ns, std::string name);
  chaos::ClusterTargets& targets() { return *targets_; }
  chaos::FaultInjector& injector() { return *injector_; }

  // chaos::OperatorControl
  Status restartOperator() override;
  Status changeParameter(const chaos::Fault& f) override;

  OperatorCore& op() { return *op_; }
  int operatorRestarts() const { return restarts_; }
  // Since the world was made (across restarts).
  std::uint64_t operatorApiWrites() const { return opClient_.writes(); }
  // Whether the operator holds the cluster "ns/name" in failure back-off: its last
  // reconcile failed and a retry is scheduled (WorkQueue::numRequeues).
  bool operatorRetrying(const std::string& key);
  // Whether the operator's cache of the cluster lags the store (its watch broken and not
  // yet listed again, or an event not delivered yet): it has not seen the cluster as it is.
  bool operatorBehind(const std::string& ns, const std::string& name);
  // The same, by "verb resource" (CountingClient::writesByKind).
  const std::map<std::string, std::uint64_t>& operatorApiWritesByKind() const { return opClient_.writesByKind(); }
  std::uint64_t operatorRedisWrites() const;

 private:
  void startOperator();

  ScenarioWorldOptions opts_;
  std::unique_ptr<sim::SimWorld> world_;
  UnfaultedClient harness_;
  CountingClient opClient_;
  Random opRandom_;
  std::unique_ptr<OperatorCore> op_;
  std::unique_ptr<chaos::ClusterTargets> targets_;
  std::unique_ptr<chaos::FaultInjector> injector_;
  std::string faultNs_ = "default", faultCluster_;
  std::map<std::string, Object> judged_;  // "ns/name" -> the spec to judge by
  // "ns/name" -> generation -> the spec the harness wrote at it. While the stored spec is
  // invalid, the one in force is the spec of the status's observedGeneration (what the
  // operator accepted last), which judged_ only approximates: a valid change and an
  // invalid one at the same moment may reach the operator as one.
  std::map<std::string, std::map<std::int64_t, Object>> specAt_;
  void noteSpec(const Object& stored);
  struct Nodes {
    const redissim::RedisNode* redis = nullptr;
    const redissim::SentinelNode* sentinel = nullptr;
    bool operator==(const Nodes&) const = default;
  };
  // What viewDigest keeps of one pod while it is listed as the same stored object: its
  // identity fields hashed once, its address interned and its endpoint made once (on first
  // use), and the processes found there (nodesAt).
  struct PodSeen {
    redissim::ViewHash identity;
    bool interned = false;
    NetNodeId ip = 0;
    RedisEndpoint ep;
    // The process listening at ep, as the fabric answered while its listenerChanges()
    // read listenerAt.
    std::optional<std::uint64_t> listenerAt;
    const redissim::SimProcess* listener = nullptr;
    redissim::ProcId proc = 0;  // the listener `nodes` were found for (0: none kept)
    Nodes nodes;
    // The process' own digest (appendViewDigest) and what it was made at: made again only
    // when one of these moved (see RedisNode/SentinelNode::viewVersion).
    struct Own {
      redissim::ProcId proc = 0;  // the RedisNode's or SentinelNode's (0: none kept)
      std::uint64_t incarnation = 0, version = 0;
      redissim::SimProcess::State state{};
      bool loading = false;
      redissim::ViewHash digest;
    } own;
    // This pod's part of the last viewDigest, and of the one the kept view was made at
    // (viewed: the kept view has this pod's entry, made while the same pods were listed).
    redissim::ViewHash now, atView;
    bool viewed = false;
    std::size_t viewIndex = 0;  // where the kept view has this pod's entry
    ObjectPtr from;             // the stored object the pod was derived from
  };
  // The redis node, or else the sentinel, at seen.ep as RedisSim has them (a redis node
  // is looked for only at the redis port); kept per pod while the same process listens.
  Nodes nodesAt(PodSeen& seen, int port, const redissim::SimProcess* listener);
  Nodes lookUpNodes(const RedisEndpoint& ep, int port) const;
  // The fabric's listener at seen.ep, asked again only when its listeners changed.
  const redissim::SimProcess* listenerAt(PodSeen& seen);
  // n's or s's appendViewDigest as kept in seen.own, made again only when it may have moved.
  std::uint64_t ownDigest(PodSeen& seen, const redissim::RedisNode* n, const redissim::SentinelNode* s);
  // A pod of the last list, and which of the cluster's two selectors match it.
  struct PodMatch {
    ObjectPtr pod;
    bool redis = false, sentinel = false;
  };
  // By "ns/name", with the store version they were derived at, and the stored objects they
  // were derived from (kept while the store hands back the same ones).
  struct Derived {
    std::string ns, name;  // set by cluster(); derivedOf's fallback leaves them empty
    std::uint64_t clusterAt = 0, podsAt = 0;
    std::string clusterRv;
    std::shared_ptr<const api::RedisCluster> cluster;
    std::vector<ObjectPtr> redisObjects, sentinelObjects;
    // The pods' label selectors of cluster selectorsOf, parsed once (nullopt: unparsable).
    bool selectorsMade = false;
    std::string selectorsOf;
    std::optional<LabelSelector> redisSelector, sentinelSelector;
    std::vector<PodMatch> podMatches;  // the namespace's pods at the last list
    rediscluster::ClusterPods pods;
    std::vector<PodSeen> redisSeen, sentinelSeen;  // by pods.redis / pods.sentinels index
    redissim::ViewHash viewDigest;
    redissim::ViewHash baseNow, baseAtView;  // the password and the pod counts' part
    std::shared_ptr<const rediscluster::ClusterView> view;
    // What viewDigest last computed, and what it was computed from, when that says it all:
    // the store, the listeners, RedisSim's processes and every process' view and state
    // (Fabric::viewChanges), with no redis-server loading (which ends with the clock) and
    // a network that answers every probe (NetworkModel::probesCertain).
    struct DigestStamp {
      std::uint64_t store = 0, listeners = 0, processes = 0, views = 0;
      bool operator==(const DigestStamp&) const = default;
    };
    std::optional<DigestStamp> digestAt;
    redissim::ViewHash lastDigest;
  };
  // rc's entry: found by the cluster object itself when rc is the one cluster() derived
  // (every sample), else by "ns/name".
  Derived& derivedOf(const api::RedisCluster& rc);
  // With verifyViewCache: the pods pods() split from one list of the namespace are those a
  // list by each component's selector gives (a mismatch goes to viewCheck_).
  void verifyPods(const api::RedisCluster& rc, const Derived& d);
  // The entry of ns/name, found without building its key (cluster() runs every sample).
  Derived& derivedNamed(const std::string& ns, const std::string& name);
  std::map<std::string, Derived, std::less<>> derived_;
  std::optional<NetNodeId> harnessNode_;
  int restarts_ = 0;
  ViewCacheCheck viewCheck_;
};

}  // namespace kun::scenario
