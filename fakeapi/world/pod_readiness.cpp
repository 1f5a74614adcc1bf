// The readiness hook: what the pods' readiness scripts (core/rediscluster/probe_scripts.h)
// conclude, asked of the process with the same commands (INFO, INFO sentinel) and the
// password the redis script reads from the mounted Secret on every run.
#include <algorithm>

#include <fmt/format.h>

#include "core/rediscluster/layout.h"
#include "fakeapi/world/pod_bridge.h"
#include "fakeapi/world/pod_files.h"

namespace kun::sim {

namespace layout = rediscluster::layout;

namespace {

bool hasLine(const std::string& info, std::string_view prefix) {
  std::size_t pos = 0;
  while (pos < info.size()) {
    std::size_t end = info.find('\n', pos);
    if (end == std::string::npos) end = info.size();
    if (std::string_view(info).substr(pos, end - pos).substr(0, prefix.size()) == prefix) return true;
    pos = end + 1;
  }
  return false;
}

std::string lineStarting(const std::string& info, std::string_view prefix) {
  std::size_t pos = 0;
  while (pos < info.size()) {
    std::size_t end = info.find('\n', pos);
    if (end == std::string::npos) end = info.size();
    std::string line = info.substr(pos, end - pos);
    if (line.rfind(prefix, 0) == 0) {
      if (!line.empty() && line.back() == '\r') line.pop_back();
      return line;
    }
    pos = end + 1;
  }
  return {};
}

// A string member in place ("" when absent or not a string; what value(key, "") reads).
// Found by memberOf's walk: nlohmann's find with a literal key runs a strlen and a compare
// per tree level, and readiness asks for every pod every period.
std::string_view stringAt(const Object& o, const char* key) {
  const Object* it = memberOf(o, key);
  return it && it->is_string() ? std::string_view(it->get_ref<const std::string&>()) : std::string_view();
}

}  // namespace

std::string PodBridge::mountedPassword(const Object& pod, const Object& container) {
  auto pw = readFile(pod, container, fmt::format("{}/{}", layout::kAuthPath, layout::kPasswordKey));
  return pw ? pw.value() : std::string();
}

const PodBridge::Running::NodesSeen& PodBridge::nodesOf(const Running& r) const {
  auto& seen = r.nodesSeen;
  if (seen.at != redis_.processChanges()) {
    seen.at = redis_.processChanges();
    seen.redis = redis_.redis(r.endpoint);
    seen.sentinel = redis_.sentinel(r.endpoint);
  }
  return seen;
}

namespace {
// The commands a probe of n sent, and counting them again for a kept verdict: a redis
// server counts them in INFO; Sentinel keeps no such count.
std::uint64_t commandsOf(const redissim::RedisNode& n) { return n.commandsProcessed(); }
std::uint64_t commandsOf(const redissim::SentinelNode&) { return 0; }
void countAgain(redissim::RedisNode& n, std::uint64_t commands) { n.countCommands(commands); }
void countAgain(redissim::SentinelNode&, std::uint64_t) {}
}  // namespace

template <class Node, class Probe>
bool PodBridge::keptOrProbed(const Running& r, Node& n, Probe&& probe) {
  // The probe's answer is a function of its inputs (the process' state and what its view
  // version covers, the password the probe reads): while they stay the same, the kept
  // verdict is the answer, and only the commands it took are counted again.
  auto& seen = r.verdictSeen;
  const bool changed = refreshReadinessInputs(seen.inputs, r);
  const bool kept = seen.known && !changed;
  if (kept && !opts_.verifyReadinessCache) {
    countAgain(n, seen.commands);
    return seen.verdict;
  }
  const std::uint64_t before = commandsOf(n);
  const bool verdict = probe();
  if (kept) {
    ++readinessCheck_.compared;
    if (verdict != seen.verdict && readinessCheck_.mismatches.size() < 5)
      readinessCheck_.mismatches.push_back(fmt::format("at {} ms: {}/{}/{}: kept {} / fresh {}",
                                                       sinceStartMillis(cluster_.loop().now()), r.ns, r.pod,
                                                       r.container, seen.verdict, verdict));
  }
  seen.known = true;
  seen.verdict = verdict;
  seen.commands = commandsOf(n) - before;
  return verdict;
}

bool PodBridge::redisReady(const Running& r) {
  redissim::RedisNode* n = nodesOf(r).redis;
  if (!n || n->state() != redissim::SimProcess::State::Running) return false;  // refused / timed out
  return keptOrProbed(r, *n, [&] { return probeRedis(*n, probePassword(r)); });
}

bool PodBridge::probeRedis(redissim::RedisNode& n, const std::string& password) {
  // The script greps one full INFO; only two of its sections hold the lines it greps.
  const RedisReply persistence = n.executeAdmin({"INFO", "persistence"}, password);
  if (persistence.type != RedisReply::Type::String) return false;  // NOAUTH, ...
  if (!hasLine(persistence.str, "loading:0")) return false;
  const RedisReply replication = n.executeAdmin({"INFO", "replication"}, password);
  if (replication.type != RedisReply::Type::String) return false;
  const std::string& s = replication.str;
  if (hasLine(s, "role:master")) return true;
  return hasLine(s, "role:slave") && hasLine(s, "master_link_status:up") && hasLine(s, "master_sync_in_progress:0");
}

bool PodBridge::sentinelReady(const Running& r) {
  redissim::SentinelNode* n = nodesOf(r).sentinel;
  if (!n || n->state() != redissim::SimProcess::State::Running) return false;
  return keptOrProbed(r, *n, [n] { return probeSentinel(*n); });
}

bool PodBridge::probeSentinel(redissim::SentinelNode& n) {
  const RedisReply info = n.executeAdmin({"INFO", "sentinel"}, "");
  if (info.type != RedisReply::Type::String) return false;
  const std::string line = lineStarting(info.str, "master0:");
  if (line.empty()) return false;
  if (line.find(fmt::format("address=127.0.0.1:{},", layout::kRedisPort)) != std::string::npos) return false;
  const auto at = line.find("slaves=");
  if (at == std::string::npos) return false;
  return std::atoi(line.c_str() + at + 7) >= 1;
}

bool PodBridge::ready(const Object& pod) {
  // Read in place, the key built in a kept buffer: the kubelet asks every period per pod.
  const Object& md = objectAt(pod, {"metadata"});
  const std::string_view ns = stringAt(md, "namespace"), name = stringAt(md, "name"), uid = stringAt(md, "uid");
  bool verdict = true;
  const Object& cs = objectAt(pod, {"spec", "containers"});
  if (!cs.is_array()) return true;
  for (const auto& c : cs) {
    const std::string_view cn = stringAt(c, "name");
    if (cn != layout::kRedisContainer && cn != layout::kSentinelContainer) continue;
    readyKeyScratch_.clear();
    readyKeyScratch_.append(ns).append(1, '/').append(name).append(1, '/').append(cn);
    auto it = running_.find(readyKeyScratch_);
    if (it == running_.end() || it->second.uid != uid) return false;  // no process: probe fails
    verdict = verdict && (it->second.sentinel ? sentinelReady(it->second) : redisReady(it->second));
  }
  return verdict;
}

void PodBridge::armPoll() {
  if (!opts_.probeOnChange || pollTimer_ || running_.empty()) return;
  pollTimer_ = cluster_.loop().runAfter(opts_.changePoll, [this] { poll(); });
}

PodBridge::ReadinessInputs::Stamp PodBridge::stampOf(const Running& r) const {
  ReadinessInputs::Stamp s;
  s.running = r.serial;
  s.processChanges = redis_.processChanges();
  s.storeVersion = cluster_.store().version();
  const auto& nodes = nodesOf(r);
  const auto viewAt = [](const redissim::SimProcess& p, std::uint64_t version) {
    return ReadinessInputs::ViewAt{p.procId(), p.incarnation(), version, p.state()};
  };
  if (r.sentinel) {
    if (nodes.sentinel) s.process = viewAt(*nodes.sentinel, nodes.sentinel->viewVersion());
  } else if (nodes.redis) {
    s.process = viewAt(*nodes.redis, nodes.redis->viewVersion());
    s.loading = nodes.redis->loading();  // a function of time, which no version counts
  }
  return s;
}

bool PodBridge::refreshReadinessInputs(ReadinessInputs& in, const Running& r) {
  // Read again only when something they are read from moved (poll() asks for every
  // container every changePoll, and nearly always nothing has).
  const ReadinessInputs::Stamp stamp = stampOf(r);
  const bool stamped = in.stamp == stamp;
  if (stamped && !opts_.verifyReadinessCache) return false;
  const bool changed = readReadinessInputs(in, r);
  if (stamped) ++readinessCheck_.compared;
  if (stamped && changed && readinessCheck_.mismatches.size() < 5)
    readinessCheck_.mismatches.push_back(fmt::format("at {} ms: {}/{}/{}: inputs moved, their stamp did not",
                                                     sinceStartMillis(cluster_.loop().now()), r.ns, r.pod,
                                                     r.container));
  in.stamp = stamp;
  return changed;
}

bool PodBridge::readReadinessInputs(ReadinessInputs& in, const Running& r) {
  bool changed = false;
  auto set = [&changed](auto& field, auto&& now) {
    if (field == now) return;
    field = std::forward<decltype(now)>(now);
    changed = true;
  };
  set(in.uid, r.uid);
  set(in.sentinel, r.sentinel);
  ReadinessInputs::RedisSide* redisSide = &in.redis;
  ReadinessInputs::SentinelSide* sentinelSide = &in.sentinelSide;
  // Reads the inputs the process' view version covers (read) unless it and the process
  // are as when they were last read; with verifyReadinessCache they are read all the same,
  // and a change found there is a change the version missed.
  const auto versioned = [&](const redissim::SimProcess& p, std::uint64_t version, const auto& read) {
    const ReadinessInputs::ViewAt at{p.procId(), p.incarnation(), version, p.state()};
    const bool same = in.viewAt == at;
    if (same && !opts_.verifyReadinessCache) return;
    const bool before = changed;
    changed = false;
    read();
    if (same) ++readinessCheck_.compared;
    if (same && changed && readinessCheck_.mismatches.size() < 5)
      readinessCheck_.mismatches.push_back(fmt::format("at {} ms: {}/{}/{}: inputs moved, the view version did not",
                                                       sinceStartMillis(cluster_.loop().now()), r.ns, r.pod,
                                                       r.container));
    changed = changed || before;
    in.viewAt = at;
  };
  if (r.sentinel) {
    const redissim::SentinelNode* n = nodesOf(r).sentinel;
    set(in.present, n != nullptr);
    if (n) {
      sentinelSide = nullptr;
      auto& s = in.sentinelSide;
      static const std::string name(layout::kMasterName);
      set(s.state, n->state());
      versioned(*n, n->viewVersion(), [&] {
        const auto probe = n->masterProbe(name);
        set(s.replicas, probe.replicas);
        // Compared in place: the address rarely changes, so it is copied only when it does.
        if (!probe.host) {
          set(s.master, std::optional<RedisEndpoint>{});
        } else if (!s.master || s.master->port != probe.port || s.master->host != *probe.host) {
          s.master = RedisEndpoint{*probe.host, probe.port};
          changed = true;
        }
        set(s.failover, probe.failover);
      });
    }
  } else {
    const redissim::RedisNode* n = nodesOf(r).redis;
    set(in.present, n != nullptr);
    if (n) {
      redisSide = nullptr;
      auto& s = in.redis;
      set(s.state, n->state());
      set(s.loading, n->loading());
      versioned(*n, n->viewVersion(), [&] {
        set(s.master, n->isMaster());
        set(s.linkUp, n->masterLinkUp());
        set(s.requirepass, n->config().str("requirepass"));
      });
      set(s.password, probePassword(r));
    }
  }
  // A side emptied below was not read from a process: the next read is a full one.
  if (redisSide && sentinelSide) in.viewAt = {};
  // The side that does not apply stays empty, so that two absent processes compare equal.
  // Tested field by field: it is empty on nearly every poll, and building an empty side
  // to compare with cost as much as the rest of the check.
  if (redisSide && !redisSide->isEmpty()) {
    *redisSide = ReadinessInputs::RedisSide{};
    changed = true;
  }
  if (sentinelSide && !sentinelSide->isEmpty()) {
    *sentinelSide = ReadinessInputs::SentinelSide{};
    changed = true;
  }
  return changed;
}

const std::string& PodBridge::probePassword(const Running& r) {
  auto& seen = r.passwordSeen;
  const std::uint64_t version = cluster_.store().version();
  if (seen.read && seen.checkedAt == version) return seen.password;  // nothing stored changed
  seen.checkedAt = version;
  if (!seen.resolved) {
    seen.resolved = true;
    if (const Object* c = findContainer(*r.podSpec, r.container)) {
      const VolumeFile f =
          locateFile(*r.podSpec, *c, fmt::format("{}/{}", layout::kAuthPath, layout::kPasswordKey));
      if (f.kind == VolumeFile::Kind::Secret) seen.secret = f.source;
    }
  }
  if (!seen.secret.empty()) {
    // The harness's own read: no fault drawn, nothing in the run changed by it.
    FakeStore::FaultBypass bypass(cluster_.store());
    auto now = cluster_.store().getShared(res::secrets, r.ns, seen.secret);
    std::shared_ptr<const Object> at = now ? *now : nullptr;
    if (seen.read && at == seen.from) return seen.password;
    seen.from = std::move(at);
  }
  seen.read = true;
  const Object* c = findContainer(*r.podSpec, r.container);
  seen.password = c ? mountedPassword(*r.podSpec, *c) : std::string();
  return seen.password;
}

void PodBridge::pollAdd(const std::string& pk, Running& r) {
  Polled& p = polled_[pk];
  if (p.containers.empty()) {
    p.ns = r.ns;
    p.pod = r.pod;
  }
  auto at = std::lower_bound(p.containers.begin(), p.containers.end(), &r,
                             [](const Running* a, const Running* b) { return a->container < b->container; });
  if (at == p.containers.end() || *at != &r) p.containers.insert(at, &r);
}

void PodBridge::pollRemove(const std::string& pk, const Running* r) {
  auto it = polled_.find(pk);
  if (it == polled_.end()) return;
  Polled& p = it->second;
  // Any container stopping forgets the pod's verdict: the next poll draws it afresh.
  p.known = false;
  p.inputs.clear();
  p.containers.erase(std::remove(p.containers.begin(), p.containers.end(), r), p.containers.end());
  if (p.containers.empty()) polled_.erase(it);
}

void PodBridge::poll() {
  pollTimer_ = 0;
  // One verdict per pod (as the kubelet keeps it); a change since the last poll is probed
  // now rather than at the next period. The first verdict after a container started is
  // only remembered: the kubelet's own probe covers that change.
  for (auto& [pk, p] : polled_) {
    bool changed = p.inputs.size() != p.containers.size();
    p.inputs.resize(p.containers.size());
    for (std::size_t i = 0; i < p.containers.size(); ++i)
      changed = refreshReadinessInputs(p.inputs[i], *p.containers[i]) || changed;
    if (p.known && !changed) continue;  // the same answer
    const bool v = ready(*p.containers.front()->podSpec);
    const bool fresh = !p.known;
    p.known = true;
    if (fresh || p.verdict == v) {
      p.verdict = v;
      continue;
    }
    p.verdict = v;
    cluster_.kubelet().probeNow(p.ns, p.pod);
  }
  armPoll();
}

}  // namespace kun::sim
