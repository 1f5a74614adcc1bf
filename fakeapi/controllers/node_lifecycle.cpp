#include "fakeapi/controllers/node_lifecycle.h"

#include <fmt/format.h>

#include "fakeapi/controllers/nodes.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/scheduling_rules.h"
#include "fakeapi/controllers/status_update.h"

namespace kun::sim {
namespace {

// How long a pod may stay on an unreachable node: nullopt = forever.
std::optional<Duration> tolerationFor(const Object& pod, Duration fallback) {
  const Object taint = {{"key", kTaintUnreachable}, {"effect", "NoExecute"}};
  auto spec = pod.find("spec");
  if (spec == pod.end() || !spec->contains("tolerations")) return fallback;
  const Object& tolerations = (*spec)["tolerations"];
  if (!tolerations.is_array()) return fallback;
  std::optional<Duration> best;
  bool tolerated = false;
  for (const auto& t : tolerations) {
    if (!toleratesTaint(Object::array({t}), taint)) continue;
    tolerated = true;
    if (!t.contains("tolerationSeconds") || !t["tolerationSeconds"].is_number_integer()) return std::nullopt;
    const Duration d = seconds(std::max<std::int64_t>(0, t["tolerationSeconds"].get<std::int64_t>()));
    if (!best || d < *best) best = d;
  }
  return tolerated ? best : std::optional<Duration>(fallback);
}

}  // namespace

NodeLifecycle::NodeLifecycle(SimEnv env, Kubelet& kubelet, NodeLifecycleConfig cfg)
    : env_(env), kubelet_(kubelet), cfg_(cfg), events_(env.client, env.loop, "node-controller") {}

NodeLifecycle::~NodeLifecycle() {
  for (auto& [node, timers] : evictionTimers_)
    for (auto& [uid, t] : timers) env_.loop.cancel(t);
}

Status NodeLifecycle::setReady(const std::string& name, bool ready) {
  const std::string now = formatRfc3339(env_.loop.wallMicros());
  auto st = mutateStatus(env_.client, res::nodes, "", name, "", [&](Object& status) {
    if (ready) {
      setCondition(status, "Ready", "True", "KubeletReady", "kubelet is posting ready status", now);
    } else {
      setCondition(status, "Ready", "Unknown", "NodeStatusUnknown", "Kubelet stopped posting node status.", now);
    }
  });
  if (!st) return st.error();
  return {};
}

Status NodeLifecycle::failNode(const std::string& name) {
  // Stored versions, shared: they are only read.
  auto node = env_.client.getShared(res::nodes, "", name);
  if (!node) return node.error();
  if (failed_.count(name)) return {};
  failed_.insert(name);
  env_.note("nodes", fmt::format("fail {}", name));
  kubelet_.nodeDown(name);
  if (auto st = setReady(name, false); !st) return st;
  const std::string now = formatRfc3339(env_.loop.wallMicros());
  for (const char* effect : {"NoSchedule", "NoExecute"}) {
    Object taint = {{"key", kTaintUnreachable}, {"effect", effect}};
    if (std::string_view(effect) == "NoExecute") taint["timeAdded"] = now;
    if (auto st = addTaint(env_.client, name, taint); !st) return st;
  }
  events_.record(**node, EventType::Normal, "NodeNotReady", fmt::format("Node {} status is now: NodeNotReady", name));
  auto pods = env_.client.listShared(res::pods, "");
  if (!pods) return pods.error();
  for (const auto& ptr : *pods) {
    const Object& p = *ptr;
    if (podNodeName(p) != name) continue;
    auto after = tolerationFor(p, cfg_.evictionDelay);
    if (!after) continue;
    const std::string uid = meta::uid(p);
    evictionTimers_[name][uid] = env_.loop.runAfter(
        *after, [this, name, uid, ns = meta::namespaceOf(p), pod = meta::name(p)] { evict(name, uid, ns, pod); });
  }
  return {};
}

void NodeLifecycle::evict(const std::string& node, const std::string& uid, const std::string& ns,
                          const std::string& pod) {
  evictionTimers_[node].erase(uid);
  if (!failed_.count(node)) return;
  auto cur = env_.client.getShared(res::pods, ns, pod);
  if (!cur || meta::uid(**cur) != uid) return;
  events_.record(**cur, EventType::Normal, "TaintManagerEviction", fmt::format("Marking for deletion Pod {}/{}", ns, pod));
  DeleteOptions opts;
  opts.preconditionUid = uid;
  if (cfg_.forceDeleteEvicted) opts.gracePeriodSeconds = 0;
  auto st = env_.client.remove(res::pods, ns, pod, opts);
  if (st) {
    ++evictions_;
    env_.note("nodes", fmt::format("evict {}/{} from {}", ns, pod, node));
  } else if (!st.is(Reason::NotFound) && !st.is(Reason::Conflict)) {
    evictionTimers_[node][uid] = env_.loop.runAfter(seconds(1), [this, node, uid, ns, pod] { evict(node, uid, ns, pod); });
  }
}

Status NodeLifecycle::recoverNode(const std::string& name) {
  if (!failed_.erase(name)) return {};
  env_.note("nodes", fmt::format("recover {}", name));
  for (auto& [uid, t] : evictionTimers_[name]) env_.loop.cancel(t);
  evictionTimers_.erase(name);
  if (auto st = removeTaint(env_.client, name, kTaintUnreachable); !st) return st;
  if (auto st = setReady(name, true); !st) return st;
  kubelet_.nodeUp(name);
  if (auto node = env_.client.getShared(res::nodes, "", name)) {
    events_.record(**node, EventType::Normal, "NodeReady", fmt::format("Node {} status is now: NodeReady", name));
  }
  return {};
}

}  // namespace kun::sim
