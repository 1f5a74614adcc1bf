#include "core/api/redis_cluster_validation.h"

#include <algorithm>
#include <cctype>
#include <charconv>
#include <map>
#include <optional>

#include <fmt/format.h>

#include "core/api/validation.h"

namespace kun::api {

namespace {

// --- Rules for redis.conf parameters in spec.config ---------------------------------------
struct Owned {
  std::string_view key;
  std::string_view message;
};

constexpr std::string_view kManaged = "is managed by the operator and cannot be set";

// The operator writes these into every node's config, or relies on their defaults to reach
// and control the node; a user value would break the pod or fight the operator.
constexpr Owned kOwnedRedisConfig[] = {
    // Where the node listens and stores data: the pod spec, probes and Services assume them.
    {"port", "is managed by the operator and cannot be set (Redis listens on 6379)"},
    {"bind", "is managed by the operator and cannot be set (Redis must be reachable on the pod IP)"},
    {"protected-mode", "is managed by the operator and cannot be set (it would refuse the operator's connections)"},
    {"dir", "is managed by the operator and cannot be set (data lives on the /data volume)"},
    {"dbfilename", kManaged},
    {"appendfilename", kManaged},
    {"appenddirname", kManaged},
    // Replication and failover are the operator's and Sentinel's job.
    {"replicaof", "is managed by the operator and cannot be set (replication follows Sentinel)"},
    {"slaveof", "is managed by the operator and cannot be set (replication follows Sentinel)"},
    {"replica-announce-ip", "is managed by the operator and cannot be set (nodes are known by pod IP)"},
    {"slave-announce-ip", "is managed by the operator and cannot be set (nodes are known by pod IP)"},
    {"replica-announce-port", kManaged},
    {"slave-announce-port", kManaged},
    {"replica-priority", "is managed by the operator and cannot be set (every node must stay promotable)"},
    {"slave-priority", "is managed by the operator and cannot be set (every node must stay promotable)"},
    {"cluster-enabled", "is managed by the operator and cannot be set (this is Sentinel mode, not Redis Cluster)"},
    {"cluster-config-file", kManaged},
    // Authentication comes from spec.password, applied in a replication-safe order.
    {"requirepass", "is managed by the operator and cannot be set; use spec.password"},
    {"masterauth", "is managed by the operator and cannot be set; use spec.password"},
    {"masteruser", kManaged},
    {"aclfile", kManaged},
    {"user", kManaged},
    // Process settings that make the container exit or hide the node from its probes.
    {"daemonize", "is managed by the operator and cannot be set (a daemonized server ends the container)"},
    {"supervised", kManaged},
    {"pidfile", kManaged},
    {"logfile", "is managed by the operator and cannot be set (logs go to stdout)"},
    {"unixsocket", kManaged},
    {"unixsocketperm", kManaged},
    // Directives that pull in or rewrite configuration behind the operator's back.
    {"include", "cannot be set: it would load configuration the operator does not see"},
    {"rename-command", "cannot be set: the operator needs the commands it issues"},
    {"loadmodule", "cannot be set: it would load code into the server from the pod's filesystem"},
};

// --- Rules for spec.sentinel.customConfig ("option value", applied with SENTINEL SET) -----
struct SentinelOption {
  std::string_view name;
  std::int64_t min;  // smallest value Sentinel accepts
};

// The per-master options SENTINEL SET accepts that are the user's to tune.
// master-reboot-down-after-period needs Redis >= 7.
constexpr SentinelOption kAllowedSentinelOptions[] = {
    {"down-after-milliseconds", 1},
    {"failover-timeout", 1},
    {"parallel-syncs", 1},
    {"master-reboot-down-after-period", 0},
};

constexpr Owned kOwnedSentinelOptions[] = {
    {"monitor", "is managed by the operator and cannot be set (it monitors the current master)"},
    {"auth-pass", "is managed by the operator and cannot be set; use spec.password"},
    {"auth-user", kManaged},
    {"quorum", "is managed by the operator and cannot be set (it follows spec.sentinel.replicas: a majority)"},
    {"known-replica", kManaged},
    {"known-slave", kManaged},
    {"known-sentinel", kManaged},
    {"config-epoch", kManaged},
    {"leader-epoch", kManaged},
    {"current-epoch", kManaged},
    {"myid", kManaged},
    {"announce-ip", kManaged},
    {"announce-port", kManaged},
    {"rename-command", "cannot be set: the operator needs the commands it issues"},
    {"notification-script", "cannot be set: Sentinel would run a script inside its pod"},
    {"client-reconfig-script", "cannot be set: Sentinel would run a script inside its pod"},
};

constexpr std::string_view kControlChars =
    "must not contain newlines or control characters (they would add lines to the generated "
    "configuration)";

bool hasControlChar(std::string_view s) {
  return std::any_of(s.begin(), s.end(), [](char ch) {
    const auto c = static_cast<unsigned char>(ch);
    return c < 0x20 || c == 0x7f;
  });
}

bool hasSpace(std::string_view s) {
  return std::any_of(s.begin(), s.end(),
                     [](char ch) { return std::isspace(static_cast<unsigned char>(ch)) != 0; });
}

// Redis parameter names are lowercase words joined by '-' (module parameters add '.').
bool isConfigKey(std::string_view k) {
  if (k.empty()) return false;
  return std::all_of(k.begin(), k.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= '0' && c <= '9') || c == '-' || c == '.' || c == '_';
  });
}

std::string lower(std::string_view s) {
  std::string out(s);
  for (auto& c : out) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  return out;
}

// A map key in a field path: spec.config.maxmemory, or spec.config["odd key"] with control
// characters escaped so the path itself cannot inject anything.
std::string keyPath(std::string_view base, std::string_view key) {
  const bool plain = !key.empty() && std::all_of(key.begin(), key.end(), [](char c) {
    return (c >= 'a' && c <= 'z') || (c >= 'A' && c <= 'Z') || (c >= '0' && c <= '9') ||
           c == '-' || c == '_';
  });
  if (plain) return fmt::format("{}.{}", base, key);
  std::string esc;
  for (char ch : key) {
    const auto c = static_cast<unsigned char>(ch);
    if (c < 0x20 || c == 0x7f || c == '"' || c == '\\')
      esc += fmt::format("\\x{:02x}", c);
    else
      esc += ch;
  }
  return fmt::format("{}[\"{}\"]", base, esc);
}

class Collector {
 public:
  void add(std::string field, std::string message) {
    errors_.push_back(makeError(Reason::Invalid, std::move(message), std::move(field)));
  }
  std::vector<Error> take() { return std::move(errors_); }

 private:
  std::vector<Error> errors_;
};

void checkPullPolicy(Collector& c, const std::string& field, const std::string& v) {
  if (v.empty() || v == "Always" || v == "IfNotPresent" || v == "Never") return;
  c.add(field, fmt::format("must be one of Always, IfNotPresent, Never (got \"{}\")",
                           hasControlChar(v) ? std::string("...") : v));
}

void checkImage(Collector& c, const std::string& field, const std::string& v) {
  if (hasSpace(v) || hasControlChar(v)) c.add(field, "must be an image reference without whitespace");
}

void checkNodeSelector(Collector& c, std::string_view base,
                       const std::map<std::string, std::string>& m) {
  for (const auto& [k, v] : m) {
    if (auto e = validation::labelKey(k); !e.empty())
      c.add(keyPath(base, k), "key: " + e);
    else if (auto ev = validation::labelValue(v); !ev.empty())
      c.add(keyPath(base, k), ev);
  }
}

void checkAnnotations(Collector& c, std::string_view base,
                      const std::map<std::string, std::string>& m) {
  // Annotation keys follow the label-key rules; values are free text.
  for (const auto& [k, v] : m) {
    (void)v;
    if (auto e = validation::labelKey(k); !e.empty()) c.add(keyPath(base, k), "key: " + e);
  }
}

void checkSize(Collector& c, std::int32_t size) {
  // KUN: 0 means "use the default 3"; 1 and 2 are below its minimum. A single node has no
  // replica to fail over to, and KUN (and so its users' manifests) never allowed 2.
  if (size < 0) {
    c.add("spec.size", "must not be negative");
  } else if (size > 0 && size < limits::kMinSize) {
    c.add("spec.size", fmt::format("must be at least {} (one master and two replicas); {} is too "
                                   "few to survive a failure",
                                   limits::kMinSize, size));
  }
}

void checkSentinelReplicas(Collector& c, std::int32_t n) {
  // Below 3, losing one sentinel leaves no majority to authorize a failover (KUN's minimum).
  // Even counts are accepted: failover still needs a strict majority of all sentinels (quorum
  // is n/2+1), so they cannot split-brain; they only add no fault tolerance over n-1.
  if (n < 0) {
    c.add("spec.sentinel.replicas", "must not be negative");
  } else if (n > 0 && n < limits::kMinSentinelReplicas) {
    c.add("spec.sentinel.replicas",
          fmt::format("must be at least {}: Sentinel needs a majority to agree on a failover, and "
                      "with {} losing one sentinel leaves none",
                      limits::kMinSentinelReplicas, n));
  }
}

void checkConfig(Collector& c, const RedisClusterSpec& spec) {
  for (const auto& [key, value] : spec.config) {
    const std::string field = keyPath("spec.config", key);
    if (key.empty()) {
      c.add("spec.config", "has an empty key");
      continue;
    }
    if (hasControlChar(key) || hasSpace(key)) {
      c.add(field, std::string("key ") + std::string(kControlChars));
      continue;
    }
    if (!isConfigKey(key)) {
      c.add(field, "must be a Redis parameter name in lowercase (letters, digits, '-', '.', '_')");
      continue;
    }
    const auto* owned = std::find_if(std::begin(kOwnedRedisConfig), std::end(kOwnedRedisConfig),
                                     [&k = key](const Owned& o) { return o.key == k; });
    if (owned != std::end(kOwnedRedisConfig)) {
      c.add(field, std::string(owned->message));
      continue;
    }
    if (hasControlChar(value)) {
      c.add(field, std::string(kControlChars));
      continue;
    }
    // KUN forces these when persistence is off; here a contradicting value is an error
    // rather than silently overridden.
    if (spec.disablePersistence) {
      if (key == "appendonly" && value != "no")
        c.add(field, "conflicts with spec.disablePersistence: true (it needs appendonly \"no\")");
      if (key == "save" && !value.empty())
        c.add(field, "conflicts with spec.disablePersistence: true (it needs save \"\")");
    }
  }
}

std::optional<std::int64_t> parseInt(std::string_view s) {
  std::int64_t v = 0;
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), v);
  if (ec != std::errc() || p != s.data() + s.size()) return std::nullopt;
  return v;
}

void checkSentinelCustomConfig(Collector& c, const std::vector<std::string>& entries) {
  std::map<std::string, std::size_t> seen;  // option -> first index
  for (std::size_t i = 0; i < entries.size(); ++i) {
    const std::string field = fmt::format("spec.sentinel.customConfig[{}]", i);
    const std::string& line = entries[i];
    if (hasControlChar(line)) {
      c.add(field, std::string(kControlChars));
      continue;
    }
    const auto sp = line.find(' ');
    std::string_view value;
    if (sp != std::string::npos) {
      value = std::string_view(line).substr(sp + 1);
      while (!value.empty() && value.front() == ' ') value.remove_prefix(1);
      while (!value.empty() && value.back() == ' ') value.remove_suffix(1);
    }
    if (sp == std::string::npos || sp == 0 || value.empty()) {
      c.add(field, "must be \"<option> <value>\", e.g. \"down-after-milliseconds 5000\"");
      continue;
    }
    const std::string option = lower(std::string_view(line).substr(0, sp));
    const auto* owned =
        std::find_if(std::begin(kOwnedSentinelOptions), std::end(kOwnedSentinelOptions),
                     [&](const Owned& o) { return o.key == option; });
    if (owned != std::end(kOwnedSentinelOptions)) {
      c.add(field, fmt::format("{} {}", option, owned->message));
      continue;
    }
    const auto* allowed =
        std::find_if(std::begin(kAllowedSentinelOptions), std::end(kAllowedSentinelOptions),
                     [&](const SentinelOption& o) { return o.name == option; });
    if (allowed == std::end(kAllowedSentinelOptions)) {
      std::string names;
      for (const auto& o : kAllowedSentinelOptions) {
        if (!names.empty()) names += ", ";
        names += o.name;
      }
      c.add(field, fmt::format("{} is not a Sentinel option that can be set here (allowed: {})",
                               option.size() > 64 ? option.substr(0, 64) + "..." : option, names));
      continue;
    }
    const auto v = parseInt(value);
    if (!v || *v < allowed->min) {
      c.add(field, fmt::format("{} needs an integer value of at least {}", option, allowed->min));
      continue;
    }
    auto [it, inserted] = seen.emplace(option, i);
    if (!inserted)
      c.add(field, fmt::format("{} is already set by spec.sentinel.customConfig[{}]", option,
                               it->second));
  }
}

// core/v1 ResourceRequirements: limits and requests map resource names to quantities (a
// StatefulSet carrying anything else is refused by the API server, after the operator has
// already taken the spec).
void checkResources(Collector& c, const std::string& path, const Object& r) {
  if (r.is_null()) return;
  if (!r.is_object()) {
    c.add(path, "must be an object with limits and requests");
    return;
  }
  for (const char* part : {"limits", "requests"}) {
    auto m = r.find(part);
    if (m == r.end() || m->is_null()) continue;
    const std::string where = path + "." + part;
    if (!m->is_object()) {
      c.add(where, "must map resource names (cpu, memory, ...) to quantities");
      continue;
    }
    for (auto& [name, q] : m->items()) {
      if (q.is_number()) {
        if (q.get<double>() < 0) c.add(where + "." + name, "must not be negative");
      } else if (!q.is_string()) {
        c.add(where + "." + name, "must be a quantity such as 500m, 2 or 1.5Gi");
      } else if (auto e = validation::quantity(q.get<std::string>()); !e.empty()) {
        c.add(where + "." + name, e);
      } else if (q.get<std::string>().front() == '-') {
        c.add(where + "." + name, "must not be negative");
      }
    }
  }
}

void checkSpec(Collector& c, const RedisClusterSpec& s) {
  checkSize(c, s.size);
  checkImage(c, "spec.image", s.image);
  checkPullPolicy(c, "spec.imagePullPolicy", s.imagePullPolicy);
  checkResources(c, "spec.resources", s.resources);
  if (!s.shutdownConfigMap.empty()) {
    if (auto e = validation::dns1123Subdomain(s.shutdownConfigMap); !e.empty())
      c.add("spec.shutdownConfigMap", e);
  }
  if (s.storage.persistentVolumeClaim.is_object()) {
    const Object& pvc = s.storage.persistentVolumeClaim;
    auto md = pvc.find("metadata");
    if (md != pvc.end() && md->is_object()) {
      auto n = md->find("name");
      if (n != md->end() && n->is_string() && !n->get<std::string>().empty()) {
        // The claim's name is also the data volume's name in the pod.
        if (auto e = validation::dns1123Label(n->get<std::string>()); !e.empty())
          c.add("spec.storage.persistentVolumeClaim.metadata.name", e);
      }
    }
  }
  // The password goes into redis.conf and sentinel.conf lines.
  if (hasControlChar(s.password)) c.add("spec.password", std::string(kControlChars));
  if (s.exporter.enabled) checkImage(c, "spec.exporter.image", s.exporter.image);
  checkPullPolicy(c, "spec.exporter.imagePullPolicy", s.exporter.imagePullPolicy);
  checkNodeSelector(c, "spec.nodeSelector", s.nodeSelector);
  checkConfig(c, s);
  checkAnnotations(c, "spec.annotations", s.annotations);

  checkImage(c, "spec.sentinel.image", s.sentinel.image);
  checkPullPolicy(c, "spec.sentinel.imagePullPolicy", s.sentinel.imagePullPolicy);
  checkResources(c, "spec.sentinel.resources", s.sentinel.resources);
  checkSentinelReplicas(c, s.sentinel.replicas);
  checkSentinelCustomConfig(c, s.sentinel.customConfig);
  checkNodeSelector(c, "spec.sentinel.nodeSelector", s.sentinel.nodeSelector);
  checkAnnotations(c, "spec.sentinel.annotations", s.sentinel.annotations);
}

}  // namespace

std::vector<Error> validateRedisClusterSpec(const RedisClusterSpec& spec) {
  Collector c;
  checkSpec(c, spec);
  return c.take();
}

std::vector<Error> validateRedisCluster(const RedisCluster& rc) {
  Collector c;
  const std::string name = rc.name();
  if (name.empty()) {
    c.add("metadata.name", "is required");
  } else if (name.size() > limits::kMaxNameLength) {
    c.add("metadata.name",
          fmt::format("must be no more than {} characters (got {}): the StatefulSet "
                      "redis-sentinel-<name> must fit in 52 so that its pods' "
                      "controller-revision-hash label is valid",
                      limits::kMaxNameLength, name.size()));
  } else if (auto e = validation::dns1123Label(name); !e.empty()) {
    // The name is embedded in Service names, which must be DNS labels.
    c.add("metadata.name", e);
  }
  checkSpec(c, rc.spec);
  return c.take();
}

std::string formatFieldError(const Error& e) {
  return e.field.empty() ? e.message : e.field + ": " + e.message;
}

std::string formatFieldErrors(const std::vector<Error>& errors) {
  std::string out;
  for (const auto& e : errors) {
    if (!out.empty()) out += "; ";
    out += formatFieldError(e);
  }
  return out;
}

const std::vector<std::string_view>& operatorOwnedRedisConfig() {
  static const std::vector<std::string_view> keys = [] {
    std::vector<std::string_view> v;
    for (const auto& o : kOwnedRedisConfig) v.push_back(o.key);
    return v;
  }();
  return keys;
}

const std::vector<std::string_view>& allowedSentinelOptions() {
  static const std::vector<std::string_view> names = [] {
    std::vector<std::string_view> v;
    for (const auto& o : kAllowedSentinelOptions) v.push_back(o.name);
    return v;
  }();
  return names;
}

}  // namespace kun::api
