#include "fakeapi/world/process_spec.h"

#include <charconv>

#include <fmt/format.h>

namespace kun::sim {

namespace {

std::string baseName(const std::string& p) {
  const auto slash = p.rfind('/');
  return slash == std::string::npos ? p : p.substr(slash + 1);
}

std::vector<std::string> strings(const Object& o) {
  std::vector<std::string> out;
  if (!o.is_array()) return out;
  for (const auto& v : o)
    if (v.is_string()) out.push_back(v.get<std::string>());
  return out;
}

std::optional<std::int64_t> number(const std::string& s) {
  std::int64_t v = 0;
  const auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

}  // namespace

Result<ProcessCommand> parseCommand(const Object& container) {
  std::vector<std::string> argv = strings(container.contains("command") ? container["command"] : Object());
  for (auto& a : strings(container.contains("args") ? container["args"] : Object())) argv.push_back(std::move(a));
  ProcessCommand out;
  if (argv.empty()) return out;
  const std::string prog = baseName(argv[0]);
  if (prog == "redis-sentinel") out.sentinel = true;
  else if (prog != "redis-server")
    return makeError(Reason::Invalid, fmt::format("cannot simulate the program '{}'", argv[0]));
  std::size_t i = 1;
  if (i < argv.size() && argv[i].rfind("--", 0) != 0) out.configFile = argv[i++];
  for (; i < argv.size(); ++i) {
    const std::string& a = argv[i];
    if (a.rfind("--", 0) == 0) {
      if (a == "--sentinel") {
        out.sentinel = true;
        continue;
      }
      out.options.push_back(ConfigDirective{a.substr(2), {}});
    } else if (!out.options.empty()) {
      out.options.back().args.push_back(a);
    } else {
      return makeError(Reason::Invalid, fmt::format("unexpected argument '{}'", a));
    }
  }
  return out;
}

std::string lastValue(const std::vector<ConfigDirective>& dirs, std::string_view name) {
  std::string out;
  for (const auto& d : dirs)
    if (d.name == name) out = d.joined();
  return out;
}

void applyRedisDirectives(const std::vector<ConfigDirective>& dirs, redissim::RedisNodeOptions& opts) {
  std::optional<std::string> save;
  for (const auto& d : dirs) {
    if (d.name == "save") {
      const std::string v = d.joined();
      save = (v.empty() || !save) ? v : *save + " " + v;
      continue;
    }
    if (d.name == "port") {
      if (auto p = number(d.joined())) opts.port = static_cast<int>(*p);
    }
    opts.config.emplace_back(d.name, d.joined());
  }
  if (save) opts.config.emplace_back("save", *save);
}

Status applySentinelDirectives(const std::vector<ConfigDirective>& dirs, redissim::SentinelOptions& opts) {
  auto master = [&](const std::string& name) -> redissim::SentinelMasterConfig* {
    for (auto& m : opts.monitors)
      if (m.name == name) return &m;
    return nullptr;
  };
  for (const auto& d : dirs) {
    if (d.name == "port") {
      auto p = number(d.joined());
      if (!p) return makeError(Reason::Invalid, fmt::format("port '{}' is not a number", d.joined()));
      opts.port = static_cast<int>(*p);
      continue;
    }
    if (d.name != "sentinel" || d.args.empty()) continue;  // other directives do not change the model
    const std::string& what = d.args[0];
    if (what == "monitor") {
      if (d.args.size() != 5) return makeError(Reason::Invalid, "sentinel monitor needs name host port quorum");
      auto port = number(d.args[3]);
      auto quorum = number(d.args[4]);
      if (!port || !quorum || *quorum <= 0) return makeError(Reason::Invalid, "sentinel monitor: bad port or quorum");
      redissim::SentinelMasterConfig m;
      m.name = d.args[1];
      m.host = d.args[2];
      m.port = static_cast<int>(*port);
      m.quorum = static_cast<int>(*quorum);
      if (auto* old = master(m.name)) *old = m;
      else opts.monitors.push_back(std::move(m));
      continue;
    }
    if (d.args.size() != 3) continue;
    auto* m = master(d.args[1]);
    const bool numeric = what == "down-after-milliseconds" || what == "failover-timeout" || what == "parallel-syncs";
    if (!numeric && what != "auth-pass") continue;
    if (!m) return makeError(Reason::Invalid, fmt::format("sentinel {}: no such master '{}'", what, d.args[1]));
    if (what == "auth-pass") {
      m->authPass = d.args[2];
      continue;
    }
    auto v = number(d.args[2]);
    if (!v || *v < 0) return makeError(Reason::Invalid, fmt::format("sentinel {} '{}' is not a number", what, d.args[2]));
    if (what == "down-after-milliseconds") m->downAfterMs = *v;
    else if (what == "failover-timeout") m->failoverTimeoutMs = *v;
    else m->parallelSyncs = static_cast<int>(*v);
  }
  return {};
}

}  // namespace kun::sim
