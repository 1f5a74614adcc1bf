#include "fakeapi/redis/sim_redis_admin.h"

#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

namespace {

// One of the names, ignoring case. Called on every admin command: no lower-cased copies,
// and only a name of the word's length is compared.
bool isAnyOf(std::string_view word, std::initializer_list<std::string_view> names) {
  for (std::string_view n : names)
    if (n.size() == word.size() && iequals(word, n)) return true;
  return false;
}

}  // namespace

bool isReadOnlyCommand(const Argv& argv) {
  if (argv.empty()) return true;
  const std::string_view c = argv[0];
  if (isAnyOf(c, {"info", "ping", "role", "get", "dbsize", "exists", "echo", "auth", "hello"})) return true;
  const std::string_view sub = argv.size() > 1 ? std::string_view(argv[1]) : std::string_view();
  if (isAnyOf(c, {"config"})) return isAnyOf(sub, {"get"});
  if (isAnyOf(c, {"client"})) return isAnyOf(sub, {"list", "getname", "id", "info"});
  if (isAnyOf(c, {"sentinel"})) {
    if (isAnyOf(sub, {"masters", "master", "replicas", "slaves", "sentinels", "get-master-addr-by-name", "ckquorum",
                      "myid", "info-cache", "pending-scripts"}))
      return true;
    if (iequals(sub, "config")) return argv.size() > 2 && iequals(argv[2], "get");
    if (iequals(sub, "debug")) return argv.size() == 2;
    return false;
  }
  return false;
}

std::string redactedCommand(const Argv& argv) {
  std::string out;
  bool hideNext = false;
  for (std::size_t i = 0; i < argv.size(); ++i) {
    std::string a = argv[i];
    if (hideNext) {
      a = "******";
      hideNext = false;
    }
    const std::string l = lower(argv[i]);
    if (i == 0 && l == "auth") hideNext = true;
    if (l == "requirepass" || l == "masterauth" || l == "auth-pass" || l == "sentinel-pass") hideNext = true;
    if (i > 0 && lower(argv[0]) == "auth") a = "******";
    out += (out.empty() ? "" : " ") + a;
  }
  return out;
}

SimRedisAdmin::SimRedisAdmin(Fabric& fabric, std::string clientIp, Trace* trace)
    : fabric_(fabric), clientIp_(std::move(clientIp)), clientId_(fabric.net().intern(clientIp_)), trace_(trace) {}

// One command from the operator's address, as command() describes; run(p) executes it on
// the process p it reached and gives the answer.
template <class Run>
auto SimRedisAdmin::send(const RedisEndpoint& to, const Argv& argv, std::string_view password, Run run)
    -> Result<decltype(run(std::declval<SimProcess*>()))> {
  ++calls_;
  const bool writes = !isReadOnlyCommand(argv);
  if (writes) ++writes_;
  if (trace_ && writes) trace_->record(fabric_.loop().now(), "admin " + clientIp_, to.toString() + " " + redactedCommand(argv));
  NetworkModel& net = fabric_.net();
  const NetNodeId server = net.intern(to.host);
  if (!net.probe(clientId_, server))
    return makeError(Reason::Timeout, "connect to " + to.toString() + ": timed out");
  SimProcess* p = fabric_.listener(to);
  if (p == nullptr || !p->up())
    return makeError(Reason::Unavailable, "connect to " + to.toString() + ": Connection refused");
  if (p->state() == SimProcess::State::Hung) {
    p->deliver([p, argv, pw = std::string(password)] { (void)p->executeAdmin(argv, pw); });
    return makeError(Reason::Timeout, "read from " + to.toString() + ": timed out");
  }
  auto answer = run(p);
  if (!net.probe(server, clientId_))
    return makeError(Reason::Timeout, "read from " + to.toString() + ": timed out");
  return answer;
}

Result<RedisReply> SimRedisAdmin::command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                          std::string_view password) {
  return send(to, argv, password, [&](SimProcess* p) { return p->executeAdmin(argv, std::string(password)); });
}

// The instances go straight from the sentinel to the sink when it answers with instances;
// everything else (the checks, the trace, the network) is as for command().
Result<std::optional<RedisReply>> SimRedisAdmin::sentinelInstances(const RedisEndpoint& to,
                                                                   const std::vector<std::string>& argv,
                                                                   SentinelFieldSink& sink) {
  return send(to, argv, {}, [&](SimProcess* p) -> std::optional<RedisReply> {
    if (p->adminInstances(argv, sink)) return std::nullopt;
    return p->executeAdmin(argv, std::string());
  });
}

// The fields go straight from the node to `out` when it can give them; everything else is
// as for command().
Result<std::optional<RedisReply>> SimRedisAdmin::replicationInfo(const RedisEndpoint& to, std::string_view password,
                                                                 ReplicationInfo& out) {
  static const Argv kInfoReplication{"INFO", "replication"};
  return send(to, kInfoReplication, password,
              [&](SimProcess* p) { return p->adminReplicationInfo(kInfoReplication, std::string(password), out); });
}

}  // namespace kun::redissim
