// The preStop hook of redis pods, modelling what the generated shutdown.sh
// (core/rediscluster/probe_scripts.h) does, read from the pod's mounted ConfigMap:
//   if Sentinel (through the sentinel Service) names this pod's IP as the master:
//     SENTINEL failover <master>; then up to N times: sleep 1 while it still names us;
//   then, when the script ends with one, SAVE on the local server.
// Each redis-cli call is one command from the pod's IP through the network model, to a
// Ready endpoint of the Service picked at random per connection, as kube-proxy does. The
// kubelet bounds the whole by the grace period.
//
// Simplified: the script is not interpreted; what it does is recognised from its text
// (the sentinel host and port, the master name, the loop bound, the SAVE line). A script
// without "SENTINEL failover" only SAVEs (if it has the line) and returns at once.
#include <fmt/format.h>

#include "core/kube/resource.h"
#include "core/kube/selector.h"
#include "core/rediscluster/layout.h"
#include "fakeapi/world/pod_bridge.h"
#include "fakeapi/world/pod_files.h"
#include "fakeapi/world/shutdown_text.h"

namespace kun::sim {

namespace layout = rediscluster::layout;

struct PodBridge::PreStop {
  std::string ns, pod, podIp, password;
  RedisEndpoint local;
  bool failover = false, save = false;
  std::string sentinelHost, masterName;
  int sentinelPort = layout::kSentinelPort;
  int rounds = 10;
  std::function<void()> done;
};

// What a shutdown script does, recognised once per distinct text: every pod of a cluster
// mounts the same one, and compiling the patterns per pod stop was 9 % of a property run.
const PodBridge::ShutdownScript& PodBridge::shutdownScript(const std::string& text) {
  if (auto it = scripts_.find(text); it != scripts_.end()) return it->second;
  ShutdownScript s;
  s.sentinelPort = layout::kSentinelPort;
  s.failover = text.find("SENTINEL failover") != std::string::npos;
  s.save = shutdown_text::saves(text);
  s.sentinelHost = shutdown_text::sentinelHost(text);
  if (auto p = shutdown_text::sentinelPort(text); !p.empty()) s.sentinelPort = std::stoi(p);
  s.masterName = shutdown_text::masterName(text);
  if (s.masterName.empty()) s.masterName = std::string(layout::kMasterName);
  if (auto n = shutdown_text::loopBound(text); !n.empty()) s.rounds = std::stoi(n);
  return scripts_.emplace(text, std::move(s)).first->second;
}

std::optional<RedisEndpoint> PodBridge::serviceEndpoint(const std::string& ns, const std::string& host, int port) {
  // "svc", "svc.ns", "svc.ns.svc.cluster.local"
  const auto dot = host.find('.');
  const std::string svcName = host.substr(0, dot);
  std::string svcNs = ns;
  if (dot != std::string::npos) svcNs = host.substr(dot + 1, host.find('.', dot + 1) - dot - 1);
  auto svc = cluster_.env().client.getShared(res::services, svcNs, svcName);
  if (!svc) return std::nullopt;
  const Object& sel = objectAt(**svc, {"spec", "selector"});
  if (!sel.is_object() || sel.empty()) return std::nullopt;
  std::string selector;
  for (const auto& [k, v] : sel.items()) {
    if (!selector.empty()) selector += ',';
    selector += k + "=" + v.get<std::string>();
  }
  ListOptions lo;
  lo.labelSelector = selector;
  auto pods = cluster_.env().client.listShared(res::pods, svcNs, lo);
  if (!pods) return std::nullopt;
  std::vector<std::string> ips;
  for (const auto& shared : *pods) {
    const Object& p = *shared;
    if (meta::isDeleting(p)) continue;
    const Object& conds = objectAt(p, {"status", "conditions"});
    bool isReady = false;
    if (conds.is_array())
      for (const auto& c : conds)
        if (c.value("type", "") == "Ready" && c.value("status", "") == "True") isReady = true;
    const Object& ip = objectAt(p, {"status", "podIP"});
    if (isReady && ip.is_string() && !ip.get<std::string>().empty()) ips.push_back(ip.get<std::string>());
  }
  if (ips.empty()) return std::nullopt;
  std::sort(ips.begin(), ips.end());
  return RedisEndpoint{ips[rng_.below(ips.size())], port};
}

void PodBridge::preStop(const Object& pod, Duration grace, std::function<void()> done) {
  (void)grace;  // the kubelet enforces it
  const std::string ns = meta::namespaceOf(pod), name = meta::name(pod);
  auto it = running_.find(fmt::format("{}/{}/{}", ns, name, layout::kRedisContainer));
  const Object* c = findContainer(pod, layout::kRedisContainer);
  if (it == running_.end() || it->second.sentinel || !c) return done();
  const Object& cmd = objectAt(*c, {"lifecycle", "preStop", "exec", "command"});
  if (!cmd.is_array() || cmd.size() != 2 || !cmd[1].is_string()) return done();
  auto script = readFile(pod, *c, cmd[1].get<std::string>());
  if (!script) {
    note(fmt::format("preStop {}/{}: {}", ns, name, script.error().message));
    return done();
  }
  const std::string& text = script.value();
  auto ps = std::make_shared<PreStop>();
  ps->ns = ns;
  ps->pod = name;
  ps->podIp = it->second.endpoint.host;
  ps->local = it->second.endpoint;
  ps->password = mountedPassword(pod, *c);
  const ShutdownScript& facts = shutdownScript(text);
  ps->failover = facts.failover;
  ps->save = facts.save;
  ps->sentinelHost = facts.sentinelHost;
  ps->sentinelPort = facts.sentinelPort;
  ps->masterName = facts.masterName;
  ps->rounds = facts.rounds >= 0
                   ? facts.rounds
                   : static_cast<int>(std::chrono::duration_cast<seconds>(opts_.preStopFailoverWait).count());
  ps->done = std::move(done);
  note(fmt::format("preStop {}/{} failover={} save={}", ns, name, ps->failover, ps->save));

  auto master = [this, ps] { return askSentinelMaster(*ps); };
  if (!ps->failover || ps->sentinelHost.empty() || master() != ps->podIp) return preStopFinish(*ps);
  if (auto ep = serviceEndpoint(ps->ns, ps->sentinelHost, ps->sentinelPort)) {
    (void)redis_.admin(ps->podIp).command(*ep, {"SENTINEL", "failover", ps->masterName});
  }
  preStopLoop(ps, 0);
}

std::string PodBridge::askSentinelMaster(const PreStop& ps) {
  auto ep = serviceEndpoint(ps.ns, ps.sentinelHost, ps.sentinelPort);
  if (!ep) return {};
  auto r = redis_.admin(ps.podIp).command(*ep, {"SENTINEL", "get-master-addr-by-name", ps.masterName});
  if (!r || r->type != RedisReply::Type::Array || r->elements.empty()) return {};
  return r->elements[0].str;
}

void PodBridge::preStopLoop(std::shared_ptr<PreStop> ps, int i) {
  if (i >= ps->rounds || askSentinelMaster(*ps) != ps->podIp) return preStopFinish(*ps);
  std::weak_ptr<bool> alive = alive_;
  cluster_.loop().runAfter(seconds(1), [this, alive, ps, i] {
    if (alive.lock()) preStopLoop(ps, i + 1);
  });
}

void PodBridge::preStopFinish(const PreStop& ps) {
  if (ps.save) {
    if (auto* n = redis_.redis(ps.local); n && n->state() == redissim::SimProcess::State::Running)
      (void)n->executeAdmin({"SAVE"}, ps.password);
  }
  note(fmt::format("preStop {}/{} done", ps.ns, ps.pod));
  ps.done();
}

}  // namespace kun::sim
