#include "core/redis/counting_redis_admin.h"

#include <algorithm>
#include <cctype>
#include <set>

namespace kun {

namespace {

std::string upper(std::string s) {
  std::transform(s.begin(), s.end(), s.begin(), [](unsigned char c) { return static_cast<char>(std::toupper(c)); });
  return s;
}

// Commands whose subcommand says whether they read or write.
const std::set<std::string>& containerCommands() {
  static const std::set<std::string> s{"CONFIG", "SENTINEL", "CLIENT", "ACL", "DEBUG"};
  return s;
}

const std::set<std::string>& changingNames() {
  static const std::set<std::string> s{
      // replication and role
      "REPLICAOF", "SLAVEOF", "FAILOVER",
      // configuration and process
      "CONFIG SET", "CONFIG REWRITE", "CONFIG RESETSTAT", "SHUTDOWN", "SAVE", "BGSAVE", "BGREWRITEAOF",
      "CLIENT KILL", "CLIENT PAUSE", "ACL SETUSER", "ACL DELUSER", "DEBUG SLEEP",
      // data
      "SET", "DEL", "INCR", "FLUSHALL", "FLUSHDB", "PUBLISH",
      // sentinel
      "SENTINEL MONITOR", "SENTINEL REMOVE", "SENTINEL SET", "SENTINEL RESET", "SENTINEL FAILOVER",
      "SENTINEL FLUSHCONFIG", "SENTINEL CONFIG SET", "SENTINEL CONFIG"};
  return s;
}

}  // namespace

std::string redisCommandName(const std::vector<std::string>& argv) {
  if (argv.empty()) return {};
  std::string name = upper(argv[0]);
  if (argv.size() >= 2 && containerCommands().count(name)) {
    name += " " + upper(argv[1]);
    // SENTINEL CONFIG SET / GET
    if (name == "SENTINEL CONFIG" && argv.size() >= 3) name += " " + upper(argv[2]);
  }
  return name;
}

bool isStateChanging(const std::vector<std::string>& argv) { return changingNames().count(redisCommandName(argv)) > 0; }

Result<RedisReply> CountingRedisAdmin::command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                               std::string_view password) {
  const bool changing = isStateChanging(argv);
  {
    std::lock_guard lock(mu_);
    ++total_;
    if (changing) {
      ++stateChanging_;
      ++byName_[redisCommandName(argv)];
    }
  }
  return inner_.command(to, argv, password);
}

std::uint64_t CountingRedisAdmin::total() const {
  std::lock_guard lock(mu_);
  return total_;
}

std::uint64_t CountingRedisAdmin::stateChanging() const {
  std::lock_guard lock(mu_);
  return stateChanging_;
}

std::string CountingRedisAdmin::describeStateChanging() const {
  std::lock_guard lock(mu_);
  std::string out;
  for (const auto& [name, n] : byName_) {
    if (!out.empty()) out += ", ";
    out += name + " x" + std::to_string(n);
  }
  return out.empty() ? "none" : out;
}

void CountingRedisAdmin::reset() {
  std::lock_guard lock(mu_);
  total_ = 0;
  stateChanging_ = 0;
  byName_.clear();
}

}  // namespace kun
