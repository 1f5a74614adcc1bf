// The Sentinel process: lifecycle, its config (sentinel.conf as rewritten), the table of
// monitored instances, resets and address changes, and its event log.
//
// Simplification: instance tables are ordered maps (sentinel.c uses hash tables), so
// "the first replica" or a tie between vote counts resolves by name, not by hash order.
#include "fakeapi/redis/sentinel_node.h"

#include <fmt/format.h>

#include "fakeapi/redis/resp.h"

namespace kun::redissim {

SentinelNode::SentinelNode(Fabric& fabric, Random rng, SentinelOptions opts, Trace* trace)
    : SimProcess(fabric, opts.ip, trace), rng_(std::move(rng)), tickRng_(rng_.fork("timer")), opts_(std::move(opts)), port_(opts_.port) {
  saved_ = opts_.savedConfig;
  fabric.listen(endpoint(), procId());
  if (opts_.startNow) start(opts_.bootDelay);
}

SentinelNode::~SentinelNode() = default;

std::string SentinelNode::traceName() const { return fmt::format("sentinel {}:{}", ip(), port_); }

// ---------------------------------------------------------------------------------------
// lifecycle

void SentinelNode::onBoot() {
  const std::int64_t now = mstime();
  runId_ = hexId(rng_);
  bootMs_ = now;
  previousTime_ = now;
  viewChanged();  // every instance is made again
  tilt_ = false;
  currentEpoch_ = 0;
  masters_.clear();
  byUid_.clear();
  helloSeen_.clear();
  clients_.clear();
  channels_.clear();
  if (saved_) {
    myid_ = saved_->myid;
    currentEpoch_ = saved_->currentEpoch;
    for (const auto& sm : saved_->masters) {
      const auto& c = sm.config;
      Instance* m = createInstance(c.name, kMaster, c.host, c.port, c.quorum, nullptr);
      if (!m) continue;
      m->downAfter = c.downAfterMs;
      m->failoverTimeout = c.failoverTimeoutMs;
      m->parallelSyncs = c.parallelSyncs;
      m->authPass = c.authPass;
      m->configEpoch = sm.configEpoch;
      m->leaderEpoch = sm.leaderEpoch;
      for (const auto& [h, p] : sm.knownReplicas) createInstance("", kSlave, h, p, c.quorum, m);
      for (const auto& ks : sm.knownSentinels) {
        Instance* s = createInstance(ks.runid, kSentinel, ks.host, ks.port, c.quorum, m);
        if (s) s->runid = ks.runid;
      }
    }
  } else {
    myid_ = hexId(rng_);
    for (const auto& c : opts_.monitors) {
      Instance* m = createInstance(c.name, kMaster, c.host, c.port, c.quorum, nullptr);
      if (!m) continue;
      m->downAfter = c.downAfterMs;
      m->failoverTimeout = c.failoverTimeoutMs;
      m->parallelSyncs = c.parallelSyncs;
      m->authPass = c.authPass;
      event("+monitor", m, fmt::format("quorum {}", m->quorum));
    }
  }
  record("Sentinel ID is " + myid_);
  // serverCron's first run is 1 ms after start-up (then every 1000/hz): the first links,
  // PING and INFO go out right after the instances were created from the config, so the
  // PING cycle starts ~2 ms after the creation-time stamps (last_pub_time, ...) that pace
  // the first hellos.
  tickTimes_.clear();
  setTick(0, loop().now() + milliseconds(1));
}

void SentinelNode::onDown() {
  record("process exited");
  // Sentinel rewrites sentinel.conf on every change: what a restart reads is the state now.
  if (opts_.keepConfigOnRestart) saved_ = savedConfig();
  else saved_ = opts_.savedConfig;
  viewChanged();
  masters_.clear();
  byUid_.clear();
  helloSeen_.clear();
  clients_.clear();
  channels_.clear();
}

SentinelSavedConfig SentinelNode::savedConfig() const {
  SentinelSavedConfig s;
  s.myid = myid_;
  s.currentEpoch = currentEpoch_;
  for (const auto& [name, m] : masters_) {
    SentinelSavedConfig::Master sm;
    // As sentinel.conf is rewritten: the current master address (the promoted replica once
    // the failover reconfigures the others), with the old master among the replicas.
    auto [mh, mp] = currentMasterAddress(*m);
    sm.config = {m->name, mh, mp, m->quorum, m->downAfter, m->failoverTimeout, m->parallelSyncs, m->authPass};
    sm.configEpoch = m->configEpoch;
    sm.leaderEpoch = m->leaderEpoch;
    for (const auto& [k, sl] : m->slaves) {
      if (sl->host == mh && sl->port == mp) sm.knownReplicas.emplace_back(m->host, m->port);
      else sm.knownReplicas.emplace_back(sl->host, sl->port);
    }
    for (const auto& [k, se] : m->sentinels)
      if (!se->runid.empty()) sm.knownSentinels.push_back({se->host, se->port, se->runid});
    s.masters.push_back(std::move(sm));
  }
  return s;
}

// ---------------------------------------------------------------------------------------
// instances

SentinelNode::Instance* SentinelNode::createInstance(const std::string& name, int flags, const std::string& host,
                                                     int port, int quorum, Instance* master) {
  if (port < 0 || port > 65535) return nullptr;
  std::string key = (flags & kSlave) ? host + ":" + std::to_string(port) : name;
  auto& table = (flags & kMaster) ? masters_ : (flags & kSlave) ? master->slaves : master->sentinels;
  if (table.count(key)) return nullptr;
  const std::int64_t now = mstime();
  auto ri = std::make_unique<Instance>();
  ri->uid = nextUid_++;
  ri->flags = flags;
  ri->name = key;
  ri->host = host;
  ri->port = port;
  ri->link.actPingTime = now;  // a timeout is detected even if we never connect
  ri->link.lastAvailTime = now;
  ri->link.lastPongTime = now;
  ri->lastPubTime = now;
  ri->lastHelloTime = now;
  ri->lastMasterDownReplyTime = now;
  ri->downAfter = master ? master->downAfter : 30000;
  ri->quorum = quorum;
  ri->master = master;
  ri->roleReported = flags & (kMaster | kSlave);
  ri->roleReportedTime = now;
  ri->slaveConfChangeTime = now;
  Instance* raw = ri.get();
  byUid_.set(raw->uid, raw);
  unplanAll();  // its master's plan reads its sentinels
  viewChanged();
  table.emplace(key, std::move(ri));
  return raw;
}

void SentinelNode::releaseChildren(Instance& m) {
  for (auto* d : {&m.slaves, &m.sentinels}) {
    for (auto& [k, ri] : *d) {
      closeCc(*ri);
      closePc(*ri);
      byUid_.erase(ri->uid);
    }
  }
}

SentinelNode::Instance* SentinelNode::masterByName(const std::string& name) const {
  // A sentinel of the operator's monitors one master: one compare for equality (the
  // map's search compares twice, by order), on every SENTINEL query the operator makes.
  if (masters_.size() == 1) {
    const auto& [n, m] = *masters_.begin();
    return n == name ? m.get() : nullptr;
  }
  auto it = masters_.find(name);
  return it == masters_.end() ? nullptr : it->second.get();
}

SentinelNode::Instance* SentinelNode::masterByAddr(const std::string& host, int port) const {
  for (const auto& [n, m] : masters_)
    if (m->host == host && m->port == port) return m.get();
  return nullptr;
}

void SentinelNode::resetMaster(Instance& m, bool keepSentinels, bool ev) {
  const std::int64_t now = mstime();
  unplanAll();
  viewChanged();
  for (auto& [k, ri] : m.slaves) {
    closeCc(*ri);
    closePc(*ri);
    byUid_.erase(ri->uid);
  }
  m.slaves.clear();
  if (!keepSentinels) {
    for (auto& [k, ri] : m.sentinels) {
      closeCc(*ri);
      byUid_.erase(ri->uid);
    }
    m.sentinels.clear();
  }
  closeCc(m);
  closePc(m);
  m.flags &= kMaster;
  m.leader.clear();
  m.failoverState = kNone;
  m.failoverStateChangeTime = 0;
  m.failoverStartTime = 0;  // a failover may start again right away
  m.promotedSlave = nullptr;
  m.runid.clear();
  m.slaveMasterHost.clear();
  m.link.actPingTime = now;
  m.link.lastPingTime = 0;
  m.link.lastAvailTime = now;
  m.link.lastPongTime = now;
  m.roleReportedTime = now;
  m.roleReported = kMaster;
  if (ev) event("+reset-master", &m);
}

int SentinelNode::resetByPattern(const std::string& pattern) {
  int n = 0;
  for (auto& [name, m] : masters_) {
    if (globMatch(pattern, name, false)) {
      resetMaster(*m, false, true);
      ++n;
    }
  }
  return n;
}

void SentinelNode::resetMasterAndChangeAddress(Instance& m, const std::string& host, int port) {
  std::vector<std::pair<std::string, int>> slaves;
  for (const auto& [k, s] : m.slaves)
    if (!(s->host == host && s->port == port)) slaves.emplace_back(s->host, s->port);
  if (!(m.host == host && m.port == port)) slaves.emplace_back(m.host, m.port);
  resetMaster(m, true, false);
  m.host = host;
  m.port = port;
  viewChanged();
  m.oDownSince = 0;
  m.sDownSince = 0;
  for (const auto& [h, p] : slaves) {
    Instance* s = createInstance("", kSlave, h, p, m.quorum, &m);
    if (s) event("+slave", s);
  }
}

const SentinelNode::Instance& SentinelNode::currentMasterAt(const Instance& m) {
  if ((m.flags & kFailoverInProgress) && m.promotedSlave && m.failoverState >= kReconfSlaves) return *m.promotedSlave;
  return m;
}

std::pair<std::string, int> SentinelNode::currentMasterAddress(const Instance& m) const {
  const Instance& at = currentMasterAt(m);
  return {at.host, at.port};
}

std::string SentinelNode::describe(const Instance& ri) const {
  const char* type = (ri.flags & kMaster) ? "master" : (ri.flags & kSlave) ? "slave" : "sentinel";
  std::string s = fmt::format("{} {} {} {}", type, ri.name, ri.host, ri.port);
  if (ri.master) s += fmt::format(" @ {} {} {}", ri.master->name, ri.master->host, ri.master->port);
  return s;
}

void SentinelNode::event(const std::string& type, const Instance* ri, const std::string& extra) {
  ++activity_;
  viewChanged();  // see viewVersion
  std::string msg = ri ? describe(*ri) : std::string();
  if (!extra.empty()) msg += (msg.empty() ? "" : " ") + extra;
  record(type + " " + msg);
  if (listener_) listener_(*this, type, msg);
  // Sentinel publishes every event on a channel named after it.
  auto it = channels_.find(type);
  if (it != channels_.end())
    for (ConnId c : it->second) fabric().push(c, bulkArray({"message", type, msg}));
}

// ---------------------------------------------------------------------------------------
// inspection

std::optional<RedisEndpoint> SentinelNode::masterAddress(const std::string& name) const {
  if (!up()) return std::nullopt;
  Instance* m = masterByName(name);
  if (!m) return std::nullopt;
  auto [h, p] = currentMasterAddress(*m);
  return RedisEndpoint{h, p};
}

bool SentinelNode::failoverInProgress(const std::string& name) const {
  Instance* m = masterByName(name);
  return m && (m->flags & kFailoverInProgress);
}

std::vector<RedisEndpoint> SentinelNode::knownReplicas(const std::string& name) const {
  std::vector<RedisEndpoint> out;
  if (Instance* m = masterByName(name))
    for (const auto& [k, s] : m->slaves) out.push_back({s->host, s->port});
  return out;
}

std::size_t SentinelNode::knownReplicaCount(const std::string& name) const {
  Instance* m = masterByName(name);
  return m ? m->slaves.size() : 0;
}

SentinelNode::MasterProbe SentinelNode::masterProbe(const std::string& name) const {
  MasterProbe out;
  const Instance* m = masterByName(name);
  if (!m) return out;
  out.failover = (m->flags & kFailoverInProgress) != 0;
  if (!up()) return out;
  const Instance& at = currentMasterAt(*m);
  out.host = &at.host;
  out.port = at.port;
  out.replicas = m->slaves.size();
  return out;
}

std::size_t SentinelNode::knownSentinels(const std::string& name) const {
  Instance* m = masterByName(name);
  return m ? m->sentinels.size() : 0;
}

bool SentinelNode::masterSdown(const std::string& name) const {
  Instance* m = masterByName(name);
  return m && (m->flags & kSDown);
}

bool SentinelNode::masterOdown(const std::string& name) const {
  Instance* m = masterByName(name);
  return m && (m->flags & kODown);
}

}  // namespace kun::redissim
