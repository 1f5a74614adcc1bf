// spec.config on every node, without restarts: CONFIG GET what the spec names (and
// masterauth, which a node restarted mid-change or set by hand may lack), then CONFIG SET
// only the parameters whose value differs. Values are compared as Redis normalizes them
// (memory units in bytes, yes/no and enum values in lower case, whitespace collapsed), so
// "100mb" in the spec equals Redis' "104857600" and a healthy cluster gets no SET.
// A parameter Redis refuses at runtime (immutable, unknown) is reported, not retried as
// an error: it applies from redis.conf when the pod next restarts.
#include <cctype>
#include <charconv>
#include <map>
#include <sstream>

#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

namespace {

std::string lower(std::string s) {
  for (char& c : s) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return s;
}

// "1gb" -> "1073741824", "10k" -> "10000"; anything else unchanged.
std::string bytes(const std::string& tok) {
  std::size_t digits = 0;
  while (digits < tok.size() && std::isdigit(static_cast<unsigned char>(tok[digits]))) ++digits;
  if (digits == 0 || digits == tok.size()) return tok;
  static const std::map<std::string, std::int64_t> kUnits = {
      {"k", 1000}, {"kb", 1024}, {"m", 1000 * 1000}, {"mb", 1024 * 1024},
      {"g", 1000LL * 1000 * 1000}, {"gb", 1024LL * 1024 * 1024}};
  auto unit = kUnits.find(tok.substr(digits));
  if (unit == kUnits.end()) return tok;
  std::int64_t n = 0;
  auto [p, ec] = std::from_chars(tok.data(), tok.data() + digits, n);
  if (ec != std::errc()) return tok;
  return std::to_string(n * unit->second);
}

std::string normalized(const std::string& value) {
  std::istringstream in(lower(value));
  std::string tok, out;
  while (in >> tok) out += (out.empty() ? "" : " ") + bytes(tok);
  return out;
}

// Redis 7 calls slave-* replica-*; CONFIG GET may answer under either name.
std::string otherSpelling(const std::string& key) {
  if (key.rfind("slave", 0) == 0) return "replica" + key.substr(5);
  if (key.rfind("replica", 0) == 0) return "slave" + key.substr(7);
  return {};
}

Result<std::map<std::string, std::string>> configGet(HealRun& run, const RedisNodeView& n,
                                                     const std::vector<std::string>& keys) {
  std::vector<std::string> argv{"CONFIG", "GET"};
  argv.insert(argv.end(), keys.begin(), keys.end());
  auto reply = run.readRedis(n, argv);
  if (!reply.ok()) return reply.error();
  std::map<std::string, std::string> out;
  const auto& e = reply->elements;
  for (std::size_t i = 0; i + 1 < e.size(); i += 2) out[lower(e[i].str)] = e[i + 1].str;
  return out;
}

void healNode(HealRun& run, const RedisNodeView& n, const std::map<std::string, std::string>& want) {
  std::vector<std::string> keys;
  for (const auto& [k, v] : want) keys.push_back(k);
  auto have = configGet(run, n, keys);
  if (!have.ok()) {
    run.action(n.pod.name + ": CONFIG GET failed: " + have.error().message);
    return;
  }
  for (const auto& [key, value] : want) {
    auto it = have->find(key);
    if (it == have->end()) it = have->find(otherSpelling(key));
    if (it == have->end()) continue;  // this Redis has no such parameter: nothing to set
    if (normalized(it->second) == normalized(value)) continue;
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
}

}  // namespace

Next healConfig(HealRun& run) {
  std::map<std::string, std::string> want;
  for (const auto& [k, v] : run.rc().spec.config) want[lower(k)] = v;
  want["masterauth"] = run.password();
  for (const auto& n : run.view().redis) {
    if (!n.reachable || n.pod.terminating) continue;
    if (!staysAfterScale(run.rc(), n)) {
      // Going with a scale-down: heal_scale keeps Sentinel from promoting it.
      auto going = want;
      going.erase("slave-priority");
      going.erase("replica-priority");
      healNode(run, n, going);
    } else {
      healNode(run, n, want);
    }
    if (run.failed()) return Next::Stop;
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
