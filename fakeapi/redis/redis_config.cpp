#include "fakeapi/redis/redis_config.h"

#include <algorithm>
#include <set>

#include <fmt/format.h>

#include "fakeapi/redis/resp.h"

namespace kun::redissim {

namespace {
constexpr std::int64_t kIntMax = 2147483647;
constexpr std::int64_t kLLMax = 9223372036854775807LL;
const std::string kEmpty;
}  // namespace

RedisConfig::RedisConfig(std::string ownIp) : ownIp_(std::move(ownIp)), table_(&table()) {
  values_.reserve(table_->params.size());
  for (const Param& p : table_->params) values_.push_back(p.def);
}

const RedisConfig::Table& RedisConfig::table() {
  static const Table t = buildTable();  // immutable after construction: no shared state
  return t;
}

RedisConfig::Table RedisConfig::buildTable() {
  Table t;
  using K = Kind;
  auto add = [&t](Param p) {
    const std::size_t i = t.params.size();
    t.index[p.name] = i;
    for (const auto& a : p.aliases) t.index[a] = i;
    t.params.push_back(std::move(p));
  };
  auto boolean = [&](std::string n, std::string d, int flags = 0, std::vector<std::string> al = {}) {
    add(Param{std::move(n), K::Bool, std::move(d), flags, 0, 0, 0, 0, {}, std::move(al)});
  };
  auto integer = [&](std::string n, std::int64_t d, std::int64_t lo, std::int64_t hi, int flags = 0,
                     std::vector<std::string> al = {}, std::int64_t clo = 0, std::int64_t chi = 0) {
    add(Param{std::move(n), K::Int, std::to_string(d), flags, lo, hi, clo, chi, {}, std::move(al)});
  };
  auto memory = [&](std::string n, std::int64_t d, int flags = 0, std::int64_t clo = 0, std::int64_t chi = 0) {
    add(Param{std::move(n), K::Memory, std::to_string(d), flags, 0, kLLMax, clo, chi, {}, {}});
  };
  auto choice = [&](std::string n, std::string d, std::vector<std::string> c, int flags = 0) {
    add(Param{std::move(n), K::Enum, std::move(d), flags, 0, 0, 0, 0, std::move(c), {}});
  };
  auto text = [&](std::string n, std::string d, int flags = 0, std::vector<std::string> al = {}) {
    add(Param{std::move(n), K::String, std::move(d), flags, 0, 0, 0, 0, {}, std::move(al)});
  };

  // Network and process
  integer("port", 6379, 0, 65535);
  add(Param{"bind", K::Bind, "* -::*", 0, 0, 0, 0, 0, {}, {}});
  text("bind-source-addr", "");
  boolean("protected-mode", "yes");
  integer("tcp-backlog", 511, 0, kIntMax, kImmutable);
  integer("timeout", 0, 0, kIntMax);
  integer("tcp-keepalive", 300, 0, kIntMax);
  boolean("daemonize", "no", kImmutable);
  choice("supervised", "no", {"upstart", "systemd", "auto", "no"}, kImmutable);
  text("pidfile", "", kImmutable);
  choice("loglevel", "notice", {"debug", "verbose", "notice", "warning"});
  text("logfile", "", kImmutable);
  integer("databases", 16, 1, kIntMax, kImmutable);
  text("unixsocket", "", kImmutable);
  integer("io-threads", 1, 1, 128, kImmutable);
  boolean("cluster-enabled", "no", kImmutable);
  boolean("enable-protected-configs", "no", kImmutable);
  boolean("enable-debug-command", "no", kImmutable);
  boolean("always-show-logo", "no", kImmutable);
  boolean("set-proc-title", "yes", kImmutable);
  integer("maxclients", 10000, 1, kIntMax);
  integer("hz", 10, 0, kIntMax, 0, {}, 1, 500);  // Redis clamps to 1..500
  boolean("dynamic-hz", "yes");

  // Persistence
  add(Param{"save", K::Save, "3600 1 300 100 60 10000", 0, 0, 0, 0, 0, {}, {}});
  boolean("stop-writes-on-bgsave-error", "yes");
  boolean("rdbcompression", "yes");
  boolean("rdbchecksum", "yes");
  boolean("rdb-del-sync-files", "no");
  text("dbfilename", "dump.rdb", kProtected);
  text("dir", "/data", kProtected);
  boolean("appendonly", "no");
  text("appendfilename", "appendonly.aof", kImmutable);
  text("appenddirname", "appendonlydir", kImmutable);
  choice("appendfsync", "everysec", {"always", "everysec", "no"});
  boolean("no-appendfsync-on-rewrite", "no");
  integer("auto-aof-rewrite-percentage", 100, 0, kIntMax);
  memory("auto-aof-rewrite-min-size", 64LL * 1024 * 1024);
  boolean("aof-use-rdb-preamble", "yes");

  // Replication
  text("replicaof", "", kImmutable, {"slaveof"});
  text("masterauth", "");
  text("masteruser", "");
  boolean("replica-serve-stale-data", "yes", 0, {"slave-serve-stale-data"});
  boolean("replica-read-only", "yes", 0, {"slave-read-only"});
  boolean("repl-diskless-sync", "yes");
  integer("repl-diskless-sync-delay", 5, 0, kIntMax);
  integer("repl-diskless-sync-max-replicas", 0, 0, kIntMax);
  choice("repl-diskless-load", "disabled", {"disabled", "on-empty-db", "swapdb"});
  integer("repl-ping-replica-period", 10, 1, kIntMax, 0, {"repl-ping-slave-period"});
  integer("repl-timeout", 60, 1, kIntMax);
  boolean("repl-disable-tcp-nodelay", "no");
  memory("repl-backlog-size", 1024 * 1024, 0, 16384, kLLMax);  // clamped to >= 16 kB
  integer("repl-backlog-ttl", 3600, 0, kIntMax);
  integer("replica-priority", 100, 0, kIntMax, 0, {"slave-priority"});
  boolean("replica-announced", "yes");
  integer("min-replicas-to-write", 0, 0, kIntMax, 0, {"min-slaves-to-write"});
  integer("min-replicas-max-lag", 10, 0, kIntMax, 0, {"min-slaves-max-lag"});
  text("replica-announce-ip", "", 0, {"slave-announce-ip"});
  integer("replica-announce-port", 0, 0, 65535, 0, {"slave-announce-port"});
  boolean("replica-lazy-flush", "no", 0, {"slave-lazy-flush"});
  boolean("replica-ignore-maxmemory", "yes", 0, {"slave-ignore-maxmemory"});

  // Security
  text("requirepass", "");

  // Memory and the rest
  memory("maxmemory", 0);
  choice("maxmemory-policy", "noeviction",
         {"volatile-lru", "volatile-lfu", "volatile-random", "volatile-ttl", "allkeys-lru",
          "allkeys-lfu", "allkeys-random", "noeviction"});
  integer("maxmemory-samples", 5, 1, 64);
  boolean("lazyfree-lazy-eviction", "no");
  boolean("lazyfree-lazy-expire", "no");
  boolean("lazyfree-lazy-server-del", "no");
  boolean("activedefrag", "no");
  integer("busy-reply-threshold", 5000, 0, kLLMax, 0, {"lua-time-limit"});
  integer("slowlog-log-slower-than", 10000, -1, kLLMax);
  integer("slowlog-max-len", 128, 0, kLLMax);
  integer("latency-monitor-threshold", 0, 0, kLLMax);
  text("notify-keyspace-events", "");
  text("client-output-buffer-limit",
       "normal 0 0 0 slave 268435456 67108864 60 pubsub 33554432 8388608 60");
  integer("list-max-listpack-size", -2, -5, kIntMax);
  integer("hash-max-listpack-entries", 128, 0, kLLMax);
  integer("set-max-intset-entries", 512, 0, kLLMax);
  integer("zset-max-listpack-entries", 128, 0, kLLMax);
  choice("oom-score-adj", "no", {"no", "yes", "relative", "absolute"});
  // Views of the index's own keys: std::map nodes stay where they are when t is moved.
  for (const auto& [name, i] : t.index) t.exact.emplace(name, i);
  return t;
}

std::size_t RedisConfig::find(std::string_view name) const {
  const auto at = reinterpret_cast<std::uintptr_t>(name.data());
  Memo& m = memo_[(at ^ (at >> 6)) % memo_.size()];
  // The text is compared too: a buffer freed and reused for another name must miss.
  if (m.at == name.data() && m.key.size() == name.size() &&
      std::char_traits<char>::compare(m.key.data(), name.data(), name.size()) == 0)
    return m.index;
  if (auto e = table_->exact.find(name); e != table_->exact.end()) {
    m = Memo{name.data(), e->first, e->second};
    return e->second;
  }
  auto it = table_->index.find(name);
  return it == table_->index.end() ? std::string::npos : it->second;
}

bool RedisConfig::known(std::string_view name) const { return find(name) != std::string::npos; }

std::string RedisConfig::canonical(std::string_view name) const {
  const std::size_t i = find(name);
  return i == std::string::npos ? std::string() : table_->params[i].name;
}

const std::string& RedisConfig::str(std::string_view name) const {
  const std::size_t i = find(name);
  return i == std::string::npos ? kEmpty : values_[i];
}

std::int64_t RedisConfig::integer(std::string_view name) const {
  auto v = parseInt(str(name));
  return v ? *v : 0;
}

bool RedisConfig::flag(std::string_view name) const { return str(name) == "yes"; }

std::map<std::string, std::string> RedisConfig::snapshot() const {
  std::map<std::string, std::string> out;
  for (std::size_t i = 0; i < values_.size(); ++i) out.emplace(table_->params[i].name, values_[i]);
  return out;
}

std::string RedisConfig::normalize(const Param& p, const std::string& value, std::string* out) const {
  switch (p.kind) {
    case Kind::Bool: {
      const std::string v = lower(value);
      if (v != "yes" && v != "no") return "argument must be 'yes' or 'no'";
      *out = v;
      return {};
    }
    case Kind::Int: {
      auto v = parseInt(value);
      if (!v) return "argument couldn't be parsed into an integer";
      if (*v < p.min || *v > p.max)
        return fmt::format("argument must be between {} and {} inclusive", p.min, p.max);
      std::int64_t x = *v;
      if (p.clampHi > 0) x = std::clamp(x, p.clampLo, p.clampHi);
      *out = std::to_string(x);
      return {};
    }
    case Kind::Memory: {
      auto v = parseMemory(value);
      if (!v) return "argument must be a memory value";
      std::int64_t x = *v;
      if (p.clampHi > 0) x = std::clamp(x, p.clampLo, p.clampHi);
      *out = std::to_string(x);
      return {};
    }
    case Kind::Enum: {
      const std::string v = lower(value);
      for (const auto& c : p.choices) {
        if (c == v) {
          *out = v;
          return {};
        }
      }
      std::string all;
      for (const auto& c : p.choices) all += (all.empty() ? "" : ", ") + c;
      return "argument(s) must be one of the following: " + all;
    }
    case Kind::Save: {
      std::vector<std::string> parts;
      std::string cur;
      for (char c : value) {
        if (c == ' ') {
          if (!cur.empty()) parts.push_back(cur);
          cur.clear();
        } else {
          cur += c;
        }
      }
      if (!cur.empty()) parts.push_back(cur);
      if (parts.size() % 2 != 0) return "Invalid save parameters";
      for (const auto& s : parts) {
        auto v = parseInt(s);
        if (!v || *v < 0) return "Invalid save parameters";
      }
      std::string joined;
      for (const auto& s : parts) joined += (joined.empty() ? "" : " ") + s;
      *out = joined;
      return {};
    }
    case Kind::Bind: {
      // A simulated node owns exactly its pod IP (and the wildcards).
      bool mine = false;
      std::string cur;
      for (std::size_t i = 0; i <= value.size(); ++i) {
        if (i == value.size() || value[i] == ' ') {
          std::string a = cur;
          if (!a.empty() && a[0] == '-') a = a.substr(1);
          if (a == "*" || a == "0.0.0.0" || a == "::*" || a == "::" || (!ownIp_.empty() && a == ownIp_))
            mine = true;
          else if (!a.empty() && a != "127.0.0.1" && a != "::1")
            return "Failed to bind to specified addresses.";
          cur.clear();
        } else {
          cur += value[i];
        }
      }
      if (!mine && !value.empty() && !ownIp_.empty() && value.find("127.0.0.1") == std::string::npos)
        return "Failed to bind to specified addresses.";
      *out = value;
      return {};
    }
    case Kind::String:
      *out = value;
      return {};
  }
  return {};
}

std::vector<std::pair<std::string, std::string>> RedisConfig::get(std::span<const std::string> patterns) const {
  // The names matched (as the table spells them, which the table keeps) with their value's
  // index, sorted by name and without repeats at the end: a name always has the same
  // value, so this is the ordered map of name -> value it replaced, built without a node
  // and two strings per match.
  std::vector<std::pair<std::string_view, std::size_t>> found;
  for (const auto& pat : patterns) {
    // Without a glob character a pattern matches the one name equal to it ignoring case
    // (what the operator asks, parameter by parameter): a lookup, not a walk of the table.
    // The name as the table spells it is found by one hash; another case walks the tree.
    const bool glob = std::any_of(pat.begin(), pat.end(), [](char c) { return c == '*' || c == '?' || c == '[' || c == '\\'; });
    if (!glob) {
      if (auto e = table_->exact.find(pat); e != table_->exact.end()) found.emplace_back(e->first, e->second);
      else if (auto it = table_->index.find(pat); it != table_->index.end()) found.emplace_back(it->first, it->second);
      continue;
    }
    for (std::size_t i = 0; i < values_.size(); ++i) {
      const Param& p = table_->params[i];
      if (globMatch(pat, p.name, true)) found.emplace_back(p.name, i);
      for (const auto& a : p.aliases)
        if (globMatch(pat, a, true)) found.emplace_back(a, i);
    }
  }
  std::sort(found.begin(), found.end());
  found.erase(std::unique(found.begin(), found.end()), found.end());
  std::vector<std::pair<std::string, std::string>> out;
  out.reserve(found.size());
  for (const auto& [name, i] : found) out.emplace_back(std::string(name), values_[i]);
  return out;
}

std::string RedisConfig::set(const std::vector<std::pair<std::string, std::string>>& kv,
                             std::vector<std::string>* changed) {
  auto fail = [](const std::string& arg, const std::string& why) {
    return "ERR CONFIG SET failed (possibly related to argument '" + arg + "') - " + why;
  };
  std::set<std::string> seen;
  for (const auto& [name, value] : kv) {
    const std::size_t i = find(name);
    if (i == std::string::npos) return "ERR Unknown option or number of arguments for CONFIG SET - '" + name + "'";
    const Param* p = &table_->params[i];
    if (p->flags & kImmutable) return fail(name, "can't set immutable config");
    if (p->flags & kProtected) return fail(name, "can't set protected config");
    if (!seen.insert(p->name).second) return fail(name, "duplicate parameter");
  }
  std::vector<std::pair<std::size_t, std::string>> next;
  for (const auto& [name, value] : kv) {
    const std::size_t i = find(name);
    std::string norm;
    std::string err = normalize(table_->params[i], value, &norm);
    if (!err.empty()) return fail(name, err);
    next.emplace_back(i, std::move(norm));
  }
  for (auto& [i, value] : next) {
    if (values_[i] != value) {
      values_[i] = std::move(value);
      if (changed) changed->push_back(table_->params[i].name);
    }
  }
  return {};
}

std::string RedisConfig::load(const std::string& name, const std::string& value) {
  const std::size_t i = find(name);
  if (i == std::string::npos) return "Bad directive or wrong number of arguments";
  std::string norm;
  std::string err = normalize(table_->params[i], value, &norm);
  if (!err.empty()) return err;
  values_[i] = std::move(norm);
  return {};
}

}  // namespace kun::redissim
