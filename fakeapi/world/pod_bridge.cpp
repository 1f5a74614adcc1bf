#include "fakeapi/world/pod_bridge.h"

#include <fmt/format.h>

#include "core/api/object_ptr.h"
#include "core/kube/resource.h"
#include "core/rediscluster/layout.h"
#include "fakeapi/world/pod_files.h"
#include "fakeapi/world/process_spec.h"

namespace kun::sim {

namespace layout = rediscluster::layout;

namespace {

std::string podKey(std::string_view ns, std::string_view pod) { return fmt::format("{}/{}", ns, pod); }

// The redis image's WORKDIR: where "dir ./" (Redis' default) puts the data.
constexpr std::string_view kImageWorkdir = "/data";

std::string absolute(const std::string& p, const Object& container) {
  if (!p.empty() && p[0] == '/') return p;
  std::string wd = container.value("workingDir", std::string(kImageWorkdir));
  std::string rel = p;
  while (rel.rfind("./", 0) == 0) rel = rel.substr(2);
  if (rel == ".") rel.clear();
  return rel.empty() ? wd : wd + "/" + rel;
}

}  // namespace

PodBridge::PodBridge(SimCluster& cluster, redissim::RedisSim& redis, PodBridgeOptions opts)
    : cluster_(cluster), redis_(redis), opts_(std::move(opts)), rng_(cluster.random("bridge")),
      alive_(std::make_shared<bool>(true)) {
  Kubelet& k = cluster_.kubelet();
  std::weak_ptr<bool> alive = alive_;
  k.addContainerListener([this, alive](const ContainerEvent& ev) {
    if (alive.lock()) onContainer(ev);
  });
  k.setPreStopHook([this, alive](const Object& pod, Duration grace, std::function<void()> done) {
    if (alive.lock()) preStop(pod, grace, std::move(done));
    else done();
  });
  // ready() reads the pod's identity and container names only: the stored pod will do.
  k.setReadinessHook([this, alive](const Object& pod) { return alive.lock() ? ready(pod) : false; },
                     ReadinessView::Stored);
}

PodBridge::~PodBridge() {
  *alive_ = false;
  alive_.reset();
  if (pollTimer_) cluster_.loop().cancel(pollTimer_);
}

void PodBridge::note(std::string_view text) const { cluster_.env().note("bridge", text); }

void PodBridge::onContainer(const ContainerEvent& ev) {
  if (ev.container != layout::kRedisContainer && ev.container != layout::kSentinelContainer) return;
  if (ev.kind == ContainerEvent::Kind::Started) start(ev);
  else stop(ev);
}

PodBridge::VolumeData& PodBridge::volume(const std::string& uid, const std::string& name) {
  return emptyDirs_[uid][name];
}

Result<std::string> PodBridge::readFile(const Object& pod, const Object& container, const std::string& file) {
  const VolumeFile f = locateFile(pod, container, file);
  switch (f.kind) {
    case VolumeFile::Kind::ConfigMap:
    case VolumeFile::Kind::Secret:
      return readProjectedFile(cluster_.env().client, meta::namespaceOf(pod), pod, f);
    case VolumeFile::Kind::EmptyDir: {
      auto& files = volume(meta::uid(pod), f.volume).files;
      if (auto it = files.find(f.path); it != files.end()) return it->second;
      break;
    }
    default:
      break;
  }
  return makeError(Reason::NotFound, fmt::format("{}: No such file or directory", file));
}

Status PodBridge::runInitContainers(const Object& pod) {
  // Init containers run once per pod once they succeed (not again on a container restart);
  // the only one modelled is a plain copy, which is what the generated sentinel pods use.
  const Object& inits = objectAt(pod, {"spec", "initContainers"});
  if (!inits.is_array()) return {};
  for (const auto& c : inits) {
    const Object& cmd = objectAt(c, {"command"});
    if (!cmd.is_array() || cmd.size() != 3 || cmd[0] != "cp") continue;
    const std::string src = cmd[1].get<std::string>(), dst = cmd[2].get<std::string>();
    auto body = readFile(pod, c, src);
    const VolumeFile to = locateFile(pod, c, dst);
    if (!body || to.kind != VolumeFile::Kind::EmptyDir) {
      note(fmt::format("init {}/{} {}: {}", meta::name(pod), c.value("name", ""), "cp failed",
                       body ? "destination not an emptyDir" : body.error().message));
      if (!body) return body.error();
      continue;
    }
    volume(meta::uid(pod), to.volume).files[to.path] = std::move(body.value());
  }
  return {};
}

void PodBridge::start(const ContainerEvent& ev) {
  const std::string pk = podKey(ev.ns, ev.pod);
  auto podObj = cluster_.env().client.getShared(res::pods, ev.ns, ev.pod);
  if (!podObj || meta::uid(**podObj) != ev.uid) return;  // gone meanwhile
  const Object& pod = **podObj;
  auto fail = [&](const Error& e) {
    errors_[pk] = e;
    note(fmt::format("cannot start {}/{}: {}", pk, ev.container, e.message));
    // A volume whose source is missing (a ConfigMap or Secret deleted) is mounted again
    // and again, as the kubelet's volume manager does, until it is there.
    if (e.reason == Reason::NotFound) retryStart(ev);
  };
  const Object* c = findContainer(pod, ev.container);
  if (!c) return;
  auto cmd = parseCommand(*c);
  if (!cmd) return fail(cmd.error());
  if (!initialized_.count(ev.uid)) {
    if (auto st = runInitContainers(pod); !st.ok()) return fail(st.error());
    initialized_.insert(ev.uid);
  }
  const ConfigFileReader reader = [&](const std::string& f) { return readFile(pod, *c, f); };
  std::vector<ConfigDirective> dirs;
  VolumeFile confFile;
  if (!cmd->configFile.empty()) {
    auto text = reader(cmd->configFile);
    if (!text) return fail(text.error());
    auto parsed = readConfigText(text.value(), reader);
    if (!parsed) return fail(parsed.error());
    dirs = std::move(parsed.value());
    confFile = locateFile(pod, *c, cmd->configFile);
  }
  for (const auto& o : cmd->options) dirs.push_back(o);

  Running r;
  r.uid = ev.uid;
  r.ns = ev.ns;
  r.pod = ev.pod;
  r.container = ev.container;
  r.sentinel = cmd->sentinel;
  r.configWritable = confFile.writable();
  r.configVolume = confFile.volume;
  r.configFile = confFile.path;
  r.podSpec = *podObj;  // stored versions are immutable: kept as read
  std::string where;
  if (cmd->sentinel) {
    // Sentinel rewrites its config file and refuses to start without a writable one.
    if (cmd->configFile.empty()) return fail(makeError(Reason::Invalid, "Sentinel started without config file"));
    if (!confFile.writable())
      return fail(makeError(Reason::Invalid, fmt::format("Sentinel config file {} is not writable", cmd->configFile)));
    redissim::SentinelOptions so;
    so.ip = ev.podIP;
    if (Status st = applySentinelDirectives(dirs, so); !st) return fail(st.error());
    auto& saved = volume(ev.uid, confFile.volume).sentinelConfigs;
    if (auto it = saved.find(confFile.path); it != saved.end()) so.savedConfig = it->second;
    so.bootDelay = opts_.sentinelBootDelay;
    where = so.savedConfig ? "rewritten config" : "fresh config";
    r.endpoint = {so.ip, so.port};
    redis_.addSentinel(std::move(so));
  } else {
    redissim::RedisNodeOptions ro;
    ro.ip = ev.podIP;
    applyRedisDirectives(dirs, ro);
    ro.bootDelay = opts_.redisBootDelay;
    const VolumeFile data = locateFile(pod, *c, absolute(lastValue(dirs, "dir"), *c));
    if (data.kind == VolumeFile::Kind::Claim) {
      auto pvc = cluster_.env().client.getShared(res::persistentvolumeclaims, ev.ns, data.source);
      if (!pvc) return fail(pvc.error());
      r.claimUid = meta::uid(**pvc);
      r.dataVolume = data.volume;
      ro.persistentVolume = true;
      if (auto it = claimDisks_.find(r.claimUid); it != claimDisks_.end()) ro.disk = it->second;
      where = "pvc " + data.source;
    } else if (data.kind == VolumeFile::Kind::EmptyDir) {
      r.dataVolume = data.volume;
      if (auto& d = volume(ev.uid, data.volume).disk) ro.disk = *d;
      where = "emptyDir " + data.volume;
    } else {
      where = "container filesystem";
    }
    // CONFIG REWRITE cannot have changed a config file on a read-only volume.
    ro.configWritable = r.configWritable;
    if (!r.configWritable) ro.disk.rewrittenConfig.reset();
    r.endpoint = {ro.ip, ro.port};
    redis_.addRedis(std::move(ro));
  }
  errors_.erase(pk);
  mountRetries_.erase(retryKey(ev));
  r.serial = ++started_;
  note(fmt::format("start {} {}/{} at {} ({})", r.sentinel ? "sentinel" : "redis", pk, ev.container,
                   r.endpoint.toString(), where));
  Running& kept = running_[pk + "/" + ev.container];
  kept = std::move(r);
  pollAdd(pk, kept);
  armPoll();
}

std::string PodBridge::retryKey(const ContainerEvent& ev) {
  return podKey(ev.ns, ev.pod) + "/" + ev.container + "@" + ev.uid;
}

void PodBridge::retryStart(const ContainerEvent& ev) {
  // The kubelet's backoff for a failed volume operation: 500 ms, doubling, at most 2m2s.
  const int n = mountRetries_[retryKey(ev)]++;
  const Duration delay = std::min<Duration>(milliseconds(500) * (std::int64_t{1} << std::min(n, 8)), milliseconds(122000));
  std::weak_ptr<bool> alive = alive_;
  cluster_.loop().runAt(cluster_.loop().now() + delay, [this, alive, ev] {
    if (alive.expired()) return;
    // Stopped meanwhile (or started by a later event): nothing to mount any more.
    if (!mountRetries_.count(retryKey(ev)) || running_.count(podKey(ev.ns, ev.pod) + "/" + ev.container)) return;
    start(ev);
  });
}

void PodBridge::stop(const ContainerEvent& ev) {
  const std::string pk = podKey(ev.ns, ev.pod);
  mountRetries_.erase(retryKey(ev));
  auto it = running_.find(pk + "/" + ev.container);
  if (it == running_.end() || it->second.uid != ev.uid) return;
  pollRemove(pk, &it->second);
  const Running r = std::move(it->second);
  running_.erase(it);
  // SIGTERM (the kubelet reports exit 0) lets redis-server save; a kill or crash keeps
  // what the process had written; a lost node also loses the AOF's unsynced second.
  const bool graceful = ev.exitCode == 0;
  if (r.sentinel) {
    if (auto* s = redis_.sentinel(r.endpoint)) {
      volume(r.uid, r.configVolume).sentinelConfigs[r.configFile] = s->savedConfig();
    }
  } else if (auto* n = redis_.redis(r.endpoint)) {
    // The process goes before its disk is taken, so what it had written is on it.
    if (graceful) n->shutdown();
    else if (ev.reason == "NodeLost") n->powerLoss();
    else n->crash();
    redissim::RedisDisk disk = n->takeDisk();
    if (!r.configWritable) disk.rewrittenConfig.reset();
    if (!r.claimUid.empty()) claimDisks_[r.claimUid] = std::move(disk);
    else if (!r.dataVolume.empty()) volume(r.uid, r.dataVolume).disk = std::move(disk);
  }
  redis_.remove(r.endpoint);
  ++stopped_;
  note(fmt::format("stop {} {}/{} at {} ({} {})", r.sentinel ? "sentinel" : "redis", pk, ev.container,
                   r.endpoint.toString(), ev.reason, ev.exitCode));
  // The pod's emptyDirs go with the pod: a container of a deleted pod never restarts.
  auto pod = cluster_.env().client.getShared(res::pods, ev.ns, ev.pod);
  if (!pod || meta::uid(**pod) != ev.uid || meta::isDeleting(**pod)) {
    emptyDirs_.erase(ev.uid);
    initialized_.erase(ev.uid);
  }
}

redissim::RedisNode* PodBridge::redisOf(std::string_view ns, std::string_view pod) const {
  auto it = running_.find(fmt::format("{}/{}/{}", ns, pod, layout::kRedisContainer));
  return it == running_.end() || it->second.sentinel ? nullptr : redis_.redis(it->second.endpoint);
}

redissim::SentinelNode* PodBridge::sentinelOf(std::string_view ns, std::string_view pod) const {
  for (std::string_view c : {layout::kSentinelContainer, layout::kRedisContainer}) {
    auto it = running_.find(fmt::format("{}/{}/{}", ns, pod, c));
    if (it != running_.end() && it->second.sentinel) return redis_.sentinel(it->second.endpoint);
  }
  return nullptr;
}

std::optional<Error> PodBridge::startError(std::string_view ns, std::string_view pod) const {
  auto it = errors_.find(podKey(ns, pod));
  if (it == errors_.end()) return std::nullopt;
  return it->second;
}

const redissim::RedisDisk* PodBridge::claimDisk(std::string_view ns, std::string_view claim) const {
  auto pvc = cluster_.env().client.getShared(res::persistentvolumeclaims, ns, claim);
  if (!pvc) return nullptr;
  auto it = claimDisks_.find(meta::uid(**pvc));
  return it == claimDisks_.end() ? nullptr : &it->second;
}

}  // namespace kun::sim
