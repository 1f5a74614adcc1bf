// spec.config on every node, without restarts: CONFIG GET what the spec names (and
// masterauth, which a node restarted mid-change or set by hand may lack), then CONFIG SET
// only the parameters whose value differs. Values are compared as Redis normalizes them
// (memory units in bytes, yes/no and enum values in lower case, whitespace collapsed), so
// "100mb" in the spec equals Redis' "104857600" and a healthy cluster gets no SET.
// A parameter Redis refuses at runtime (immutable, unknown) is reported, not retried as
// an error: it applies from redis.conf when the pod next restarts. A node found right is
// not asked again for HealOptions::configRecheck (ConfigChecks), unless the pass changed
// something.
// min-replicas-to-write is also the write fence of a master a rolling restart or a
// scale-down moves away (heal_fenced_failover.h): it is held at spec.config's value (Redis'
// default 0 without one) except on the master such a step is moving, so a fence left behind
// (the image change or the scale-down reverted while the master waited) is lifted.
#include <map>
#include <optional>
#include <utility>
#include <vector>

#include "core/rediscluster/config_values.h"
#include "core/runtime/random.h"
#include "core/rediscluster/heal_fenced_failover.h"

namespace kun::rediscluster {
namespace healstep {

namespace {

using Config = std::vector<std::pair<std::string, std::string>>;  // CONFIG GET's pairs, in reply order

// CONFIG GET of every key of want (argv: wanted.configGet); the reply's strings are moved
// into the result, names in lower case.
Result<Config> configGet(HealRun& run, const RedisNodeView& n, const std::vector<std::string>& argv) {
  auto reply = run.readRedis(n, argv);
  if (!reply.ok()) return reply.error();
  Config out;
  auto& e = reply->elements;
  out.reserve(e.size() / 2);
  for (std::size_t i = 0; i + 1 < e.size(); i += 2) out.emplace_back(lowerCase(std::move(e[i].str)), std::move(e[i + 1].str));
  return out;
}

// The value CONFIG GET gave for key (the last one, if named twice); null when none. A
// scan: the reply holds the dozen keys asked for.
const std::string* valueOf(const Config& have, const std::string& key) {
  for (auto it = have.rbegin(); it != have.rend(); ++it)
    if (it->first == key) return &it->second;
  return nullptr;
}

std::uint64_t fingerprintOf(const std::map<std::string, std::string>& want) {
  std::uint64_t h = fnv1a64("");
  for (const auto& [k, v] : want) {
    h = fnv1a64(k, h);
    h = fnv1a64(std::string_view("\0", 1), h);
    h = fnv1a64(v, h);
    h = fnv1a64(std::string_view("\0", 1), h);
  }
  return h;
}

ConfigChecks::Wanted wantedFrom(std::map<std::string, std::string> want) {
  ConfigChecks::Wanted w;
  w.fingerprint = fingerprintOf(want);
  w.configGet.reserve(2 + want.size());
  w.configGet.emplace_back("CONFIG");
  w.configGet.emplace_back("GET");
  for (const auto& [k, v] : want) w.configGet.push_back(k);
  w.want = std::move(want);
  return w;
}

// wantedConfig for this pass: the memo's when its inputs are the same, else built (and
// remembered when the cluster keeps ConfigChecks; `fresh` holds it when it does not).
const ConfigChecks::Wanted& wantedNow(HealRun& run, std::optional<ConfigChecks::Wanted>& fresh) {
  const auto& config = run.rc().spec.config;
  const std::string& password = run.password();
  ConfigChecks* checks = run.ctx.configChecks;
  if (!checks) return fresh.emplace(wantedConfig(config, password));
  auto& memo = checks->wanted;
  if (!memo || memo->config != config || memo->password != password)
    memo = ConfigChecks::WantedMemo{config, password, wantedConfig(config, password)};
  return memo->wanted;
}

// Read recently enough, for the same wanted values: not asked again.
bool recentlyChecked(const HealRun& run, const RedisNodeView& n, std::uint64_t fingerprint) {
  const ConfigChecks* checks = run.ctx.configChecks;
  if (!checks || n.pod.uid.empty() || run.opt().configRecheck <= Duration::zero()) return false;
  auto it = checks->byPod.find(n.pod.uid);
  return it != checks->byPod.end() && it->second.fingerprint == fingerprint &&
         run.ctx.now - it->second.at < run.opt().configRecheck;
}

// fingerprint: fingerprintOf(want), worked out once for the nodes that share a want.
void healNode(HealRun& run, const RedisNodeView& n, const ConfigChecks::Wanted& wanted) {
  const std::uint64_t fingerprint = wanted.fingerprint;
  if (recentlyChecked(run, n, fingerprint)) return;
  const std::int32_t changesBefore = run.report.stateChangingCommands;
  auto have = configGet(run, n, wanted.configGet);
  if (!have.ok()) {
    run.action(n.pod.name + ": CONFIG GET failed: " + have.error().message);
    return;
  }
  for (const auto& [key, value] : wanted.want) {
    const std::string* current = valueOf(*have, key);
    if (!current) current = valueOf(*have, otherConfigSpelling(key));
    if (!current) continue;  // this Redis has no such parameter: nothing to set
    if (sameConfigValue(*current, value)) continue;
    const bool secret = key == "masterauth";
    run.phase(HealPhase::Updating);
    ++run.report.stateChangingCommands;
    auto reply = run.ctx.redis.command({n.pod.ip, layout::kRedisPort}, {"CONFIG", "SET", key, value}, run.passwordOf(n));
    const std::string what = n.pod.name + ": CONFIG SET " + key + " " + (secret ? "***" : value);
    if (!reply.ok()) {
      run.fail(makeError(reply.error().reason, what + ": " + reply.error().message));
      return;
    }
    if (reply->isError()) run.action(what + " refused (applies at the next restart): " + reply->str);
    else run.action(what);
  }
  if (run.ctx.configChecks && !n.pod.uid.empty() && run.report.stateChangingCommands == changesBefore)
    run.ctx.configChecks->byPod[n.pod.uid] = ConfigChecks::Entry{fingerprint, run.ctx.now};
}

}  // namespace

Next healConfig(HealRun& run) {
  std::optional<ConfigChecks::Wanted> fresh;
  const ConfigChecks::Wanted& wanted = wantedNow(run, fresh);
  for (const auto& n : run.view().redis) {
    if (!n.reachable || n.pod.terminating) continue;
    const bool fenced = stepMovesMaster(run, n);  // by the step that moves it (heal_fenced_failover.h)
    const bool going = !staysAfterScale(run.rc(), n);  // heal_scale keeps Sentinel from promoting it
    // A node boots with replica-priority 0 (renderRedisConf): it keeps it until it has the
    // data, as a replica in sync (or as the master), so Sentinel never promotes an empty one.
    const bool noData = n.onPlaceholder() || (n.isReplica() && !n.inSync());
    if (!fenced && !going && !noData) {
      healNode(run, n, wanted);
    } else {
      auto want = wanted.want;
      for (const char* key : {"min-replicas-to-write", "min-slaves-to-write"})
        if (fenced) want.erase(key);
      for (const char* key : {"replica-priority", "slave-priority"})
        if (going || noData) want.erase(key);
      healNode(run, n, wantedFrom(std::move(want)));
    }
    if (run.failed()) return Next::Stop;
  }
  return Next::Continue;
}

}  // namespace healstep

ConfigChecks::Wanted wantedConfig(const std::map<std::string, std::string>& config, const std::string& password) {
  std::map<std::string, std::string> want;
  for (const auto& [k, v] : config) want[lowerCase(k)] = v;
  want["masterauth"] = password;
  if (!want.count("min-slaves-to-write")) want.try_emplace("min-replicas-to-write", "0");
  // Redis' default, where spec.config names none: the boot config's 0 must not stay.
  if (!want.count("slave-priority")) want.try_emplace("replica-priority", "100");
  return healstep::wantedFrom(std::move(want));
}

}  // namespace kun::rediscluster
