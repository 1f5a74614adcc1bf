#include "chaos/faults/fault_injector.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "core/kube/resource.h"
#include "fakeapi/controllers/kubelet.h"
#include "fakeapi/controllers/node_lifecycle.h"
#include "fakeapi/redis/redis_sim.h"

namespace kun::chaos {

struct FaultInjector::Active {
  Fault fault;
  std::string detail;
  // Process faults: which process, in which incarnation, under which hold.
  std::optional<RedisEndpoint> process;
  std::uint64_t incarnation = 0;
  std::string holdKey;
  std::vector<std::string> nodes;  // node and zone failure
  std::optional<NetworkFaults::Id> net;
  std::optional<FaultHook::RuleId> rule;
  // Swizzle-clog: the links in cut order, the heal order, what is cut now, the timers.
  std::vector<std::pair<std::string, std::string>> links;
  std::vector<std::size_t> healOrder;
  std::set<std::size_t> cutNow;
  std::vector<TimerId> timers;
};

namespace {

Error unavailable(std::string_view seam, const Fault& f) {
  return makeError(Reason::Unavailable, fmt::format("{} needs the {} seam, which this run does not have",
                                                    faultKindName(f.kind), seam));
}

std::string targetOf(const Fault& f) { return f.target.empty() ? std::string(defaultTarget(f.kind)) : f.target; }

std::string podText(const PodRef& p) {
  return p.ip.empty() ? "pod " + p.name : fmt::format("pod {} ({})", p.name, p.ip);
}

std::string joined(const std::vector<std::string>& v) {
  std::string out;
  for (const auto& s : v) out += (out.empty() ? "" : ",") + s;
  return out;
}

}  // namespace

FaultInjector::FaultInjector(FaultSeams seams, Random rng) : seams_(seams), rng_(std::move(rng)) {
  if (seams_.net) net_.emplace(*seams_.net);
  if (seams_.apiFaults) baseWatchDelay_ = seams_.apiFaults->watchDelay();
}

FaultInjector::~FaultInjector() {
  for (auto& [id, a] : active_)
    for (auto t : a->timers) seams_.loop->cancel(t);
}

void FaultInjector::note(const std::string& text) {
  if (seams_.trace && seams_.loop) seams_.trace->record(seams_.loop->now(), "chaos", text);
}

bool FaultInjector::hold(const std::string& key) { return ++holds_[key] == 1; }

bool FaultInjector::release(const std::string& key) {
  auto it = holds_.find(key);
  if (it == holds_.end()) return false;
  if (--it->second > 0) return false;
  holds_.erase(it);
  return true;
}

redissim::SimProcess* FaultInjector::processAt(const RedisEndpoint& ep) const {
  if (!seams_.redis) return nullptr;
  if (auto* r = seams_.redis->redis(ep)) return r;
  return seams_.redis->sentinel(ep);
}

std::vector<std::string> FaultInjector::allIps() {
  std::set<std::string> ips;
  for (const auto& p : seams_.targets->redisPods())
    if (!p.ip.empty()) ips.insert(p.ip);
  for (const auto& p : seams_.targets->sentinelPods())
    if (!p.ip.empty()) ips.insert(p.ip);
  if (auto op = seams_.targets->operatorIp(); !op.empty()) ips.insert(op);
  return {ips.begin(), ips.end()};
}

Result<FaultInjector::Injected> FaultInjector::begin(const Fault& f) {
  if (auto v = validateFault(f); !v) return v.error();
  if (!seams_.loop) return makeError(Reason::Unavailable, "the fault injector has no event loop");
  auto a = std::make_unique<Active>();
  a->fault = f;
  const bool needsTargets = !needsOperator(f.kind) && f.kind != FaultKind::ApiErrors &&
                            f.kind != FaultKind::ApiLatency && f.kind != FaultKind::WatchDrop &&
                            f.kind != FaultKind::WatchGone;
  if (needsTargets && !seams_.targets) return unavailable("targets", f);
  Status s;
  switch (f.kind) {
    case FaultKind::PodKill: s = beginPodKill(*a); break;
    case FaultKind::PodFailure:
    case FaultKind::ProcessHang: s = beginProcessFault(*a); break;
    case FaultKind::ContainerKill: s = beginContainerKill(*a); break;
    case FaultKind::StatefulSetDelete:
    case FaultKind::ServiceDelete:
    case FaultKind::ConfigMapDelete: s = beginObjectDelete(*a); break;
    case FaultKind::NodeFailure:
    case FaultKind::ZoneFailure: s = beginNodes(*a); break;
    case FaultKind::NetworkPartition: s = beginPartition(*a); break;
    case FaultKind::NetworkDelay:
    case FaultKind::NetworkLoss: s = beginLinkFault(*a); break;
    case FaultKind::SwizzleClog: s = beginSwizzle(*a); break;
    case FaultKind::ApiErrors: s = beginApiErrors(*a); break;
    case FaultKind::ApiLatency: s = beginApiLatency(*a); break;
    case FaultKind::WatchDrop:
    case FaultKind::WatchGone: s = beginWatchFault(*a); break;
    case FaultKind::OperatorRestart:
    case FaultKind::ParamChange: s = beginOperatorFault(*a); break;
  }
  if (!s) {
    note(fmt::format("{} failed: {}", describeFault(f), s.error().message));
    return s.error();
  }
  const Id id = next_++;
  Injected out{id, a->detail};
  note(fmt::format("begin #{} {}: {}", id, faultKindName(f.kind), a->detail));
  if (f.kind == FaultKind::SwizzleClog) {
    // Steps evenly across the duration: cut one link per step, then heal one per step.
    const auto steps = 2 * a->links.size();
    for (std::size_t k = 0; k < steps; ++k) {
      const Duration at = f.duration * static_cast<std::int64_t>(k + 1) / static_cast<std::int64_t>(steps + 1);
      a->timers.push_back(seams_.loop->runAfter(at, [this, id, k] { swizzleStep(id, k); }));
    }
  }
  active_.emplace(id, std::move(a));
  if (f.kind == FaultKind::ApiLatency) refreshWatchDelay();
  return out;
}

Status FaultInjector::beginPodKill(Active& a) {
  if (!seams_.client) return unavailable("KubeClient", a.fault);
  auto pod = resolvePod(*seams_.targets, targetOf(a.fault), rng_);
  if (!pod) return pod.error();
  if (auto s = seams_.client->remove(res::pods, pod->ns, pod->name); !s) return s;
  a.detail = "deleted " + podText(*pod);
  return {};
}

Status FaultInjector::beginProcessFault(Active& a) {
  if (!seams_.redis) return unavailable("Redis simulator", a.fault);
  auto pod = resolvePod(*seams_.targets, targetOf(a.fault), rng_);
  if (!pod) return pod.error();
  const RedisEndpoint ep{pod->ip, pod->port()};
  auto* proc = processAt(ep);
  if (!proc) return makeError(Reason::NotFound, "no process at " + ep.toString());
  const bool hang = a.fault.kind == FaultKind::ProcessHang;
  a.process = ep;
  a.holdKey = (hang ? "hang " : "down ") + ep.toString();
  if (hold(a.holdKey)) {
    if (hang) proc->hang();
    else proc->crash();
  }
  a.incarnation = proc->incarnation();
  a.detail = fmt::format("{} {}", hang ? "hung" : "stopped the process of", podText(*pod));
  return {};
}

Status FaultInjector::beginContainerKill(Active& a) {
  if (!seams_.kubelet || !seams_.client) return unavailable("kubelet", a.fault);
  auto pod = resolvePod(*seams_.targets, targetOf(a.fault), rng_);
  if (!pod) return pod.error();
  auto obj = seams_.client->get(res::pods, pod->ns, pod->name);
  if (!obj) return obj.error();
  const auto& containers = (*obj)["spec"]["containers"];
  if (!containers.is_array() || containers.empty()) return makeError(Reason::NotFound, "the pod has no container");
  const std::string container = containers[0].value("name", std::string{});
  // 137: killed by SIGKILL, what the container runtime reports for a kill.
  if (auto s = seams_.kubelet->crashContainer(pod->ns, pod->name, container, 137); !s) return s;
  a.detail = fmt::format("killed container {} of {}", container, podText(*pod));
  return {};
}

Status FaultInjector::beginObjectDelete(Active& a) {
  if (!seams_.client) return unavailable("KubeClient", a.fault);
  const Resource* r = &res::statefulsets;
  if (a.fault.kind == FaultKind::ServiceDelete) r = &res::services;
  if (a.fault.kind == FaultKind::ConfigMapDelete) r = &res::configmaps;
  const std::string name = seams_.targets->objectName(targetOf(a.fault));
  if (auto s = seams_.client->remove(*r, seams_.targets->ns(), name); !s) return s;
  a.detail = fmt::format("deleted {} {}", r->plural, name);
  return {};
}

Status FaultInjector::beginNodes(Active& a) {
  if (!seams_.nodes) return unavailable("node lifecycle", a.fault);
  if (a.fault.kind == FaultKind::NodeFailure) {
    auto n = resolveNode(*seams_.targets, targetOf(a.fault), rng_);
    if (!n) return n.error();
    a.nodes = {*n};
  } else {
    auto z = resolveZone(*seams_.targets, targetOf(a.fault), rng_);
    if (!z) return z.error();
    a.nodes = *z;
  }
  for (const auto& n : a.nodes)
    if (hold("node " + n))
      if (auto s = seams_.nodes->failNode(n); !s) return s;
  a.detail = "failed node(s) " + joined(a.nodes);
  return {};
}

Status FaultInjector::beginPartition(Active& a) {
  if (!net_) return unavailable("network", a.fault);
  auto& t = *seams_.targets;
  NetEffect effect;
  switch (a.fault.mode) {
    case PartitionMode::MasterSentinels: {
      auto m = resolveIps(t, "master", rng_);
      auto s = resolveIps(t, "sentinels", rng_);
      if (!m) return m.error();
      if (!s) return s.error();
      effect = cutBetween(*m, *s);
      a.detail = fmt::format("master {} cut from sentinels {}", joined(*m), joined(*s));
      break;
    }
    case PartitionMode::SplitSentinels: {
      auto s = resolveIps(t, "sentinels", rng_);
      if (!s) return s.error();
      if (s->size() < 2) return makeError(Reason::NotFound, "fewer than two sentinels to split");
      auto ips = *s;
      rng_.shuffle(ips);
      const auto half = ips.size() / 2;
      std::vector<std::string> minority(ips.begin(), ips.begin() + static_cast<std::ptrdiff_t>(half));
      std::vector<std::string> rest(ips.begin() + static_cast<std::ptrdiff_t>(half), ips.end());
      effect = cutBetween(minority, rest);
      a.detail = fmt::format("sentinels {} | {}", joined(minority), joined(rest));
      break;
    }
    case PartitionMode::OperatorRedis: {
      auto op = resolveIps(t, "operator", rng_);
      if (!op) return op.error();
      std::vector<std::string> pods;
      for (const auto& ip : allIps())
        if (ip != op->front()) pods.push_back(ip);
      effect = cutBetween(*op, pods);
      a.detail = fmt::format("operator {} cut from {}", op->front(), joined(pods));
      break;
    }
    case PartitionMode::OneWay: {
      auto from = resolveIps(t, a.fault.from, rng_);
      auto to = resolveIps(t, a.fault.to, rng_);
      if (!from) return from.error();
      if (!to) return to.error();
      effect = cutOneWay(*from, *to);
      a.detail = fmt::format("{} -> {} dropped", joined(*from), joined(*to));
      break;
    }
  }
  a.net = net_->add(std::move(effect));
  return {};
}

Status FaultInjector::beginLinkFault(Active& a) {
  if (!net_) return unavailable("network", a.fault);
  auto ips = resolveIps(*seams_.targets, targetOf(a.fault), rng_);
  if (!ips) return ips.error();
  LinkEffect e;
  if (a.fault.kind == FaultKind::NetworkDelay) e.latency = a.fault.latency;
  else {
    e.lossNum = a.fault.rateNum;
    e.lossDen = a.fault.rateDen;
  }
  const auto peers = allIps();
  NetEffect effect;
  for (const auto& ip : *ips) effect.merge(aroundIp(ip, peers, e));
  a.net = net_->add(std::move(effect));
  a.detail = fmt::format("{} on every link of {}", describeFault(a.fault), joined(*ips));
  return {};
}

Status FaultInjector::beginSwizzle(Active& a) {
  if (!net_) return unavailable("network", a.fault);
  const auto ips = allIps();
  std::vector<std::pair<std::string, std::string>> pairs;
  for (std::size_t i = 0; i < ips.size(); ++i)
    for (std::size_t j = i + 1; j < ips.size(); ++j) pairs.emplace_back(ips[i], ips[j]);
  if (pairs.empty()) return makeError(Reason::NotFound, "no links to clog");
  rng_.shuffle(pairs);
  pairs.resize(std::min(pairs.size(), static_cast<std::size_t>(a.fault.count)));
  a.links = pairs;
  for (std::size_t i = 0; i < pairs.size(); ++i) a.healOrder.push_back(i);
  rng_.shuffle(a.healOrder);
  a.net = net_->add({});
  a.detail = fmt::format("{} links, cut one by one, healed in random order", pairs.size());
  return {};
}

void FaultInjector::swizzleStep(Id id, std::size_t step) {
  auto it = active_.find(id);
  if (it == active_.end()) return;
  Active& a = *it->second;
  const auto n = a.links.size();
  if (step < n) a.cutNow.insert(step);
  else a.cutNow.erase(a.healOrder[step - n]);
  NetEffect effect;
  for (auto i : a.cutNow) effect.merge(cutBetween({a.links[i].first}, {a.links[i].second}));
  net_->update(*a.net, std::move(effect));
}

Status FaultInjector::beginApiErrors(Active& a) {
  if (!seams_.apiFaults) return unavailable("API fault hook", a.fault);
  FaultRule rule;
  const auto& f = a.fault;
  if (f.code == 429) rule.error = tooManyRequests(f.retryAfterSeconds);
  else if (f.code == 409) {
    rule.error = makeError(Reason::Conflict, "the object has been modified; please apply your changes to the latest version and try again (injected)");
    rule.verbs = {StoreVerb::Update, StoreVerb::UpdateStatus, StoreVerb::Patch};  // 409 answers writes
  } else rule.error = makeError(Reason::Internal, "Internal error occurred (injected)");
  // Target: a comma-separated list of group-resources ("pods,statefulsets.apps"); empty: all.
  for (std::size_t p = 0; p < f.target.size();) {
    auto q = f.target.find(',', p);
    if (q == std::string::npos) q = f.target.size();
    if (q > p) rule.resources.push_back(f.target.substr(p, q - p));
    p = q + 1;
  }
  rule.num = f.rateNum;
  rule.den = f.rateDen;
  rule.from = seams_.loop->now();
  rule.until = seams_.loop->now() + f.duration;
  a.rule = seams_.apiFaults->add(std::move(rule));
  a.detail = describeFault(f);
  return {};
}

Status FaultInjector::beginApiLatency(Active& a) {
  if (!seams_.apiFaults) return unavailable("API fault hook", a.fault);
  a.detail = "watch events +" + std::to_string(toMillis(a.fault.latency)) + "ms";
  return {};
}

void FaultInjector::refreshWatchDelay() {
  if (!seams_.apiFaults) return;
  Duration d = baseWatchDelay_;
  for (const auto& [id, a] : active_)
    if (a->fault.kind == FaultKind::ApiLatency) d = std::max(d, a->fault.latency);
  if (d != seams_.apiFaults->watchDelay()) seams_.apiFaults->setWatchDelay(d);
}

Status FaultInjector::beginWatchFault(Active& a) {
  if (!seams_.apiFaults) return unavailable("API fault hook", a.fault);
  if (a.fault.kind == FaultKind::WatchDrop) {
    seams_.apiFaults->closeAllWatches();
    a.detail = "closed every watch";
  } else {
    seams_.apiFaults->failNextWatchesWithGone(a.fault.count);
    a.detail = fmt::format("next {} watch call(s) get Gone", a.fault.count);
  }
  return {};
}

Status FaultInjector::beginOperatorFault(Active& a) {
  if (!seams_.op) return unavailable("operator", a.fault);
  auto s = a.fault.kind == FaultKind::OperatorRestart ? seams_.op->restartOperator()
                                                      : seams_.op->changeParameter(a.fault);
  if (!s) return s;
  a.detail = a.fault.kind == FaultKind::OperatorRestart ? "operator restarted" : describeFault(a.fault);
  return {};
}

Status FaultInjector::end(Id id) {
  auto it = active_.find(id);
  if (it == active_.end()) return makeError(Reason::NotFound, fmt::format("no active fault #{}", id));
  std::unique_ptr<Active> a = std::move(it->second);
  active_.erase(it);
  for (auto t : a->timers) seams_.loop->cancel(t);
  if (a->net) net_->remove(*a->net);
  if (a->rule) seams_.apiFaults->remove(*a->rule);
  if (a->fault.kind == FaultKind::ApiLatency) refreshWatchDelay();
  for (const auto& n : a->nodes)
    if (release("node " + n)) (void)seams_.nodes->recoverNode(n);
  if (a->process && release(a->holdKey)) {
    // Only the incarnation the fault stopped: a process restarted meanwhile is left alone.
    auto* proc = processAt(*a->process);
    if (proc && proc->incarnation() == a->incarnation) {
      if (a->fault.kind == FaultKind::ProcessHang) proc->resume();
      else proc->start();
    }
  }
  if (hasDuration(a->fault.kind)) note(fmt::format("end #{} {}", id, faultKindName(a->fault.kind)));
  return {};
}

void FaultInjector::endAll() {
  while (!active_.empty()) (void)end(active_.rbegin()->first);
}

}  // namespace kun::chaos
