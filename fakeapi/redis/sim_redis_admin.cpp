#include "fakeapi/redis/sim_redis_admin.h"

#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

namespace {

// A command or subcommand name in lower case, for comparing with the lower-case names
// below: one pass over the word, then plain compares (iequals lowered both sides of every
// compare, and each admin command was compared with several names).
class Lowered {
 public:
  // A word longer than every name is kept empty: it is none of them either.
  explicit Lowered(std::string_view word) : len_(word.size() <= sizeof buf_ ? word.size() : 0) {
    for (std::size_t i = 0; i < len_; ++i) {
      const char c = word[i];
      buf_[i] = c >= 'A' && c <= 'Z' ? static_cast<char>(c + ('a' - 'A')) : c;
    }
  }
  bool is(std::string_view name) const { return std::string_view(buf_, len_) == name; }
  bool isAnyOf(std::initializer_list<std::string_view> names) const {
    for (std::string_view n : names)
      if (is(n)) return true;
    return false;
  }

 private:
  char buf_[24];  // longer than the longest name ("get-master-addr-by-name")
  std::size_t len_;
};

}  // namespace

bool isReadOnlyCommand(const Argv& argv) {
  if (argv.empty()) return true;
  const Lowered c(argv[0]);
  if (c.isAnyOf({"info", "ping", "role", "get", "dbsize", "exists", "echo", "auth", "hello"})) return true;
  const Lowered sub(argv.size() > 1 ? std::string_view(argv[1]) : std::string_view());
  if (c.is("config")) return sub.is("get");
  if (c.is("client")) return sub.isAnyOf({"list", "getname", "id", "info"});
  if (c.is("sentinel")) {
    if (sub.isAnyOf({"masters", "master", "replicas", "slaves", "sentinels", "get-master-addr-by-name", "ckquorum",
                     "myid", "info-cache", "pending-scripts"}))
      return true;
    if (sub.is("config")) return argv.size() > 2 && Lowered(argv[2]).is("get");
    if (sub.is("debug")) return argv.size() == 2;
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

NetNodeId SimRedisAdmin::nodeOf(const std::string& host) {
  auto it = nodes_.find(host);
  if (it == nodes_.end()) it = nodes_.emplace(host, fabric_.net().intern(host)).first;
  return it->second;
}

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
  const NetNodeId server = nodeOf(to.host);
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
