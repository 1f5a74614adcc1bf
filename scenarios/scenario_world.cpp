#include "scenarios/scenario_world.h"

#include <algorithm>
#include <iterator>

#include <fmt/format.h>
#include <fmt/ranges.h>

#include "core/api/redis_cluster_crd.h"
#include "core/api/redis_cluster_defaults.h"
#include "core/api/redis_cluster_validation.h"
#include "core/kube/resource.h"
#include "core/kube/selector.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/observe.h"
#include "core/rediscluster/passwords.h"
#include "fakeapi/redis/view_digest.h"

namespace kun::scenario {

namespace {

sim::SimWorldOptions worldOptions(const ScenarioWorldOptions& o) {
  sim::SimWorldOptions w;
  w.seed = o.seed;
  w.nodes = o.world.nodes;
  w.zones = o.world.zones;
  w.cluster.traceEntries = o.traceEntries;
  w.bridge.verifyReadinessCache = o.verifyViewCache;
  return w;
}

// The cluster's pods of one component (those of `all` its selector matched), sorted by
// ordinal; listed: the list, and that selector, were good (else a list with that selector
// would have failed). `kept` holds the stored objects `out` was last made from: when the
// store hands back the very same objects (most samples: the store moved, but not these
// pods), out stays as it is. Whenever out is made again, `seen` is made again beside it;
// a pod still listed as the same stored object (immutable) keeps its PodInfo and its seen
// entry (Seen::from), the others are derived afresh.
template <class Match, class Seen>
void podsOf(bool listed, const std::vector<Match>& all, bool Match::*component, std::vector<ObjectPtr>& kept,
            std::vector<rediscluster::PodInfo>& out, std::vector<Seen>& seen) {
  if (!listed) {
    kept.clear();
    out.clear();
    seen.clear();
    return;
  }
  std::vector<ObjectPtr> list;
  for (const auto& m : all)
    if (m.*component) list.push_back(m.pod);
  if (list == kept) return;
  kept = std::move(list);
  std::vector<std::pair<rediscluster::PodInfo, Seen>> made;
  made.reserve(kept.size());
  for (const auto& p : kept) {
    auto was = std::find_if(seen.begin(), seen.end(), [&](const Seen& x) { return x.from == p; });
    if (was != seen.end()) {
      made.emplace_back(std::move(out[static_cast<std::size_t>(was - seen.begin())]), std::move(*was));
      was->from.reset();  // moved from: not matched again
      continue;
    }
    auto& [pod, fresh] = made.emplace_back(rediscluster::podInfoFrom(*p), Seen{});
    fresh.from = p;
    redissim::digest(fresh.identity, pod.name, pod.uid, pod.ip, pod.running, pod.ready, pod.terminating);
  }
  std::stable_sort(made.begin(), made.end(),
                   [](const auto& a, const auto& b) { return a.first.ordinal < b.first.ordinal; });
  out.clear();
  seen.clear();
  for (auto& [pod, x] : made) {
    out.push_back(std::move(pod));
    seen.push_back(std::move(x));
  }
}

// What selectorString(cluster, c) selects, parsed once.
std::optional<LabelSelector> selectorOf(const std::string& cluster, rediscluster::Component c) {
  auto s = LabelSelector::parse(rediscluster::selectorString(cluster, c));
  if (!s) return std::nullopt;
  return *s;
}

// Everything the checks conclude from a view, as text to compare.
std::string verdictsOf(const api::RedisCluster& rc, const rediscluster::ClusterView& v) {
  const auto h = rediscluster::assessHealth(rc, v);
  std::string out = fmt::format("healthy={} master={} [{}]", h.healthy, h.masterIP, fmt::join(h.reasons, "; "));
  for (const auto* m : v.masters()) out += " master:" + m->pod.ip;
  for (const auto& n : v.redis)
    out += fmt::format(" {}:{}/{}/{}/{}", n.pod.name, n.reachable, n.replication.role, n.replication.masterHost, n.inSync());
  for (const auto& s : v.sentinels)
    out += fmt::format(" {}:{}/{}/{}/{}/{}/{}/{}", s.pod.name, s.reachable, s.monitoring, s.master.ip,
                       s.master.configEpoch, s.failoverInProgress(), s.replicas.size(), s.peers.size());
  return out;
}

}  // namespace

ScenarioWorld::ScenarioWorld(ScenarioWorldOptions opts)
    : opts_(std::move(opts)),
      world_(std::make_unique<sim::SimWorld>(worldOptions(opts_))),
      harness_(world_->store()),
      opClient_(world_->store()),
      opRandom_(world_->cluster().random("operator")) {
  (void)harness_.create(res::customresourcedefinitions, api::redisClusterCrd());
  world_->runFor(milliseconds(10));  // the CRD is served
  startOperator();
}

ScenarioWorld::~ScenarioWorld() {
  injector_.reset();  // ends what is active while the world still exists
  if (op_) op_->stop();
  op_.reset();
}

RedisAdmin& ScenarioWorld::harnessAdmin() { return world_->clientAdmin(kHarnessIp); }

void ScenarioWorld::startOperator() {
  OperatorOptions o;
  o.ns = "";  // every namespace; scenario clusters are annotated cluster-scoped on apply
  o.reconciler.heal = opts_.heal;
  op_ = std::make_unique<OperatorCore>(
      OperatorSeams{world_->loop(), opRandom_, opClient_, world_->operatorAdmin(),
                    Logger{&world_->loop(), LogLevel::Off}, &world_->trace()},
      o);
  op_->start();
}

Status ScenarioWorld::restartOperator() {
  // A crash: nothing is released or flushed; the new process starts from the API server.
  op_.reset();
  ++restarts_;
  startOperator();
  return {};
}

Status ScenarioWorld::apply(const Object& manifest) {
  Object m = manifest;
  // The harness runs one cluster-scoped operator, which manages the clusters that say so.
  if (!m["metadata"].contains("annotations") || !m["metadata"]["annotations"].contains("redis.kun/scope"))
    m["metadata"]["annotations"]["redis.kun/scope"] = "cluster-scoped";
  const std::string ns = m["metadata"].value("namespace", "default");
  const std::string name = m["metadata"].value("name", "");
  auto existing = harness_.get(res::redisclusters, ns, name);
  if (!existing) {
    if (existing.error().reason != Reason::NotFound) return existing.error();
    if (auto st = ensureNamespace(ns); !st) return st.error();
    auto made = harness_.create(res::redisclusters, m);
    if (!made) return made.error();
    noteSpec(*made);
    return {};
  }
  return patchCluster(ns, name, Object{{"spec", m.value("spec", Object::object())}});
}

Status ScenarioWorld::ensureNamespace(const std::string& ns) {
  auto existing = harness_.get(res::namespaces, "", ns);
  if (existing) return {};
  if (existing.error().reason != Reason::NotFound) return existing.error();
  auto made = harness_.create(res::namespaces, Object{{"apiVersion", "v1"}, {"kind", "Namespace"}, {"metadata", {{"name", ns}}}});
  if (!made) return made.error();
  return {};
}

Status ScenarioWorld::patchCluster(const std::string& ns, const std::string& name, const Object& patch) {
  auto r = harness_.patch(res::redisclusters, ns, name, patch);
  if (!r) return r.error();
  noteSpec(*r);
  return {};
}

void ScenarioWorld::noteSpec(const Object& stored) {
  specAt_[meta::namespaceOf(stored) + "/" + meta::name(stored)][meta::generation(stored)] =
      stored.value("spec", Object::object());
}

ScenarioWorld::Derived& ScenarioWorld::derivedNamed(const std::string& ns, const std::string& name) {
  for (auto& [key, d] : derived_)
    if (d.name == name && d.ns == ns) return d;
  Derived& d = derived_[ns + "/" + name];
  d.ns = ns;
  d.name = name;
  return d;
}

std::shared_ptr<const api::RedisCluster> ScenarioWorld::cluster(const std::string& ns, const std::string& name) {
  Derived& d = derivedNamed(ns, name);
  const std::uint64_t now = world_->store().version();
  if (d.clusterAt == now) return d.cluster;
  d.clusterAt = now;
  auto o = harness_.getShared(res::redisclusters, ns, name);
  if (!o) {
    d.cluster.reset();
    d.clusterRv.clear();
    return nullptr;
  }
  // The same stored version (the store moved for other objects): the same cluster. A
  // change of the spec judged by clears derived_ (changeParameter).
  std::string rv = meta::resourceVersion(**o);
  if (!rv.empty() && rv == d.clusterRv) return d.cluster;
  d.clusterRv = std::move(rv);
  d.cluster.reset();
  const auto j = judged_.empty() ? judged_.end() : judged_.find(ns + "/" + name);
  auto rc = j == judged_.end() ? api::parseRedisCluster(std::move(*o)) : [&] {
    Object obj = **o;
    obj["spec"] = j->second;
    // The spec the operator accepted last, when the harness wrote it.
    if (auto specs = specAt_.find(ns + "/" + name); specs != specAt_.end()) {
      std::int64_t observed = 0;
      if (auto st = api::parseStoredStatus(*o)) observed = st->observedGeneration;
      if (auto spec = specs->second.find(observed); spec != specs->second.end()) {
        // An operator that never accepted a spec (restarted onto an invalid one) observes
        // the invalid generation: judged_ then stands.
        Object at = obj;
        at["spec"] = spec->second;
        // Its password as the operator adopts it: the auth Secret's, which holds the one in
        // force (status.acceptedSpec has none). A password change the operator applied but
        // could not record as accepted (every status write refused) is in force all the
        // same (kun-sim prop --seed 3004 --faults api-errors,param-change,operator-restart
        // --minutes 1).
        if (auto secret = harness_.getShared(res::secrets, ns, rediscluster::names::auth(name)); secret && *secret) {
          const std::string inForce = rediscluster::passwordsIn(*secret).current;
          if (!inForce.empty()) at["spec"]["password"] = inForce;
          else at["spec"].erase("password");
        }
        if (auto parsed = api::parseRedisCluster(at); parsed && api::validateRedisCluster(*parsed).empty()) return parsed;
      }
    }
    return api::parseRedisCluster(obj);
  }();
  if (!rc) return nullptr;
  d.cluster = std::make_shared<const api::RedisCluster>(api::withDefaults(*rc));
  return d.cluster;
}

ScenarioWorld::Derived& ScenarioWorld::derivedOf(const api::RedisCluster& rc) {
  for (auto& [key, d] : derived_)
    if (d.cluster.get() == &rc) return d;  // d holds rc: the same object, not a reused address
  return derived_[rc.namespaceOf() + "/" + rc.name()];
}

const rediscluster::ClusterPods& ScenarioWorld::pods(const api::RedisCluster& rc) {
  Derived& d = derivedOf(rc);
  const std::uint64_t now = world_->store().version();
  if (d.podsAt != now) {
    d.podsAt = now;
    // One list of the namespace's pods, split by the two selectors parsed once (the store
    // would parse each selector string on every list; the split is the same matching).
    const std::string name = rc.name();
    if (!d.selectorsMade || d.selectorsOf != name) {
      d.redisSelector = selectorOf(name, rediscluster::Component::Redis);
      d.sentinelSelector = selectorOf(name, rediscluster::Component::Sentinel);
      d.selectorsOf = name;
      d.selectorsMade = true;
      d.podMatches.clear();
    }
    const auto all = harness_.listShared(res::pods, rc.namespaceOf());
    // A stored object is immutable: one matched at the last list (and held since) matches
    // as it did.
    std::vector<PodMatch> matches;
    if (all)
      for (const auto& p : *all) {
        auto was = std::find_if(d.podMatches.begin(), d.podMatches.end(), [&](const auto& m) { return m.pod == p; });
        matches.push_back(was != d.podMatches.end()
                              ? *was
                              : PodMatch{p, d.redisSelector && d.redisSelector->matches(*p),
                                         d.sentinelSelector && d.sentinelSelector->matches(*p)});
      }
    d.podMatches = std::move(matches);
    podsOf(all && d.redisSelector, d.podMatches, &PodMatch::redis, d.redisObjects, d.pods.redis, d.redisSeen);
    podsOf(all && d.sentinelSelector, d.podMatches, &PodMatch::sentinel, d.sentinelObjects, d.pods.sentinels,
           d.sentinelSeen);
    if (opts_.verifyViewCache) verifyPods(rc, d);
  }
  return d.pods;
}

void ScenarioWorld::verifyPods(const api::RedisCluster& rc, const Derived& d) {
  const auto check = [&](rediscluster::Component c, const std::vector<ObjectPtr>& kept, const char* what) {
    auto listed = harness_.listShared(res::pods, rc.namespaceOf(),
                                      ListOptions{rediscluster::selectorString(rc.name(), c), {}});
    ++viewCheck_.compared;
    if ((listed ? *listed : std::vector<ObjectPtr>{}) != kept && viewCheck_.mismatches.size() < 5)
      viewCheck_.mismatches.push_back(fmt::format("at {} ms: {} pods split from the namespace's list differ from "
                                                  "those listed by their selector",
                                                  sinceStartMillis(loop().now()), what));
  };
  check(rediscluster::Component::Redis, d.redisObjects, "redis");
  check(rediscluster::Component::Sentinel, d.sentinelObjects, "sentinel");
}

ScenarioWorld::Nodes ScenarioWorld::nodesAt(PodSeen& seen, int port, const redissim::SimProcess* listener) {
  if (listener && seen.proc == listener->procId() && seen.proc != 0) {
    if (!opts_.verifyViewCache) return seen.nodes;
    ++viewCheck_.compared;
    if (lookUpNodes(seen.ep, port) != seen.nodes && viewCheck_.mismatches.size() < 5)
      viewCheck_.mismatches.push_back(fmt::format("at {} ms: the process kept for {}:{} is not the one there",
                                                  sinceStartMillis(loop().now()), seen.ep.host, seen.ep.port));
    return seen.nodes;
  }
  const Nodes found = lookUpNodes(seen.ep, port);
  // Kept while that very process listens there: ProcIds are never reused, and a process
  // leaves the simulator's maps only by being destroyed (which unlistens it), so it is alive
  // and still the one found at the endpoint. Only a redis node at the redis port, or a
  // sentinel at another (where no redis node is looked for): a sentinel listening on the
  // redis port would give way to a redis node made there before it listens.
  const redissim::SimProcess* proc = found.redis ? static_cast<const redissim::SimProcess*>(found.redis)
                                     : port != rediscluster::layout::kRedisPort ? found.sentinel
                                                                                 : nullptr;
  seen.proc = listener && proc == listener ? listener->procId() : 0;
  seen.nodes = found;
  return found;
}

ScenarioWorld::Nodes ScenarioWorld::lookUpNodes(const RedisEndpoint& ep, int port) const {
  auto& redis = world_->redis();
  const redissim::RedisNode* n = port == rediscluster::layout::kRedisPort ? redis.redis(ep) : nullptr;
  return {n, n ? nullptr : redis.sentinel(ep)};
}

redissim::ViewHash ScenarioWorld::viewDigest(const api::RedisCluster& rc) {
  const auto& p = pods(rc);
  Derived& derived = derivedOf(rc);
  NetworkModel& net = world_->net();
  // Nothing a part below reads has moved since the last digest: the same digest, and the
  // same parts (baseNow, each pod's seen.now), which only this writes. Nearly every
  // sample of a quiet cluster.
  const redissim::Fabric& fabric = world_->redis().fabric();
  const Derived::DigestStamp stamp{world_->store().version(), fabric.listenerChanges(),
                                   world_->redis().processChanges(), fabric.viewChanges()};
  const bool stamped = net.probesCertain() && derived.digestAt && *derived.digestAt == stamp;
  if (stamped && !opts_.verifyViewCache) return derived.lastDigest;
  bool loading = false;  // some redis-server loads: its part moves with the clock
  if (!harnessNode_) harnessNode_ = net.intern(kHarnessIp);
  const NetNodeId harness = *harnessNode_;
  redissim::ViewHash d;
  redissim::digest(d, rc.spec.password, p.redis.size(), p.sentinels.size());
  derived.baseNow = d;
  // Each pod's part on its own (observe asks again only the pods whose part moved), then
  // mixed into the whole. A process' own digest is kept while its view version stays
  // (ownDigest).
  const auto process = [&](const rediscluster::PodInfo& pod, PodSeen& seen, int port) {
    redissim::ViewHash one;
    one.add(seen.identity.a);
    if (!pod.ip.empty()) {
      if (!seen.interned) {
        seen.ip = net.intern(pod.ip);
        seen.ep = RedisEndpoint{pod.ip, port};
        seen.interned = true;
      }
      const redissim::SimProcess* listener = listenerAt(seen);
      redissim::digest(one, net.probe(harness, seen.ip), net.probe(seen.ip, harness),
                       listener ? listener->procId() : 0, listener ? listener->incarnation() : 0);
      const auto [n, s] = nodesAt(seen, port, listener);
      loading = loading || (n && n->loading());
      redissim::digest(one, n != nullptr, s != nullptr);
      if (n || s) one.add(ownDigest(seen, n, s));
    }
    seen.now = one;
    d.add(one.a);
  };
  for (std::size_t i = 0; i < p.redis.size(); ++i)
    process(p.redis[i], derived.redisSeen[i], rediscluster::layout::kRedisPort);
  for (std::size_t i = 0; i < p.sentinels.size(); ++i)
    process(p.sentinels[i], derived.sentinelSeen[i], rediscluster::layout::kSentinelPort);
  if (stamped) {
    ++viewCheck_.compared;
    if (d != derived.lastDigest && viewCheck_.mismatches.size() < 5)
      viewCheck_.mismatches.push_back(fmt::format("at {} ms: the view digest of {} moved while its stamp did not",
                                                  sinceStartMillis(loop().now()), rc.name()));
  }
  if (net.probesCertain() && !loading) derived.digestAt = stamp;
  else derived.digestAt.reset();
  derived.lastDigest = d;
  return d;
}

const redissim::SimProcess* ScenarioWorld::listenerAt(PodSeen& seen) {
  const redissim::Fabric& fabric = world_->redis().fabric();
  if (seen.listenerAt == fabric.listenerChanges()) {
    if (opts_.verifyViewCache) {
      ++viewCheck_.compared;
      if (fabric.listener(seen.ep) != seen.listener && viewCheck_.mismatches.size() < 5)
        viewCheck_.mismatches.push_back(fmt::format("at {} ms: the listener kept for {}:{} is not the one there",
                                                    sinceStartMillis(loop().now()), seen.ep.host, seen.ep.port));
    }
    return seen.listener;
  }
  seen.listenerAt = fabric.listenerChanges();
  seen.listener = fabric.listener(seen.ep);
  return seen.listener;
}

std::uint64_t ScenarioWorld::ownDigest(PodSeen& seen, const redissim::RedisNode* n, const redissim::SentinelNode* s) {
  static const std::string masterName(rediscluster::layout::kMasterName);
  const redissim::SimProcess& p = n ? static_cast<const redissim::SimProcess&>(*n) : *s;
  const auto fresh = [&] {
    redissim::ViewHash h;
    if (n) n->appendViewDigest(h);
    else s->appendViewDigest(masterName, h);
    return h;
  };
  // What the digest reads besides the fields the view version covers: the process' state,
  // and a redis-server's loading (it ends with the clock, not with a write).
  PodSeen::Own& own = seen.own;
  const std::uint64_t version = n ? n->viewVersion() : s->viewVersion();
  const bool loading = n && n->loading();
  if (own.proc == p.procId() && own.incarnation == p.incarnation() && own.version == version && own.state == p.state() &&
      own.loading == loading) {
    if (opts_.verifyViewCache) {
      ++viewCheck_.compared;
      if (fresh() != own.digest && viewCheck_.mismatches.size() < 5)
        viewCheck_.mismatches.push_back(fmt::format("at {} ms: {} changed what its view reads without moving its "
                                                    "view version",
                                                    sinceStartMillis(loop().now()), p.traceName()));
    }
    return own.digest.a;
  }
  own = {p.procId(), p.incarnation(), version, p.state(), loading, fresh()};
  return own.digest.a;
}

std::shared_ptr<const rediscluster::ClusterView> ScenarioWorld::observe(const api::RedisCluster& rc) {
  const redissim::ViewHash digest = viewDigest(rc);
  Derived& d = derivedOf(rc);
  const bool same = d.view && d.viewDigest == digest;
  if (same && !opts_.verifyViewCache) return d.view;
  const rediscluster::ClusterPods& p = pods(rc);
  const std::vector<std::string> passwords{rc.spec.password};
  RedisAdmin& admin = harnessAdmin();
  // A pod whose part is as when the kept view was made (same pods listed, same password)
  // keeps its entry: observing it again would read what that entry says (pods() sorted
  // the pods by ordinal, as rediscluster::observe orders them).
  const bool base = d.view && d.baseAtView == d.baseNow;
  const auto kept = [&](const PodSeen& seen) { return base && seen.viewed && seen.atView == seen.now; };
  // A kept pod's entry is at the index it had in the kept view (pods may have moved since).
  // When nobody else holds the kept view (made here, never const), its entries are moved
  // rather than copied.
  rediscluster::ClusterView* old =
      d.view.use_count() == 1 ? const_cast<rediscluster::ClusterView*>(d.view.get()) : nullptr;
  bool anyKept = false;
  auto view = std::make_shared<rediscluster::ClusterView>();
  const auto entries = [&](auto member, const std::vector<PodSeen>& seen, const auto& observeOne) {
    auto& out = (*view).*member;
    out.reserve(seen.size());
    for (std::size_t i = 0; i < seen.size(); ++i) {
      const bool k = kept(seen[i]);
      anyKept |= k;
      if (!k) out.push_back(observeOne(i));
      else if (old) out.push_back(std::move(((*old).*member)[seen[i].viewIndex]));
      else out.push_back(((*d.view).*member)[seen[i].viewIndex]);
    }
  };
  entries(&rediscluster::ClusterView::redis, d.redisSeen,
          [&](std::size_t i) { return rediscluster::observeRedis(admin, p.redis[i], passwords); });
  entries(&rediscluster::ClusterView::sentinels, d.sentinelSeen,
          [&](std::size_t i) { return rediscluster::observeSentinel(admin, p.sentinels[i]); });
  if (opts_.verifyViewCache && anyKept) {
    // A whole kept view (same: every entry kept) or some kept entries: judged as a fresh
    // view would be.
    const rediscluster::ClusterView fresh = rediscluster::observe(admin, p, passwords);
    ++viewCheck_.compared;
    const std::string k = verdictsOf(rc, *view), now = verdictsOf(rc, fresh);
    if (k != now && viewCheck_.mismatches.size() < 5)
      viewCheck_.mismatches.push_back(fmt::format("at {} ms: kept{}: {} / fresh: {}", sinceStartMillis(loop().now()),
                                                  same ? "" : " in part", k, now));
  }
  for (auto* seen : {&d.redisSeen, &d.sentinelSeen})
    for (std::size_t i = 0; i < seen->size(); ++i) {
      PodSeen& s = (*seen)[i];
      s.atView = s.now;
      s.viewed = true;
      s.viewIndex = i;
    }
  d.baseAtView = d.baseNow;
  d.view = std::move(view);
  d.viewDigest = digest;
  return d.view;
}

void ScenarioWorld::setFaultCluster(std::string ns, std::string name) {
  faultNs_ = std::move(ns);
  faultCluster_ = std::move(name);
  injector_.reset();
  targets_ = std::make_unique<chaos::ClusterTargets>(harness_, &world_->redis(), faultNs_, faultCluster_,
                                                     world_->operatorIp());
  chaos::FaultSeams s;
  s.loop = &world_->loop();
  s.trace = &world_->trace();
  s.targets = targets_.get();
  s.client = &harness_;
  s.apiFaults = &world_->store().faults();
  s.kubelet = &world_->cluster().kubelet();
  s.nodes = &world_->cluster().nodeLifecycle();
  s.net = &world_->net();
  s.redis = &world_->redis();
  s.op = this;
  injector_ = std::make_unique<chaos::FaultInjector>(s, world_->cluster().random("chaos"));
}

Status ScenarioWorld::changeParameter(const chaos::Fault& f) {
  const std::string key = faultNs_ + "/" + faultCluster_;
  if (!f.valid && !judged_.count(key)) {
    auto before = harness_.get(res::redisclusters, faultNs_, faultCluster_);
    if (before) judged_[key] = before->value("spec", Object::object());
  }
  auto st = patchCluster(faultNs_, faultCluster_, chaos::paramPatch(f));
  // A valid change ends the judging by an older spec only if it leaves the spec valid (a
  // valid change on top of an invalid one is not applied either).
  if (f.valid && st) {
    auto now = harness_.get(res::redisclusters, faultNs_, faultCluster_);
    auto parsed = now ? api::parseRedisCluster(*now) : Result<api::RedisCluster>(now.error());
    if (parsed && api::validateRedisCluster(*parsed).empty()) judged_.erase(key);
  }
  derived_.erase(key);  // the spec judged by may have changed without a store change
  // The API server refusing an invalid change is one way of handling it; the checks see
  // whether the cluster stayed as it was.
  if (!st && st.error().reason == Reason::Invalid && !f.valid) return {};
  return st;
}

ViewCacheCheck ScenarioWorld::viewCacheCheck() const {
  ViewCacheCheck c = viewCheck_;
  const auto& r = world_->bridge().readinessCheck();
  c.compared += r.compared;
  for (const auto& m : r.mismatches)
    if (c.mismatches.size() < 5) c.mismatches.push_back("readiness " + m);
  return c;
}

std::uint64_t ScenarioWorld::operatorRedisWrites() const {
  return world_->redis().admin(world_->operatorIp()).stateChangingCalls();
}

bool ScenarioWorld::operatorRetrying(const std::string& key) {
  return op_ && op_->controller().queue().numRequeues(key) > 0;
}

bool ScenarioWorld::operatorBehind(const std::string& ns, const std::string& name) {
  if (!op_) return false;
  const ObjectPtr cached = op_->caches().clusters().get(ns, name);
  auto stored = harness_.getShared(res::redisclusters, ns, name);
  if (!stored.ok()) return cached != nullptr;
  return !cached || meta::fieldView(*cached, "resourceVersion") != meta::fieldView(**stored, "resourceVersion");
}

}  // namespace kun::scenario
