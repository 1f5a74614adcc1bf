#include "fakeapi/controllers/scheduler.h"

#include <algorithm>
#include <map>
#include <tuple>

#include <fmt/format.h>

#include "core/api/object_ptr.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/scheduling_rules.h"
#include "fakeapi/controllers/status_update.h"

namespace kun::sim {
namespace {

// The store's versions, shared (a pass reads them; copying every pod was a fifth of it).
struct NodeView {
  ObjectPtr node;
  std::string name;
  std::vector<ObjectPtr> pods;  // pods bound here that still occupy the node
};

std::string schedulerNameOf(const Object& pod) {
  const Object* s = memberOf(pod, "spec");
  if (!s || !s->is_object()) return {};
  return s->value("schedulerName", "");
}

bool isPendingFor(const Object& pod, const std::string& scheduler) {
  if (!podNodeName(pod).empty() || meta::isDeleting(pod) || isTerminal(pod)) return false;
  const std::string n = schedulerNameOf(pod);
  return n.empty() || n == scheduler;
}

std::string_view ownerUid(const Object& pod) {
  const Object* c = meta::controllerRef(pod);
  return c ? meta::refField(*c, "uid") : std::string_view();
}

// A PVC the pod needs that is missing or unbound, as the VolumeBinding plugin reports it.
std::optional<std::string> volumeProblem(KubeClient& client, const Object& pod) {
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->contains("volumes") || !(*spec)["volumes"].is_array()) return std::nullopt;
  bool unbound = false;
  for (const auto& v : (*spec)["volumes"]) {
    auto pvc = v.find("persistentVolumeClaim");
    if (pvc == v.end() || !pvc->is_object()) continue;
    const std::string claim = pvc->value("claimName", "");
    // The stored claim itself, read in place.
    auto got = client.getShared(res::persistentvolumeclaims, meta::namespaceOf(pod), claim);
    if (got.is(Reason::NotFound)) return fmt::format("persistentvolumeclaim \"{}\" not found", claim);
    if (!got) return fmt::format("error getting PVC \"{}\": {}", claim, got.error().message);
    if (meta::isDeleting(**got)) return fmt::format("persistentvolumeclaim \"{}\" is being deleted", claim);
    const Object* st = memberOf(**got, "status");
    if (!st || !st->is_object() || st->value("phase", "") != "Bound") unbound = true;
  }
  if (unbound) return std::string("pod has unbound immediate PersistentVolumeClaims");
  return std::nullopt;
}

class Pass {
 public:
  explicit Pass(std::vector<NodeView>& nodes) : nodes_(nodes) {}

  // Pods in the topology domain (key=value) of any node.
  template <class F>
  void forEachInDomain(const std::string& key, const std::string& value, F&& f) const {
    for (const auto& n : nodes_) {
      auto v = topologyValue(*n.node, key);
      if (!v || *v != value) continue;
      for (const auto& p : n.pods) f(*p);
    }
  }

  int countInDomain(const PodAffinityTerm& t, const Object& node) const {
    auto v = topologyValue(node, t.topologyKey);
    if (!v) return 0;
    int n = 0;
    forEachInDomain(t.topologyKey, *v, [&](const Object& p) {
      if (t.matches(p)) ++n;
    });
    return n;
  }

  const PodAffinity& affinityOf(const Object& pod) {
    const std::string key = meta::uid(pod) + "|" + meta::key(pod);
    auto it = affinityCache_.find(key);
    if (it == affinityCache_.end()) it = affinityCache_.emplace(key, podAffinityOf(pod)).first;
    return it->second;
  }

 private:
  std::vector<NodeView>& nodes_;
  std::map<std::string, PodAffinity> affinityCache_;
};

}  // namespace

Scheduler::Scheduler(SimEnv env, Random rng, SchedulerConfig cfg)
    : env_(env), rng_(rng), cfg_(std::move(cfg)),
      pods_(env.client, env.loop, res::pods, {}, env.log),
      nodes_(env.client, env.loop, res::nodes, {}, env.log),
      pvcs_(env.client, env.loop, res::persistentvolumeclaims, {}, env.log),
      events_(env.client, env.loop, cfg_.schedulerName) {
  auto onChange = [this](WatchEventType, const ObjectPtr&, const ObjectPtr&) { kick(); };
  pods_.addHandler(onChange);
  nodes_.addHandler(onChange);
  pvcs_.addHandler(onChange);
}

Scheduler::~Scheduler() { stop(); }

void Scheduler::start() {
  if (running_) return;
  running_ = true;
  nodes_.start();
  pvcs_.start();
  pods_.start();
  kick();
}

void Scheduler::stop() {
  running_ = false;
  pods_.stop();
  nodes_.stop();
  pvcs_.stop();
  for (TimerId* t : {&passTimer_, &retryTimer_}) {
    if (*t) env_.loop.cancel(*t);
    *t = 0;
  }
}

void Scheduler::kick() {
  if (!running_ || passTimer_) return;
  passTimer_ = env_.loop.post([this] {
    passTimer_ = 0;
    pass();
  });
}

bool Scheduler::hasPendingInCache() const {
  for (const auto& p : pods_.list("")) {
    if (isPendingFor(*p, cfg_.schedulerName)) return true;
  }
  return false;
}

void Scheduler::pass() {
  if (!running_ || !hasPendingInCache()) return;
  ++passes_;
  auto retryLater = [this] {
    if (retryTimer_) return;
    retryTimer_ = env_.loop.runAfter(cfg_.retryAfterError, [this] {
      retryTimer_ = 0;
      kick();
    });
  };
  auto nodeList = env_.client.listShared(res::nodes, "");
  auto podList = env_.client.listShared(res::pods, "");
  if (!nodeList || !podList) {
    retryLater();
    return;
  }
  std::vector<NodeView> nodes;
  for (auto& n : *nodeList) {
    NodeView v;
    v.name = meta::name(*n);
    v.node = std::move(n);
    nodes.push_back(std::move(v));
  }
  std::sort(nodes.begin(), nodes.end(), [](const NodeView& a, const NodeView& b) { return a.name < b.name; });
  std::map<std::string, std::size_t> nodeIndex;
  for (std::size_t i = 0; i < nodes.size(); ++i) nodeIndex[nodes[i].name] = i;

  // Queue order: priority, then age, then name (the key is unique, so the order is total).
  using QueueKey = std::tuple<std::int64_t, std::string, std::string>;
  auto sortKey = [](const Object& p) {
    const Object* spec = memberOf(p, "spec");  // read in place, not copied
    const std::int64_t prio = spec && spec->is_object() ? spec->value("priority", std::int64_t{0}) : 0;
    return QueueKey(-prio, meta::creationTimestamp(p), meta::key(p));
  };
  std::vector<std::pair<QueueKey, ObjectPtr>> pending;
  for (auto& p : *podList) {
    const std::string nn = podNodeName(*p);
    if (!nn.empty()) {
      auto it = nodeIndex.find(nn);
      if (it != nodeIndex.end() && !isTerminal(*p)) nodes[it->second].pods.push_back(std::move(p));
    } else if (isPendingFor(*p, cfg_.schedulerName)) {
      pending.emplace_back(sortKey(*p), std::move(p));
    }
  }
  std::sort(pending.begin(), pending.end(),
            [](const auto& a, const auto& b) { return a.first < b.first; });

  Pass ctx(nodes);
  bool failedCall = false;
  const std::string now = formatRfc3339(env_.loop.wallMicros());
  for (const auto& queued : pending) {
    const Object& pod = *queued.second;
    const std::string ns = meta::namespaceOf(pod), name = meta::name(pod), uid = meta::uid(pod);
    std::string message;
    std::optional<std::size_t> chosen;
    if (auto problem = volumeProblem(env_.client, pod)) {
      message = fmt::format("0/{} nodes are available: {}.", nodes.size(), *problem);
    } else {
      const PodAffinity& aff = ctx.affinityOf(pod);
      // Existing pods' required anti-affinity that this pod would violate: (key, value).
      std::vector<std::pair<std::string, std::string>> blocked;
      for (const auto& n : nodes) {
        for (const auto& e : n.pods) {
          for (const auto& t : ctx.affinityOf(*e).requiredAntiAffinity) {
            if (!t.matches(pod)) continue;
            if (auto v = topologyValue(*n.node, t.topologyKey)) blocked.emplace_back(t.topologyKey, *v);
          }
        }
      }
      // Kubernetes lets the first pod of a group with self-affinity in anywhere.
      bool anyAffinityMatch = false, selfMatch = !aff.requiredAffinity.empty();
      for (const auto& t : aff.requiredAffinity) {
        if (!t.matches(pod)) selfMatch = false;
        for (const auto& n : nodes)
          for (const auto& e : n.pods)
            if (t.matches(*e)) anyAffinityMatch = true;
      }
      static const Object kNone;
      const Object* spec = memberOf(pod, "spec");
      const Object* tols = spec ? memberOf(*spec, "tolerations") : nullptr;
      const Object& tolerations = tols ? *tols : kNone;  // read in place, not copied
      std::map<std::string, int> reasons;
      std::vector<std::size_t> feasible;
      for (std::size_t i = 0; i < nodes.size(); ++i) {
        const Object& node = *nodes[i].node;
        std::string why;
        const bool cordoned = node.contains("spec") && node["spec"].value("unschedulable", false);
        if (cordoned && !toleratesTaint(tolerations, Object{{"key", kTaintUnschedulable}, {"effect", "NoSchedule"}})) {
          why = "node(s) were unschedulable";
        } else if (auto taint = firstUntoleratedTaint(pod, node)) {
          why = fmt::format("node(s) had untolerated taint {}", describeTaint(*taint));
        } else if (!matchesNodeSelectorAndAffinity(pod, node)) {
          why = "node(s) didn't match Pod's node affinity/selector";
        } else {
          // InterPodAffinity's order: the pod's affinity, its anti-affinity, then the
          // existing pods' anti-affinity.
          for (const auto& t : aff.requiredAffinity) {
            const bool hasKey = topologyValue(node, t.topologyKey).has_value();
            if (!hasKey || (ctx.countInDomain(t, node) == 0 && !(selfMatch && !anyAffinityMatch))) {
              why = "node(s) didn't match pod affinity rules";
              break;
            }
          }
          if (why.empty()) {
            for (const auto& t : aff.requiredAntiAffinity) {
              if (ctx.countInDomain(t, node) > 0) {
                why = "node(s) didn't match pod anti-affinity rules";
                break;
              }
            }
          }
          if (why.empty()) {
            for (const auto& [key, value] : blocked) {
              auto v = topologyValue(node, key);
              if (v && *v == value) why = "node(s) didn't satisfy existing pods anti-affinity rules";
            }
          }
        }
        if (why.empty()) feasible.push_back(i); else ++reasons[why];
      }
      if (feasible.empty()) {
        // As Kubernetes prints it: "<count> <reason>" strings, sorted, comma-separated.
        std::vector<std::string> counted;
        for (const auto& [why, count] : reasons) counted.push_back(fmt::format("{} {}", count, why));
        std::sort(counted.begin(), counted.end());
        std::string parts;
        for (const auto& s : counted) parts += (parts.empty() ? "" : ", ") + s;
        message = nodes.empty() ? std::string("no nodes available to schedule pods")
                                : fmt::format("0/{} nodes are available: {}.", nodes.size(), parts);
      } else {
        // Rank: (affinity score desc, PreferNoSchedule asc, same owner on node asc, same
        // owner in zone asc, pods on node asc).
        const std::string_view owner = ownerUid(pod);
        using Rank = std::tuple<long, int, int, int, std::size_t>;
        auto rankOf = [&](std::size_t i) {
          const Object& node = *nodes[i].node;
          long score = preferredNodeAffinityScore(pod, node);
          for (const auto& t : aff.preferredAffinity) score += long(t.weight) * ctx.countInDomain(t, node);
          for (const auto& t : aff.preferredAntiAffinity) score -= long(t.weight) * ctx.countInDomain(t, node);
          int ownNode = 0, ownZone = 0;
          if (!owner.empty()) {
            for (const auto& p : nodes[i].pods)
              if (ownerUid(*p) == owner) ++ownNode;
            if (auto zone = topologyValue(node, kZoneLabel)) {
              ctx.forEachInDomain(kZoneLabel, *zone, [&](const Object& p) {
                if (ownerUid(p) == owner) ++ownZone;
              });
            }
          }
          return Rank{-score, untoleratedPreferNoSchedule(pod, node), ownNode, ownZone, nodes[i].pods.size()};
        };
        std::vector<std::size_t> best;
        Rank bestRank{};
        for (std::size_t i : feasible) {
          const Rank r = rankOf(i);
          if (best.empty() || r < bestRank) {
            best = {i};
            bestRank = r;
          } else if (r == bestRank) {
            best.push_back(i);
          }
        }
        chosen = best.size() == 1 ? best[0] : best[rng_.below(best.size())];
      }
    }

    if (chosen) {
      NodeView& target = nodes[*chosen];
      auto bound = env_.client.patchShared(res::pods, ns, name, Object{{"spec", {{"nodeName", target.name}}}});
      if (!bound) {
        if (!bound.is(Reason::NotFound)) failedCall = true;
        continue;
      }
      ++bindings_;
      auto st = mutateStatus(env_.client, res::pods, ns, name, uid, [&](Object& status) {
        setCondition(status, "PodScheduled", "True", "", "", now);
      });
      if (!st && !st.is(Reason::NotFound)) failedCall = true;
      events_.record(**bound, EventType::Normal, "Scheduled",
                     fmt::format("Successfully assigned {}/{} to {}", ns, name, target.name));
      env_.note("scheduler", fmt::format("bind {}/{} {}", ns, name, target.name));
      target.pods.push_back(std::move(bound.value()));
      continue;
    }
    auto st = mutateStatus(env_.client, res::pods, ns, name, uid, [&](Object& status) {
      if (!status.contains("phase")) status["phase"] = "Pending";
      setCondition(status, "PodScheduled", "False", "Unschedulable", message, now);
    });
    if (!st) {
      if (!st.is(Reason::NotFound)) failedCall = true;
      continue;
    }
    if (*st) {
      events_.record(pod, EventType::Warning, "FailedScheduling", message);
      env_.note("scheduler", fmt::format("unschedulable {}/{}: {}", ns, name, message));
    }
  }
  if (failedCall) retryLater();
}

}  // namespace kun::sim
