#include "fakeapi/redis/failover_run.h"

#include <functional>
#include <map>
#include <set>

#include "chaos/network/network_model.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sim_client.h"
#include "fakeapi/redis/topology.h"

namespace kun::redissim {

namespace {

constexpr std::int64_t kNoOdownGraceMs = 5000;
constexpr std::int64_t kPollMs = 10;

struct Acked {
  std::int64_t seq;
  RedisEndpoint node;
  std::int64_t atMs;
};

// Writes `SET <prefix><n> <n>` at a steady pace; asks where before every write.
class AckWriter {
 public:
  using Found = std::function<void(std::optional<RedisEndpoint>)>;
  using Target = std::function<void(Found)>;

  AckWriter(EventLoop& loop, std::string prefix, Target target, Duration interval)
      : loop_(loop), prefix_(std::move(prefix)), target_(std::move(target)), interval_(interval) {}
  ~AckWriter() { stop(); }

  void start(SimClient* client) {
    client_ = client;
    next_ = loop_.now();
    tick();
  }
  void stop() {
    stopped_ = true;
    if (timer_) loop_.cancel(timer_);
    timer_ = 0;
  }
  const std::vector<Acked>& acked() const { return acked_; }
  std::string key(std::int64_t seq) const { return prefix_ + std::to_string(seq); }

 private:
  void tick() {
    timer_ = 0;
    if (stopped_) return;
    target_([this](std::optional<RedisEndpoint> ep) {
      if (stopped_) return;
      if (!ep) {
        scheduleNext();
        return;
      }
      const std::int64_t seq = ++seq_;
      const std::string s = std::to_string(seq);
      const RedisEndpoint to = *ep;
      client_->command(to, {"SET", prefix_ + s, s}, [this, seq, to](Result<RedisReply> r) {
        if (stopped_) return;
        if (r && r->isOk()) acked_.push_back({seq, to, sinceStartMillis(loop_.now())});
        scheduleNext();
      });
    });
  }
  void scheduleNext() {
    next_ += interval_;
    if (next_ < loop_.now()) next_ = loop_.now();  // a slow write does not cause a burst
    timer_ = loop_.runAt(next_, [this] { tick(); });
  }

  EventLoop& loop_;
  std::string prefix_;
  Target target_;
  Duration interval_;
  SimClient* client_ = nullptr;
  TimePoint next_{};
  TimerId timer_ = 0;
  bool stopped_ = false;
  std::int64_t seq_ = 0;
  std::vector<Acked> acked_;
};

// Asks sentinels[i..] in order for the master; the first answer wins.
void askSentinels(SimClient& client, const std::vector<RedisEndpoint>& sentinels, std::size_t i,
                  const std::string& name, AckWriter::Found found) {
  if (i >= sentinels.size()) {
    found(std::nullopt);
    return;
  }
  client.command(sentinels[i], {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", name},
                 [&client, &sentinels, i, name, found](Result<RedisReply> r) {
                   if (r && r->type == RedisReply::Type::Array && r->elements.size() == 2) {
                     auto port = parseInt(r->elements[1].str);
                     if (port) {
                       found(RedisEndpoint{r->elements[0].str, static_cast<int>(*port)});
                       return;
                     }
                   }
                   askSentinels(client, sentinels, i + 1, name, found);
                 });
}

// SENTINEL MASTER shows every replica and the other sentinels, and the master up (what the
// local harness waits for before it starts the clients).
bool discovered(SimRedisAdmin& probe, const RedisEndpoint& sentinel, const TopologyOptions& to, int sentinels) {
  auto r = probe.command(sentinel, {"SENTINEL", "MASTER", to.masterName});
  if (!r || r->type != RedisReply::Type::Array) return false;
  std::map<std::string, std::string> f;
  for (std::size_t i = 0; i + 1 < r->elements.size(); i += 2) f[r->elements[i].str] = r->elements[i + 1].str;
  const std::string& flags = f["flags"];
  return f["num-slaves"] == std::to_string(to.replicas) && f["num-other-sentinels"] == std::to_string(sentinels - 1) &&
         flags.find("master") != std::string::npos && flags.find("s_down") == std::string::npos &&
         flags.find("o_down") == std::string::npos;
}

struct SentinelEvent {
  std::int64_t ms;
  int sentinel;  // index
  std::string type;
  std::string msg;
};

// "+switch-master <name> <old ip> <old port> <new ip> <new port>" -> the new address.
std::optional<RedisEndpoint> switchTarget(const std::string& msg) {
  std::vector<std::string> tok;
  std::size_t pos = 0;
  while (pos <= msg.size()) {
    auto e = msg.find(' ', pos);
    if (e == std::string::npos) e = msg.size();
    tok.push_back(msg.substr(pos, e - pos));
    pos = e + 1;
  }
  if (tok.size() != 5) return std::nullopt;
  auto p = parseInt(tok[4]);
  if (!p) return std::nullopt;
  return RedisEndpoint{tok[3], static_cast<int>(*p)};
}

}  // namespace

FailoverRunResult runFailoverTiming(const FailoverRunSpec& spec) {
  SimLoop loop;
  Trace trace;
  Random rng(spec.seed);
  NetworkModel net(loop, rng.fork("net"), &trace);
  RedisSim sim(loop, net, rng.fork("redis"), &trace);
  TopologyOptions to;
  to.downAfterMs = spec.downAfterMs;
  to.failoverTimeoutMs = spec.failoverTimeoutMs;
  to.parallelSyncs = spec.parallelSyncs;
  to.redisConfig = {{"save", ""}, {"appendonly", "no"}};  // as the local runs: no persistence
  to.startSentinels = false;
  Topology topo(sim, to);
  const RedisEndpoint oldMaster = Topology::redisEp(0);
  std::vector<RedisEndpoint> sentinels;
  for (int i = 0; i < topo.sentinelCount(); ++i) sentinels.push_back(Topology::sentinelEp(i));

  std::vector<SentinelEvent> events;
  for (int i = 0; i < topo.sentinelCount(); ++i) {
    topo.sentinel(i).setEventListener([&events, &loop, i](const SentinelNode&, const std::string& type,
                                                           const std::string& msg) {
      events.push_back({sinceStartMillis(loop.now()), i, type, msg});
    });
  }

  FailoverRunResult result;
  SimRedisAdmin& probe = sim.admin("10.0.9.3");
  // 1. as the local harness: replicas linked, then the sentinels launched one by one, then
  //    polled (in order, every discoveryPollMs) until each has discovered everything.
  auto pollUntil = [&](const std::function<bool()>& done) {
    const TimePoint deadline = loop.now() + seconds(60);
    while (!done() && loop.now() < deadline) loop.runFor(milliseconds(spec.discoveryPollMs));
  };
  pollUntil([&] {
    for (int i = 1; i < topo.redisCount(); ++i)
      if (!topo.redis(i).masterLinkUp()) return false;
    return true;
  });
  for (int i = 0; i < topo.sentinelCount(); ++i) {
    topo.sentinel(i).start(milliseconds(spec.sentinelLaunchMs));
    loop.runFor(milliseconds(spec.sentinelLaunchMs));
  }
  for (int i = 0; i < topo.sentinelCount(); ++i)
    pollUntil([&] { return discovered(probe, sentinels[static_cast<std::size_t>(i)], to, topo.sentinelCount()); });

  // 2. the clients
  const Duration timeout = milliseconds(spec.clientTimeoutMs);
  SimClient followerClient(sim.fabric(), "10.0.9.1", timeout, timeout);
  SimClient pinnedClient(sim.fabric(), "10.0.9.2", timeout, timeout);
  const std::string name = to.masterName;
  AckWriter follower(
      loop, "s:",
      [&](AckWriter::Found found) { askSentinels(followerClient, sentinels, 0, name, std::move(found)); },
      milliseconds(spec.writeIntervalMs));
  AckWriter pinned(
      loop, "p:", [&](AckWriter::Found found) { found(oldMaster); }, milliseconds(spec.writeIntervalMs));
  follower.start(&followerClient);
  pinned.start(&pinnedClient);
  loop.runFor(milliseconds(spec.warmUpMs));

  // 3. the fault
  const std::int64_t t0 = sinceStartMillis(loop.now());
  RedisNode& old = topo.redis(0);
  if (spec.hang) old.hang();
  else old.crash();
  const std::int64_t faultEndMs = spec.hang ? spec.hangMs : 0;
  bool back = false;
  std::optional<RedisEndpoint> newMaster;
  auto isReplicaOf = [&](const RedisEndpoint& node, const RedisEndpoint& master) {
    auto r = probe.command(node, {"INFO", "replication"});
    if (!r || r->type != RedisReply::Type::String) return false;
    const std::string& info = r->str;
    return info.find("\r\nrole:slave\r\n") != std::string::npos &&
           info.find("\r\nmaster_host:" + master.host + "\r\n") != std::string::npos &&
           info.find("\r\nmaster_port:" + std::to_string(master.port) + "\r\n") != std::string::npos;
  };

  // 4. watch, every 10 ms as the local measurement polls
  while (true) {
    loop.runFor(milliseconds(kPollMs));
    const std::int64_t el = sinceStartMillis(loop.now()) - t0;
    std::set<int> switched;
    for (const auto& e : events) {
      if (e.ms < t0) continue;
      if (e.type == "+odown" && !result.odownMs) result.odownMs = e.ms - t0;
      if (e.type == "+switch-master") {
        if (!result.firstSwitchMs) result.firstSwitchMs = e.ms - t0;
        result.lastSwitchMs = e.ms - t0;
        newMaster = switchTarget(e.msg);
        switched.insert(e.sentinel);
      }
    }
    if (spec.hang && !back && el >= spec.hangMs) {
      old.resume();
      back = true;
    }
    if (!spec.hang && !back && result.firstSwitchMs) {
      old.wipeDisk();  // a new pod on emptyDir
      old.start(milliseconds(spec.restartBootMs));
      back = true;
    }
    if (back && newMaster && *newMaster != oldMaster && !result.oldMasterReplicaMs && isReplicaOf(oldMaster, *newMaster))
      result.oldMasterReplicaMs = el;
    const bool settled = result.oldMasterReplicaMs && static_cast<int>(switched.size()) == topo.sentinelCount();
    const bool noFailover = !result.odownMs && el > faultEndMs + spec.downAfterMs + kNoOdownGraceMs;
    if (settled || noFailover || el >= spec.observeMs) {
      result.endMs = el;
      break;
    }
  }
  follower.stop();
  pinned.stop();

  // 5. what was lost
  for (const auto& w : follower.acked()) {
    if (w.atMs >= t0 && w.node != oldMaster) {
      result.newMasterWritableMs = w.atMs - t0;
      break;
    }
  }
  std::map<RedisEndpoint, int> votes;
  std::optional<RedisEndpoint> first;
  for (const auto& s : sentinels) {
    auto r = probe.command(s, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", name});
    if (!r || r->type != RedisReply::Type::Array || r->elements.size() != 2) continue;
    auto p = parseInt(r->elements[1].str);
    if (!p) continue;
    RedisEndpoint ep{r->elements[0].str, static_cast<int>(*p)};
    if (!first) first = ep;
    ++votes[ep];
  }
  std::optional<RedisEndpoint> finalMaster = first;
  int best = first ? votes[*first] : 0;
  for (const auto& [ep, n] : votes)
    if (n > best) {
      best = n;
      finalMaster = ep;
    }
  auto countMissing = [&](const AckWriter& w) {
    std::int64_t missing = 0;
    if (!finalMaster) return static_cast<std::int64_t>(w.acked().size());
    for (const auto& a : w.acked()) {
      auto r = probe.command(*finalMaster, {"GET", w.key(a.seq)});
      if (!r || r->type != RedisReply::Type::String || r->str != std::to_string(a.seq)) ++missing;
    }
    return missing;
  };
  result.lostAckedSentinelClient = countMissing(follower);
  result.lostAckedPinnedClient = countMissing(pinned);
  for (const auto& a : follower.acked()) result.ackedSentinelClient += a.atMs >= t0 ? 1 : 0;
  for (const auto& a : pinned.acked()) result.ackedPinnedClient += a.atMs >= t0 ? 1 : 0;
  for (const auto& e : events)
    if (e.ms >= t0) result.events.push_back({e.ms - t0, e.sentinel, e.type, e.msg});
  result.traceHash = trace.hashHex();
  return result;
}

}  // namespace kun::redissim
