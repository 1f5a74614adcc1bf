#pragma once
// Small helpers shared by the simulated Redis and Sentinel: argument parsing with Redis's
// rules, the glob matcher Redis uses for patterns, error replies worded as Redis words
// them, and the RESP length of a command (replication offsets count bytes of the stream).
#include <cstdint>
#include <optional>
#include <string>
#include <string_view>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/random.h"
#include "fakeapi/redis/fabric.h"

namespace kun::redissim {

std::string lower(std::string_view s);
bool iequals(std::string_view a, std::string_view b);
// Case-insensitive ordering for maps keyed by command or parameter names; transparent, so
// lookups take the name as typed without building a lower-case copy.
struct CaseLess {
  using is_transparent = void;
  bool operator()(std::string_view a, std::string_view b) const;
};

// Strict decimal integer, as Redis's string2ll: no spaces, no '+', no leading zeros.
std::optional<std::int64_t> parseInt(std::string_view s);
// "10mb", "1gb", "512": Redis's memory values (k = 1000, kb = 1024, ...).
std::optional<std::int64_t> parseMemory(std::string_view s);

// Redis's stringmatch: *, ?, [abc], [^a-z], backslash escapes.
bool globMatch(std::string_view pattern, std::string_view str, bool nocase);

// Bytes the command takes in the replication stream (RESP multibulk encoding).
std::int64_t respLength(const Argv& argv);

// "ERR wrong number of arguments for 'get' command"; name is lower-case, with '|' for a
// subcommand ("config|set").
RedisReply errArity(std::string_view name);
// "ERR unknown command 'foo', with args beginning with: 'a' 'b' "
RedisReply errUnknownCommand(const Argv& argv);
RedisReply errSyntax();
RedisReply ok();

RedisReply bulkArray(const std::vector<std::string>& items);
RedisReply intReply(std::int64_t v);
// A 40-character hex id (run ids, replication ids) from a random source.
std::string hexId(Random& rng);

}  // namespace kun::redissim
