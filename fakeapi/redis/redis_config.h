#pragma once
// The configuration of a simulated redis-server: the parameters the operator and users
// touch, with Redis 7.0's defaults, types, aliases (slave-* for replica-*), ranges and
// clamps, and its CONFIG SET rules: unknown names, immutable parameters (daemonize,
// databases, logfile, replicaof, ...) and protected ones (dir, dbfilename) are refused,
// a multi-parameter SET is validated as a whole and applied all-or-nothing.
//
// Simplification: parameters outside this table are "unknown", as a misspelt one would
// be; CONFIG GET returns matches sorted by name (Redis returns them in hash order).
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "fakeapi/redis/resp.h"

namespace kun::redissim {

class RedisConfig {
 public:
  explicit RedisConfig(std::string ownIp = {});

  // CONFIG GET with one or more glob patterns: (name, value) pairs.
  std::vector<std::pair<std::string, std::string>> get(const std::vector<std::string>& patterns) const;

  // CONFIG SET: "" on success, else the error text Redis replies with. `changed` receives
  // the canonical names whose value changed.
  std::string set(const std::vector<std::pair<std::string, std::string>>& kv,
                  std::vector<std::string>* changed = nullptr);

  // Startup configuration (redis.conf / command line): no mutability checks, but values
  // are validated. "" on success.
  std::string load(const std::string& name, const std::string& value);

  // Canonical name or alias -> current value (normalized: memory in bytes, yes/no).
  const std::string& str(const std::string& name) const;
  std::int64_t integer(const std::string& name) const;
  bool flag(const std::string& name) const;
  bool known(const std::string& name) const;
  std::string canonical(const std::string& name) const;

  // The whole configuration as redis.conf would hold it after CONFIG REWRITE.
  std::map<std::string, std::string> snapshot() const { return values_; }

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

  const Param* find(const std::string& name) const;
  // Validates and normalizes; "" on success.
  std::string normalize(const Param& p, const std::string& value, std::string* out) const;

  std::string ownIp_;
  std::vector<Param> params_;
  std::map<std::string, std::size_t, CaseLess> index_;  // name or alias -> params_ index
  std::map<std::string, std::string> values_;  // canonical name -> value
};

}  // namespace kun::redissim
