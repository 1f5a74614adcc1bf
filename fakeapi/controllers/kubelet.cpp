#include "fakeapi/controllers/kubelet.h"

#include <algorithm>

#include <fmt/format.h>

#include "core/api/object_members.h"
#include "core/api/object_ptr.h"
#include "fakeapi/controllers/pod_state.h"
#include "fakeapi/controllers/status_update.h"

namespace kun::sim {

struct Kubelet::ContainerRt {
  std::string name, image;
  enum class State { Waiting, Running, Terminated } state = State::Waiting;
  std::string waitingReason = "ContainerCreating";
  std::string waitingMessage;
  int restartCount = 0;
  std::string containerID;
  std::string startedAt;
  TimePoint runningSince{};
  Object terminated;      // current state when Terminated
  Object lastTerminated;  // lastState.terminated
  Duration backoff{0};    // the delay before the next restart after a crash
  TimerId restartTimer = 0;
  bool ready = false;
};

struct Kubelet::PodRt {
  std::string ns, name, uid, node;
  ObjectPtr pod;  // the last version seen (the informer's, shared: a pod event copies nothing)
  std::string ip, startTime;
  std::string restartPolicy = "Always";
  bool sandbox = false;      // running: has an IP, containers were started
  bool terminating = false;  // deletionTimestamp seen, SIGTERM sent
  bool dead = false;         // its node is down
  bool verdict = false;      // the last readiness verdict
  std::vector<ContainerRt> containers;
  TimerId startTimer = 0, probeTimer = 0, stopTimer = 0, flushTimer = 0;
  Object written;  // the status this kubelet last wrote: unchanged means nothing to write
  // view() as of the last change (a new pod version, or a status change marked dirty):
  // the readiness hook asks every period, and rebuilding it copies the whole pod.
  std::shared_ptr<const Object> viewCache;
  std::string key() const { return ns + "/" + name; }
};

namespace {

const Object& path(const Object& o, std::initializer_list<const char*> keys) {
  static const Object kNull;
  const Object* cur = &o;
  // memberOf, not nlohmann's find: the probe timer reads the pod's probe settings by path.
  for (const char* k : keys)
    if (cur = memberOf(*cur, k); !cur) return kNull;
  return *cur;
}

std::int64_t intOr(const Object& v, std::int64_t def) {
  return v.is_number_integer() ? v.get<std::int64_t>() : def;
}

// {key: value}, built in place: an initializer list ({{key, value}}) builds, copies and
// frees a [key, value] array per member, and the kubelet builds statuses all the time.
Object single(const char* key, Object value) {
  Object o = Object::object();
  o.get_ref<Object::object_t&>().emplace(key, std::move(value));
  return o;
}

// [{"ip": ip}], as status.podIPs and hostIPs.
Object ipList(const std::string& ip) {
  Object list = Object::array();
  list.push_back(single("ip", ip));
  return list;
}

// status[key] = v, left as it is when it holds v already: a status is mostly built again
// as it was, and replacing a string frees it and allocates the same text again.
void putString(Object& status, std::string_view key, std::string_view v) {
  Object& slot = memberSlot(status, key);
  if (!slot.is_string() || slot.get_ref<const std::string&>() != v) slot = v;
}

// status[key] = ipList(ip), not built when it is that already.
void putIpList(Object& status, std::string_view key, const std::string& ip) {
  Object& slot = memberSlot(status, key);
  if (slot.is_array() && slot.size() == 1) {
    const Object& e = slot.front();
    const Object* v = e.is_object() && e.size() == 1 ? memberOf(e, "ip") : nullptr;
    if (v && v->is_string() && v->get_ref<const std::string&>() == ip) return;
  }
  slot = ipList(ip);
}

}  // namespace

Kubelet::Kubelet(SimEnv env, Random rng, KubeletConfig cfg)
    : env_(env), rng_(rng), cfg_(cfg),
      podInformer_(env.client, env.loop, res::pods, {}, env.log),
      nodeInformer_(env.client, env.loop, res::nodes, {}, env.log) {
  podInformer_.addHandler([this](WatchEventType t, const ObjectPtr& obj, const ObjectPtr&) { onPod(t, obj); });
}

Kubelet::~Kubelet() { stop(); }

void Kubelet::start() {
  if (running_) return;
  running_ = true;
  nodeInformer_.start();
  podInformer_.start();
}

void Kubelet::stop() {
  if (!running_) return;
  running_ = false;
  podInformer_.stop();
  nodeInformer_.stop();
  for (auto& [uid, p] : pods_) {
    for (TimerId t : {p->startTimer, p->probeTimer, p->stopTimer, p->flushTimer})
      if (t) env_.loop.cancel(t);
    for (auto& c : p->containers)
      if (c.restartTimer) env_.loop.cancel(c.restartTimer);
  }
  pods_.clear();
  byKey_.clear();
}

const std::string& Kubelet::now() const {
  // Formatted once per second: a flush builds the status twice, each asks.
  return nowText_.at(env_.loop.wallMicros());
}

Kubelet::PodRt* Kubelet::find(std::string_view ns, std::string_view name) {
  auto it = byKey_.find(std::string(ns) + "/" + std::string(name));
  if (it == byKey_.end()) return nullptr;
  auto p = pods_.find(it->second);
  return p == pods_.end() ? nullptr : p->second.get();
}

std::optional<std::string> Kubelet::ipOf(std::string_view ns, std::string_view pod) const {
  auto it = byKey_.find(std::string(ns) + "/" + std::string(pod));
  if (it == byKey_.end()) return std::nullopt;
  auto p = pods_.find(it->second);
  if (p == pods_.end() || p->second->ip.empty()) return std::nullopt;
  return p->second->ip;
}

EventRecorder& Kubelet::recorder(const std::string& node) {
  auto& r = recorders_[node];
  if (!r) r = std::make_unique<EventRecorder>(env_.client, env_.loop, "kubelet", node);
  return *r;
}

IpPool& Kubelet::poolFor(const std::string& node) {
  auto it = pools_.find(node);
  if (it != pools_.end()) return it->second;
  std::string cidr;
  if (auto n = nodeInformer_.get("", node)) {
    const Object& c = path(*n, {"spec", "podCIDR"});
    if (c.is_string()) cidr = c.get<std::string>();
  }
  auto pool = IpPool::fromCidr(cidr, cfg_.ipQuarantine);
  if (!pool) {
    // A node without a podCIDR gets one of its own from the upper half of 10.244/16.
    pool = IpPool::fromCidr(fmt::format("10.244.{}.0/24", 128 + (fallbackCidrs_++ % 128)), cfg_.ipQuarantine);
  }
  return pools_.emplace(node, std::move(pool.value())).first->second;
}

std::string Kubelet::hostIpOf(const std::string& node) const {
  auto n = nodeInformer_.get("", node);
  if (!n) return {};
  const Object& addrs = path(*n, {"status", "addresses"});
  if (!addrs.is_array()) return {};
  for (const auto& a : addrs)
    if (a.value("type", "") == "InternalIP") return a.value("address", "");
  return {};
}

void Kubelet::emit(const PodRt& p, const ContainerRt& c, ContainerEvent::Kind kind, int exitCode,
                   const std::string& reason) {
  ContainerEvent ev{kind, p.ns, p.name, p.uid, c.name, p.node, p.ip, c.restartCount, exitCode, reason};
  for (const auto& l : listeners_) l(ev);
}

// --- watch ------------------------------------------------------------------------------

void Kubelet::onPod(WatchEventType type, const ObjectPtr& obj) {
  if (!running_) return;
  const std::string uid = meta::uid(*obj);
  auto it = pods_.find(uid);
  if (type == WatchEventType::Deleted) {
    finished_.erase(uid);
    if (it != pods_.end()) forget(uid, "Deleted");
    return;
  }
  const std::string node = podNodeName(*obj);
  if (node.empty() || finished_.count(uid)) return;
  if (it == pods_.end()) {
    if (down_.count(node)) return;  // picked up by nodeUp
    admit(obj);
    return;
  }
  PodRt& p = *it->second;
  p.pod = obj;
  p.viewCache.reset();
  if (meta::isDeleting(*obj) && !p.terminating && !p.dead) beginTermination(p);
}

void Kubelet::admit(const ObjectPtr& podPtr) {
  const Object& pod = *podPtr;
  auto p = std::make_unique<PodRt>();
  p->ns = meta::namespaceOf(pod);
  p->name = meta::name(pod);
  p->uid = meta::uid(pod);
  p->node = podNodeName(pod);
  p->pod = podPtr;
  const Object& policy = path(pod, {"spec", "restartPolicy"});
  if (policy.is_string()) p->restartPolicy = policy.get<std::string>();
  const Object& containers = path(pod, {"spec", "containers"});
  if (containers.is_array()) {
    for (const auto& c : containers) {
      ContainerRt rt;
      rt.name = c.value("name", "");
      rt.image = c.value("image", "");
      p->containers.push_back(std::move(rt));
    }
  }
  PodRt& ref = *p;
  byKey_[ref.key()] = ref.uid;
  pods_.emplace(ref.uid, std::move(p));
  env_.note("kubelet", fmt::format("admit {} {}", ref.key(), ref.node));
  if (meta::isDeleting(pod)) {
    // Deleted before it ever ran: nothing to stop.
    ref.terminating = true;
    confirmDeletion(ref.uid);
    return;
  }
  markDirty(ref);
  const Duration delay = rng_.durationBetween(cfg_.startDelayMin, cfg_.startDelayMax);
  ref.startTimer = env_.loop.runAfter(delay, [this, uid = ref.uid] { startSandbox(uid); });
}

// --- running ----------------------------------------------------------------------------

void Kubelet::startSandbox(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  p.startTimer = 0;
  if (p.terminating || p.dead) return;
  auto ip = poolFor(p.node).allocate(env_.loop.now(), lastIp_[p.key()]);
  if (!ip) {
    recorder(p.node).record(*p.pod, EventType::Warning, "FailedCreatePodSandBox",
                            fmt::format("Failed to create pod sandbox: {}", ip.error().message));
    p.startTimer = env_.loop.runAfter(seconds(5), [this, uid] { startSandbox(uid); });
    return;
  }
  p.ip = ip.value();
  lastIp_[p.key()] = p.ip;
  p.sandbox = true;
  if (p.startTime.empty()) p.startTime = now();
  env_.note("kubelet", fmt::format("start {} ip={}", p.key(), p.ip));
  for (auto& c : p.containers) startContainer(p, c, false);
  Duration initial{0};
  const Object& containers = path(*p.pod, {"spec", "containers"});
  if (containers.is_array() && !containers.empty()) {
    const Object& rp = path(containers[0], {"readinessProbe"});
    initial = seconds(intOr(path(rp, {"initialDelaySeconds"}), 0));
  }
  p.verdict = false;
  scheduleProbe(p, initial);
  markDirty(p);
}

void Kubelet::startContainer(PodRt& p, ContainerRt& c, bool restart) {
  if (restart) {
    ++c.restartCount;
    if (!c.terminated.is_null()) c.lastTerminated = c.terminated;
  }
  c.state = ContainerRt::State::Running;
  c.terminated = nullptr;
  c.waitingReason.clear();
  c.waitingMessage.clear();
  c.startedAt = now();
  c.runningSince = env_.loop.now();
  c.ready = false;
  c.containerID = fmt::format("containerd://{:016x}", fnv1a64(fmt::format("{}/{}/{}", p.uid, c.name, c.restartCount)));
  auto& rec = recorder(p.node);
  rec.record(*p.pod, EventType::Normal, "Pulled", fmt::format("Container image \"{}\" already present on machine", c.image));
  rec.record(*p.pod, EventType::Normal, "Created", fmt::format("Created container {}", c.name));
  rec.record(*p.pod, EventType::Normal, "Started", fmt::format("Started container {}", c.name));
  emit(p, c, ContainerEvent::Kind::Started, 0, "");
}

void Kubelet::containerExited(PodRt& p, ContainerRt& c, int exitCode, const std::string& reason) {
  const TimePoint t = env_.loop.now();
  c.state = ContainerRt::State::Terminated;
  c.ready = false;
  c.terminated = Object{{"exitCode", exitCode},  {"reason", reason},
                        {"startedAt", c.startedAt}, {"finishedAt", now()},
                        {"containerID", c.containerID}};
  env_.note("kubelet", fmt::format("exit {}/{} code={} {}", p.key(), c.name, exitCode, reason));
  emit(p, c, ContainerEvent::Kind::Stopped, exitCode, reason);
  markDirty(p);
  if (p.terminating || p.dead) return;
  const bool restart = p.restartPolicy == "Always" || (p.restartPolicy == "OnFailure" && exitCode != 0);
  if (!restart) return;
  // CrashLoopBackOff as the kubelet keeps it: no wait for the first restart, then the
  // back-off doubles; a container that ran for twice the maximum starts over.
  if (t - c.runningSince >= 2 * cfg_.backoffMax) c.backoff = Duration{0};
  const Duration wait = c.backoff;
  c.backoff = c.backoff.count() == 0 ? cfg_.backoffInitial : std::min(c.backoff * 2, cfg_.backoffMax);
  if (wait.count() > 0) {
    c.lastTerminated = c.terminated;
    c.terminated = nullptr;
    c.state = ContainerRt::State::Waiting;
    c.waitingReason = "CrashLoopBackOff";
    c.waitingMessage = fmt::format("back-off {}s restarting failed container={} pod={}_{}({})",
                                   std::chrono::duration_cast<seconds>(wait).count(), c.name, p.name, p.ns, p.uid);
    recorder(p.node).record(*p.pod, EventType::Warning, "BackOff",
                            fmt::format("Back-off restarting failed container {} in pod {}_{}({})", c.name, p.name, p.ns, p.uid));
  }
  const Duration delay = wait + rng_.durationBetween(cfg_.restartDelayMin, cfg_.restartDelayMax);
  c.restartTimer = env_.loop.runAfter(delay, [this, uid = p.uid, name = c.name] { restartContainer(uid, name); });
}

void Kubelet::restartContainer(const std::string& uid, const std::string& container) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  for (auto& c : p.containers) {
    if (c.name != container) continue;
    c.restartTimer = 0;
    if (p.terminating || p.dead || c.state == ContainerRt::State::Running) return;
    startContainer(p, c, true);
    env_.note("kubelet", fmt::format("restart {}/{} count={}", p.key(), c.name, c.restartCount));
    probe(p);
    markDirty(p);
    return;
  }
}

Status Kubelet::crashContainer(std::string_view ns, std::string_view pod, std::string_view container,
                               int exitCode) {
  PodRt* p = find(ns, pod);
  if (!p || p->dead) return makeError(Reason::NotFound, fmt::format("pod {}/{} is not running on a live node", ns, pod));
  for (auto& c : p->containers) {
    if (c.name != container) continue;
    if (c.state != ContainerRt::State::Running) {
      return makeError(Reason::Invalid, fmt::format("container {} of {}/{} is not running", container, ns, pod));
    }
    containerExited(*p, c, exitCode, exitCode == 0 ? "Completed" : "Error");
    return {};
  }
  return makeError(Reason::NotFound, fmt::format("pod {}/{} has no container {}", ns, pod, container));
}

// --- readiness --------------------------------------------------------------------------

void Kubelet::scheduleProbe(PodRt& p, Duration after) {
  if (p.probeTimer) env_.loop.cancel(p.probeTimer);
  p.probeTimer = env_.loop.runAfter(after, [this, uid = p.uid] {
    auto it = pods_.find(uid);
    if (it == pods_.end()) return;
    PodRt& q = *it->second;
    q.probeTimer = 0;
    probe(q);
    Duration period = cfg_.readinessPeriod;
    const Object& containers = path(*q.pod, {"spec", "containers"});
    if (containers.is_array() && !containers.empty()) {
      const std::int64_t s = intOr(path(containers[0], {"readinessProbe", "periodSeconds"}), 0);
      if (s > 0) period = seconds(s);
    }
    if (readiness_ && !q.terminating && !q.dead && q.sandbox) scheduleProbe(q, period);
  });
}

void Kubelet::probe(PodRt& p) {
  if (!p.sandbox || p.terminating || p.dead) return;
  bool verdict = true;
  if (readiness_ && readinessView_ == ReadinessView::Stored) {
    verdict = readiness_(*p.pod);
  } else if (readiness_) {
    if (!p.viewCache) p.viewCache = shareObject(view(p));
    verdict = readiness_(*p.viewCache);
  }
  bool changed = verdict != p.verdict;
  for (auto& c : p.containers) {
    const bool r = c.state == ContainerRt::State::Running && verdict;
    if (r != c.ready) changed = true;
    c.ready = r;
  }
  if (verdict != p.verdict) {
    env_.note("kubelet", fmt::format("ready {} {}", p.key(), verdict ? "true" : "false"));
    if (!verdict && readiness_) {
      recorder(p.node).record(*p.pod, EventType::Warning, "Unhealthy", "Readiness probe failed");
    }
  }
  p.verdict = verdict;
  if (changed) markDirty(p);
}

void Kubelet::setReadinessHook(ReadinessHook h, ReadinessView view) {
  readiness_ = std::move(h);
  readinessView_ = view;
  for (auto& [uid, p] : pods_) {
    if (p->sandbox && !p->terminating && !p->dead) scheduleProbe(*p, Duration{0});
  }
}

void Kubelet::probeNow(std::string_view ns, std::string_view pod) {
  if (PodRt* p = find(ns, pod)) probe(*p);
}

void Kubelet::probeAll() {
  for (auto& [uid, p] : pods_) probe(*p);
}

// --- termination ------------------------------------------------------------------------

void Kubelet::beginTermination(PodRt& p) {
  p.terminating = true;
  for (TimerId* t : {&p.startTimer, &p.probeTimer}) {
    if (*t) env_.loop.cancel(*t);
    *t = 0;
  }
  for (auto& c : p.containers) {
    if (c.restartTimer) env_.loop.cancel(c.restartTimer);
    c.restartTimer = 0;
    c.ready = false;
  }
  if (!p.sandbox) {
    confirmDeletion(p.uid);
    return;
  }
  const Duration grace = seconds(meta::deletionGracePeriodSeconds(*p.pod).value_or(
      std::chrono::duration_cast<seconds>(cfg_.defaultGrace).count()));
  Duration stopIn = grace;
  // The views handed to the hooks are shared only to be freed leaves first (see shareObject).
  if (!preStop_ && termination_) stopIn = std::min(termination_(*shareObject(view(p)), grace), grace);
  if (stopIn.count() < 0) stopIn = Duration{0};
  for (const auto& c : p.containers) {
    if (c.state == ContainerRt::State::Running)
      recorder(p.node).record(*p.pod, EventType::Normal, "Killing", fmt::format("Stopping container {}", c.name));
  }
  env_.note("kubelet", fmt::format("terminate {} grace={}s", p.key(), std::chrono::duration_cast<seconds>(grace).count()));
  markDirty(p);
  if (!preStop_) {
    p.stopTimer = env_.loop.runAfter(stopIn, [this, uid = p.uid] { finishTermination(uid); });
    return;
  }
  // The grace period bounds the handler: when it runs out the containers are killed.
  const std::string uid = p.uid;
  const std::uint64_t attempt = ++preStopAttempts_;
  preStopPending_[uid] = attempt;
  p.stopTimer = env_.loop.runAfter(stopIn, [this, uid] {
    preStopPending_.erase(uid);
    finishTermination(uid, false);
  });
  // Last: done() may run inside the hook and remove the pod.
  preStop_(*shareObject(view(p)), grace, [this, uid, attempt] { preStopDone(uid, attempt); });
}

void Kubelet::preStopDone(const std::string& uid, std::uint64_t attempt) {
  auto pending = preStopPending_.find(uid);
  if (pending == preStopPending_.end() || pending->second != attempt) return;
  preStopPending_.erase(pending);
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  if (p.stopTimer) env_.loop.cancel(p.stopTimer);
  p.stopTimer = 0;
  finishTermination(uid, true);
}

void Kubelet::finishTermination(const std::string& uid) { finishTermination(uid, termination_ != nullptr); }

void Kubelet::finishTermination(const std::string& uid, bool graceful) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  p.stopTimer = 0;
  if (p.dead) return;
  // Containers that handled SIGTERM exit 0; without a termination hook they used up the
  // whole grace period and were killed.
  killContainers(p, graceful ? "Completed" : "Killed", graceful ? 0 : 137);
  confirmDeletion(uid);
}

void Kubelet::killContainers(PodRt& p, const std::string& reason, int exitCode) {
  for (auto& c : p.containers) {
    if (c.restartTimer) env_.loop.cancel(c.restartTimer);
    c.restartTimer = 0;
    if (c.state == ContainerRt::State::Running) containerExited(p, c, exitCode, reason);
  }
}

void Kubelet::confirmDeletion(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  DeleteOptions opts;
  opts.preconditionUid = uid;
  opts.gracePeriodSeconds = 0;
  auto st = env_.client.remove(res::pods, p.ns, p.name, opts);
  if (st || st.is(Reason::NotFound) || st.is(Reason::Conflict)) {
    // The containers are gone and the API knows: the sandbox and its IP go now, as the
    // real kubelet frees them; a pod kept by finalizers is not run again.
    if (st) finished_.insert(uid);
    forget(uid, "Deleted");
    return;
  }
  p.stopTimer = env_.loop.runAfter(cfg_.retryAfterError, [this, uid] { confirmDeletion(uid); });
}

void Kubelet::forget(const std::string& uid, const std::string& reason) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  preStopPending_.erase(uid);
  for (TimerId t : {p.startTimer, p.probeTimer, p.stopTimer, p.flushTimer})
    if (t) env_.loop.cancel(t);
  p.startTimer = p.probeTimer = p.stopTimer = p.flushTimer = 0;
  p.terminating = true;
  if (!p.dead) killContainers(p, reason, 137);
  releaseIp(p);
  env_.note("kubelet", fmt::format("gone {}", p.key()));
  if (auto k = byKey_.find(p.key()); k != byKey_.end() && k->second == uid) byKey_.erase(k);
  pods_.erase(it);
}

void Kubelet::releaseIp(PodRt& p) {
  if (p.ip.empty()) return;
  poolFor(p.node).release(p.ip, env_.loop.now());
  p.ip.clear();
}

// --- nodes ------------------------------------------------------------------------------

void Kubelet::nodeDown(const std::string& node) {
  if (!down_.insert(node).second) return;
  env_.note("kubelet", fmt::format("node down {}", node));
  const std::string t = now();
  for (auto& [uid, pp] : pods_) {
    PodRt& p = *pp;
    if (p.node != node) continue;
    for (TimerId* tm : {&p.startTimer, &p.probeTimer, &p.stopTimer, &p.flushTimer}) {
      if (*tm) env_.loop.cancel(*tm);
      *tm = 0;
    }
    p.dead = true;  // first: a dead node restarts nothing
    p.verdict = false;
    killContainers(p, "NodeLost", 137);
    // The kubelet is gone; the node lifecycle controller marks the pod not ready.
    auto st = mutateStatus(env_.client, res::pods, p.ns, p.name, p.uid, [&](Object& status) {
      setCondition(status, "Ready", "False", "NodeNotReady", "", t);
    });
    (void)st;
  }
}

void Kubelet::nodeUp(const std::string& node) {
  if (!down_.erase(node)) return;
  env_.note("kubelet", fmt::format("node up {}", node));
  std::vector<std::string> revive;
  for (auto& [uid, pp] : pods_)
    if (pp->node == node) revive.push_back(uid);
  for (const auto& uid : revive) {
    PodRt& p = *pods_.at(uid);
    p.dead = false;
    releaseIp(p);  // a new sandbox, a new address
    p.sandbox = false;
    if (p.terminating || meta::isDeleting(*p.pod)) {
      p.terminating = true;
      confirmDeletion(uid);
      continue;
    }
    for (auto& c : p.containers) {
      c.state = ContainerRt::State::Waiting;
      c.waitingReason = "ContainerCreating";
      c.ready = false;
      ++c.restartCount;
      if (!c.terminated.is_null()) c.lastTerminated = c.terminated;
      c.terminated = nullptr;
    }
    markDirty(p);
    const Duration delay = rng_.durationBetween(cfg_.startDelayMin, cfg_.startDelayMax);
    p.startTimer = env_.loop.runAfter(delay, [this, uid] { startSandbox(uid); });
  }
  // Pods bound to the node while it was down.
  for (const auto& obj : podInformer_.list("")) {
    if (podNodeName(*obj) == node && !pods_.count(meta::uid(*obj))) admit(obj);
  }
}

// --- status -----------------------------------------------------------------------------

void Kubelet::markDirty(PodRt& p) {
  p.viewCache.reset();
  if (p.flushTimer || p.dead) return;
  p.flushTimer = env_.loop.post([this, uid = p.uid] { flush(uid); });
}

void Kubelet::flush(const std::string& uid) {
  auto it = pods_.find(uid);
  if (it == pods_.end()) return;
  PodRt& p = *it->second;
  p.flushTimer = 0;
  if (p.dead) return;
  // Others' changes (the scheduler's condition) need no write of ours; only ours do.
  std::optional<Object> fromWritten;  // buildStatus(p, p.written), when that was built
  if (!p.written.is_null()) {
    fromWritten = buildStatus(p, p.written);
    if (*fromWritten == p.written) return;
  }
  // The status is computed from the stored one, which is read in place, not copied.
  auto st = replaceStatus(env_.client, res::pods, p.ns, p.name, p.uid, [&](const Object& current) {
    // Usually the stored status is the one written last: then the status built from it is
    // at hand (the same instant, the same inputs), not built again.
    Object status = fromWritten && current == p.written ? std::move(*fromWritten) : buildStatus(p, current);
    // The trees replaced are freed leaves first (dismantle): nlohmann's destructor would
    // move every nested member onto a heap-allocated stack first.
    if (fromWritten) dismantle(*fromWritten);
    fromWritten.reset();
    dismantle(p.written);
    p.written = status;
    return status;
  });
  if (!st && !st.is(Reason::NotFound)) {
    p.flushTimer = env_.loop.runAfter(cfg_.retryAfterError, [this, uid] { flush(uid); });
  }
}

Object Kubelet::view(const PodRt& p) const {
  // Everything but status copied: status is rebuilt.
  Object v = copyWithout(*p.pod, "status");
  static const Object kNone = Object::object();
  const Object* st = memberOf(*p.pod, "status");
  v["status"] = buildStatus(p, st ? *st : kNone);
  return v;
}

Object Kubelet::buildStatus(const PodRt& p, const Object& current) const {
  // containerStatuses is rebuilt whole below: not copied only to be replaced.
  Object st = current.is_object() ? copyWithout(current, "containerStatuses") : Object::object();
  const std::string& t = now();
  bool allTerminated = !p.containers.empty(), allSucceeded = true, anyRestartPending = false;
  std::vector<std::string> unready;
  Object statuses = Object::array();
  for (const auto& c : p.containers) {
    // Members emplaced one by one (see single()).
    Object cs = Object::object();
    auto& m = cs.get_ref<Object::object_t&>();
    m.emplace("name", c.name);
    m.emplace("image", c.image);
    m.emplace("imageID", "");
    m.emplace("ready", c.ready);
    m.emplace("restartCount", c.restartCount);
    m.emplace("started", c.state == ContainerRt::State::Running);
    if (!c.containerID.empty()) m.emplace("containerID", c.containerID);
    switch (c.state) {
      case ContainerRt::State::Waiting: {
        Object w = single("reason", c.waitingReason);
        if (!c.waitingMessage.empty()) w["message"] = c.waitingMessage;
        m.emplace("state", single("waiting", std::move(w)));
        break;
      }
      case ContainerRt::State::Running:
        m.emplace("state", single("running", single("startedAt", c.startedAt)));
        break;
      case ContainerRt::State::Terminated:
        m.emplace("state", single("terminated", c.terminated));
        break;
    }
    m.emplace("lastState", c.lastTerminated.is_null() ? Object::object() : single("terminated", c.lastTerminated));
    statuses.push_back(std::move(cs));
    if (!c.ready) unready.push_back(c.name);
    if (c.state != ContainerRt::State::Terminated) allTerminated = false;
    if (c.restartTimer) anyRestartPending = true;
    if (c.state == ContainerRt::State::Terminated && c.terminated.value("exitCode", 1) != 0) allSucceeded = false;
  }
  std::string phase = "Pending";
  if (p.sandbox) phase = (allTerminated && !anyRestartPending) ? (allSucceeded ? "Succeeded" : "Failed") : "Running";
  putString(st, "phase", phase);
  const std::string host = hostIpOf(p.node);
  if (!host.empty()) {
    putString(st, "hostIP", host);
    putIpList(st, "hostIPs", host);
  }
  if (!p.ip.empty()) {
    putString(st, "podIP", p.ip);
    putIpList(st, "podIPs", p.ip);
  } else {
    st.erase("podIP");
    st.erase("podIPs");
  }
  if (!p.startTime.empty()) putString(st, "startTime", p.startTime);
  putString(st, "qosClass", "BestEffort");
  memberSlot(st, "containerStatuses") = std::move(statuses);
  const bool ready = unready.empty() && !p.containers.empty();
  std::string list;
  for (const auto& n : unready) list += (list.empty() ? "" : " ") + n;
  const std::string msg = ready ? "" : fmt::format("containers with unready status: [{}]", list);
  const std::string reason = ready ? "" : (phase == "Succeeded" || phase == "Failed" ? "PodCompleted" : "ContainersNotReady");
  setCondition(st, "Initialized", "True", "", "", t);
  setCondition(st, "ContainersReady", ready ? "True" : "False", reason, msg, t);
  setCondition(st, "Ready", ready ? "True" : "False", reason, msg, t);
  return st;
}

}  // namespace kun::sim
