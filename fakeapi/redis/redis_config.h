#pragma once
// The configuration of a simulated redis-server: the parameters the operator and users
// touch, with Redis 7.0's defaults, types, aliases (slave-* for replica-*), ranges and
// clamps, and its CONFIG SET rules: unknown names, immutable parameters (daemonize,
// databases, logfile, replicaof, ...) and protected ones (dir, dbfilename) are refused,
// a multi-parameter SET is validated as a whole and applied all-or-nothing.
//
// Simplification: parameters outside this table are "unknown", as a misspelt one would
// be; CONFIG GET returns matches sorted by name (Redis returns them in hash order).
#include <array>
#include <cstdint>
#include <map>
#include <span>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "fakeapi/redis/resp.h"

namespace kun::redissim {

class RedisConfig {
 public:
  explicit RedisConfig(std::string ownIp = {});

  // CONFIG GET with one or more glob patterns: (name, value) pairs.
  std::vector<std::pair<std::string, std::string>> get(std::span<const std::string> patterns) const;

  // CONFIG SET: "" on success, else the error text Redis replies with. `changed` receives
  // the canonical names whose value changed.
  std::string set(const std::vector<std::pair<std::string, std::string>>& kv,
                  std::vector<std::string>* changed = nullptr);

  // Startup configuration (redis.conf / command line): no mutability checks, but values
  // are validated. "" on success.
  std::string load(const std::string& name, const std::string& value);

  // Canonical name or alias -> current value (normalized: memory in bytes, yes/no).
  // Names are taken as views: callers pass literals, and the lookup never builds a string.
  const std::string& str(std::string_view name) const;
  std::int64_t integer(std::string_view name) const;
  bool flag(std::string_view name) const;
  bool known(std::string_view name) const;
  std::string canonical(std::string_view name) const;

  // The whole configuration as redis.conf would hold it after CONFIG REWRITE.
  std::map<std::string, std::string> snapshot() const;

 private:
  enum class Kind { Bool, Int, Memory, Enum, String, Save, Bind };
  struct Param {
    std::string name;
    Kind kind;
    std::string def;
    int flags = 0;
    std::int64_t min = 0, max = 0;     // Int / Memory
    std::int64_t clampLo = 0, clampHi = 0;  // applied after validation when hi > 0
    std::vector<std::string> choices;  // Enum
    std::vector<std::string> aliases;
  };
  static constexpr int kImmutable = 1;
  static constexpr int kProtected = 2;

  // The parameter table is the same for every server and never changes: it is built once
  // and shared (each node used to build its own at every boot), and a node keeps only its
  // values, by table index.
  struct Table {
    std::vector<Param> params;
    std::map<std::string, std::size_t, CaseLess> index;  // name or alias -> params index
    // The same names as spelled in the table: the callers' literals, found by one hash
    // (the case-insensitive tree walk was a tenth of the sampler's digests and of INFO).
    std::unordered_map<std::string_view, std::size_t> exact;
  };
  static const Table& table();
  static Table buildTable();

  // Index of a name or alias in the table, or npos.
  std::size_t find(std::string_view name) const;
  // Validates and normalizes; "" on success.
  std::string normalize(const Param& p, const std::string& value, std::string* out) const;

  // The names last found in the table's exact spellings, by where the caller's text
  // lives: callers pass literals, so a name comes back at the same address and is found
  // again without hashing it. Written by const lookups: a node's configuration is read
  // on its simulation's thread only.
  struct Memo {
    const char* at = nullptr;  // the caller's text
    std::string_view key;      // the table's spelling of it
    std::size_t index = 0;
  };
  mutable std::array<Memo, 32> memo_{};

  std::string ownIp_;
  const Table* table_;
  std::vector<std::string> values_;  // by table index
};

}  // namespace kun::redissim
