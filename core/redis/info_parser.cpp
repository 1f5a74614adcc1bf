#include "core/redis/info_parser.h"

#include <algorithm>
#include <cctype>
#include <charconv>

#include "core/redis/key_table.h"

namespace kun {

namespace {

std::string lower(std::string_view s) {
  std::string out(s);
  std::transform(out.begin(), out.end(), out.begin(),
                 [](unsigned char c) { return static_cast<char>(std::tolower(c)); });
  return out;
}

// std::isspace of the "C" locale (the programs never set another), without a library call
// per character: every line of every INFO reply is trimmed.
bool isSpace(char c) { return c == ' ' || (c >= '\t' && c <= '\r'); }

std::string_view trim(std::string_view s) {
  while (!s.empty() && isSpace(s.front())) s.remove_prefix(1);
  while (!s.empty() && isSpace(s.back())) s.remove_suffix(1);
  return s;
}

// The next line of an INFO text, trimmed; text moves past it.
std::string_view nextLine(std::string_view& text) {
  const auto nl = text.find('\n');
  const std::string_view line = text.substr(0, nl);
  text = nl == std::string_view::npos ? std::string_view{} : text.substr(nl + 1);
  return trim(line);
}

template <class Int>
bool parseInt(std::string_view s, Int& out) {
  auto [p, ec] = std::from_chars(s.data(), s.data() + s.size(), out);
  return ec == std::errc() && p == s.data() + s.size();
}

// A replication key's value, from the section maps (parseInfo) or from the lines in place
// (ReplicationLines, below); the readers take either.
const std::string* lookup(const InfoSections& info, std::string_view key) { return info.find("replication", key); }

// Reads an optional integer key into `out`; an absent key leaves `out` as it is.
template <class Source, class Int>
Status readInt(const Source& src, std::string_view key, Int& out) {
  const auto* v = lookup(src, key);
  if (v == nullptr) return {};
  if (!parseInt(*v, out)) {
    return makeError(Reason::Invalid, "INFO " + std::string(key) + ": not an integer: '" + std::string(*v) + "'",
                     std::string(key));
  }
  return {};
}

// INFO writes booleans as 0/1.
template <class Source>
Status readBool(const Source& src, std::string_view key, bool& out) {
  int v = out ? 1 : 0;
  if (Status s = readInt(src, key, v); !s) return s;
  out = v != 0;
  return {};
}

template <class Source>
void readString(const Source& src, std::string_view key, std::string& out) {
  if (const auto* v = lookup(src, key)) out.assign(v->data(), v->size());
}

// Every field but role and the replica entries, in one order for both sources, so both
// give the same result and the same first error.
template <class Source>
Status readReplicationFields(const Source& src, ReplicationInfo& r) {
  // Stops at the first bad number: the fields read after it would be thrown away with r.
  if (Status s = readInt(src, "connected_slaves", r.connectedSlaves); !s) return s;
  if (Status s = readInt(src, "master_port", r.masterPort); !s) return s;
  if (Status s = readInt(src, "master_last_io_seconds_ago", r.masterLastIoSecondsAgo); !s) return s;
  if (Status s = readInt(src, "slave_repl_offset", r.slaveReplOffset); !s) return s;
  if (Status s = readInt(src, "master_link_down_since_seconds", r.masterLinkDownSinceSeconds); !s) return s;
  if (Status s = readInt(src, "slave_priority", r.slavePriority); !s) return s;
  if (Status s = readInt(src, "master_repl_offset", r.masterReplOffset); !s) return s;
  if (Status s = readInt(src, "second_repl_offset", r.secondReplOffset); !s) return s;
  if (Status s = readBool(src, "master_sync_in_progress", r.masterSyncInProgress); !s) return s;
  if (Status s = readBool(src, "slave_read_only", r.slaveReadOnly); !s) return s;
  if (Status s = readBool(src, "repl_backlog_active", r.replBacklogActive); !s) return s;
  readString(src, "master_host", r.masterHost);
  readString(src, "master_link_status", r.masterLinkStatus);
  readString(src, "master_failover_state", r.masterFailoverState);
  readString(src, "master_replid", r.masterReplid);
  readString(src, "master_replid2", r.masterReplid2);
  return {};
}

}  // namespace

const std::string* InfoSections::find(std::string_view section, std::string_view key) const {
  auto s = sections.find(lower(section));
  if (s == sections.end()) return nullptr;
  auto k = s->second.find(std::string(key));
  return k == s->second.end() ? nullptr : &k->second;
}

bool InfoSections::has(std::string_view section) const {
  return sections.count(lower(section)) != 0;
}

InfoSections parseInfo(std::string_view text) {
  InfoSections out;
  std::string current;
  while (!text.empty()) {
    const std::string_view line = nextLine(text);
    if (line.empty()) continue;
    if (line.front() == '#') {
      current = lower(trim(line.substr(1)));
      out.sections[current];
      continue;
    }
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    out.sections[current][std::string(line.substr(0, colon))] = std::string(line.substr(colon + 1));
  }
  return out;
}

Result<InfoReplicaEntry> parseInfoReplicaEntry(std::string_view value) {
  InfoReplicaEntry e;
  bool haveIp = false, havePort = false;
  while (!value.empty()) {
    auto comma = value.find(',');
    std::string_view item = value.substr(0, comma);
    value = comma == std::string_view::npos ? std::string_view{} : value.substr(comma + 1);
    auto eq = item.find('=');
    if (eq == std::string_view::npos) continue;
    std::string_view k = item.substr(0, eq), v = item.substr(eq + 1);
    bool ok = true;
    if (k == "ip") {
      e.ip = std::string(v);
      haveIp = true;
    } else if (k == "port") {
      ok = parseInt(v, e.port);
      havePort = ok;
    } else if (k == "state") {
      e.state = std::string(v);
    } else if (k == "offset") {
      ok = parseInt(v, e.offset);
    } else if (k == "lag") {
      ok = parseInt(v, e.lag);
    }
    if (!ok) {
      return makeError(Reason::Invalid, "INFO replica entry: bad " + std::string(k) + " '" +
                                            std::string(v) + "'", std::string(k));
    }
  }
  if (!haveIp || !havePort) {
    return makeError(Reason::Invalid, "INFO replica entry without ip and port", "slave");
  }
  return e;
}

Result<ReplicationInfo> parseReplicationInfo(const InfoSections& info) {
  ReplicationInfo r;
  const std::string* role = info.find("replication", "role");
  if (role == nullptr) return makeError(Reason::Invalid, "INFO replication has no role", "role");
  r.role = *role;

  if (Status s = readReplicationFields(info, r); !s) return s.error();

  auto section = info.sections.find("replication");
  if (section != info.sections.end()) {
    for (const auto& [key, value] : section->second) {
      int index = 0;
      if (key.size() <= 5 || key.compare(0, 5, "slave") != 0 ||
          !parseInt(std::string_view(key).substr(5), index)) {
        continue;
      }
      auto entry = parseInfoReplicaEntry(value);
      if (!entry) return makeError(Reason::Invalid, entry.error().message, key);
      entry->index = index;
      r.replicas.push_back(std::move(*entry));
    }
  }
  // std::map orders slave10 before slave2; the slaveN order is what Redis means.
  std::sort(r.replicas.begin(), r.replicas.end(),
            [](const InfoReplicaEntry& a, const InfoReplicaEntry& b) { return a.index < b.index; });
  return r;
}

namespace {

// The `# Replication` lines of an INFO text, in place (views into the text): observe()
// reads INFO replication from every redis node on every reconcile, and building the
// section maps of parseInfo() was most of its cost. Same rules as parseInfo(): trimmed
// lines, section names compared in lower case, the last of a repeated key wins.
struct ReplicationLines {
  // The keys parseReplicationInfo() reads.
  static constexpr KeyTable kKeys{{
      "role",
      "connected_slaves",
      "master_port",
      "master_last_io_seconds_ago",
      "slave_repl_offset",
      "master_link_down_since_seconds",
      "slave_priority",
      "master_repl_offset",
      "second_repl_offset",
      "master_sync_in_progress",
      "slave_read_only",
      "repl_backlog_active",
      "master_host",
      "master_link_status",
      "master_failover_state",
      "master_replid",
      "master_replid2",
  }};
  static constexpr std::size_t kCount = kKeys.size();
  std::string_view values[kCount];
  bool present[kCount] = {};
  std::vector<std::pair<std::string_view, std::string_view>> slaves;  // slaveN lines

  const std::string_view* find(std::string_view key) const {
    const std::size_t i = kKeys.indexOf(key);
    return i < kCount && present[i] ? &values[i] : nullptr;
  }
};

bool isReplicationHeader(std::string_view name) {
  constexpr std::string_view kName = "replication";
  if (name.size() != kName.size()) return false;
  for (std::size_t i = 0; i < name.size(); ++i)
    if (std::tolower(static_cast<unsigned char>(name[i])) != kName[i]) return false;
  return true;
}

ReplicationLines replicationLines(std::string_view text) {
  ReplicationLines out;
  bool inSection = false;
  while (!text.empty()) {
    const std::string_view line = nextLine(text);
    if (line.empty()) continue;
    if (line.front() == '#') {
      inSection = isReplicationHeader(trim(line.substr(1)));
      continue;
    }
    if (!inSection) continue;
    auto colon = line.find(':');
    if (colon == std::string_view::npos) continue;
    const std::string_view key = line.substr(0, colon), value = line.substr(colon + 1);
    if (const std::size_t i = ReplicationLines::kKeys.indexOf(key); i < ReplicationLines::kCount) {
      out.values[i] = value;
      out.present[i] = true;
    } else if (key.size() > 5 && key.compare(0, 5, "slave") == 0) {
      out.slaves.emplace_back(key, value);
    }
  }
  return out;
}

const std::string_view* lookup(const ReplicationLines& lines, std::string_view key) { return lines.find(key); }

}  // namespace

// The same checks, in the same order, as the InfoSections overload, so both give the same
// result and the same first error for any text.
Result<ReplicationInfo> parseReplicationInfo(std::string_view infoText) {
  ReplicationLines lines = replicationLines(infoText);
  ReplicationInfo r;
  const std::string_view* role = lines.find("role");
  if (role == nullptr) return makeError(Reason::Invalid, "INFO replication has no role", "role");
  r.role = std::string(*role);

  if (Status s = readReplicationFields(lines, r); !s) return s.error();

  // As the section map would hold them: by key, the last of a repeated one, so that the
  // first bad entry reported is the same.
  auto& slaves = lines.slaves;
  auto byKey = [](const auto& a, const auto& b) { return a.first < b.first; };
  if (!std::is_sorted(slaves.begin(), slaves.end(), byKey)) std::stable_sort(slaves.begin(), slaves.end(), byKey);
  for (std::size_t i = 0; i < slaves.size(); ++i) {
    if (i + 1 < slaves.size() && slaves[i + 1].first == slaves[i].first) continue;
    const auto& [key, value] = slaves[i];
    int index = 0;
    if (!parseInt(key.substr(5), index)) continue;
    auto entry = parseInfoReplicaEntry(value);
    if (!entry) return makeError(Reason::Invalid, entry.error().message, std::string(key));
    entry->index = index;
    r.replicas.push_back(std::move(*entry));
  }
  std::sort(r.replicas.begin(), r.replicas.end(),
            [](const InfoReplicaEntry& a, const InfoReplicaEntry& b) { return a.index < b.index; });
  return r;
}

Result<ServerInfo> parseServerInfo(const InfoSections& info) {
  if (!info.has("server")) return makeError(Reason::Invalid, "INFO has no Server section", "server");
  ServerInfo s;
  auto str = [&](std::string_view key, std::string& out) {
    if (const std::string* v = info.find("server", key)) out = *v;
  };
  str("redis_version", s.redisVersion);
  str("redis_mode", s.redisMode);
  str("run_id", s.runId);
  auto num = [&](std::string_view key, auto& out) -> Status {
    const std::string* v = info.find("server", key);
    if (v == nullptr) return {};
    if (!parseInt(*v, out)) {
      return makeError(Reason::Invalid, "INFO " + std::string(key) + ": not an integer: '" + *v + "'",
                       std::string(key));
    }
    return {};
  };
  for (Status st : {num("process_id", s.processId), num("tcp_port", s.tcpPort),
                    num("uptime_in_seconds", s.uptimeInSeconds)}) {
    if (!st) return st.error();
  }
  return s;
}

std::optional<std::string_view> infoValue(std::string_view text, std::string_view key) {
  while (!text.empty()) {
    const std::string_view line = nextLine(text);
    if (line.size() > key.size() && line[key.size()] == ':' && line.starts_with(key))
      return trim(line.substr(key.size() + 1));
  }
  return std::nullopt;
}

}  // namespace kun
