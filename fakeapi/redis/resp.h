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
// A command or subcommand name in lower case, as a view: into buf when it fits (every
// name a command table holds does), without a string per request; else into spill.
struct LowerName {
  char buf[24];
  std::string spill;
  std::string_view of(std::string_view s);
};
// ASCII case-insensitive equality. Inline: most callers compare with a literal, whose
// length then rejects most names before the loop; bytes equal as they are skip the
// lowering.
inline bool iequals(std::string_view a, std::string_view b) {
  if (a.size() != b.size()) return false;
  for (std::size_t i = 0; i < a.size(); ++i) {
    const unsigned x = static_cast<unsigned char>(a[i]), y = static_cast<unsigned char>(b[i]);
    if (x == y) continue;
    // Different bytes are equal ignoring case only as the two cases of one letter.
    const unsigned lx = x | 0x20u;
    if (lx != (y | 0x20u) || lx < 'a' || lx > 'z') return false;
  }
  return true;
}
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
// The same of a command held as a stream entry's elements (their str).
std::int64_t respLength(const std::vector<RedisReply>& command);

// "ERR wrong number of arguments for 'get' command"; name is lower-case, with '|' for a
// subcommand ("config|set").
RedisReply errArity(std::string_view name);
// "ERR unknown command 'foo', with args beginning with: 'a' 'b' "
RedisReply errUnknownCommand(const Argv& argv);
RedisReply errSyntax();
RedisReply ok();

RedisReply bulkArray(const std::vector<std::string>& items);
RedisReply intReply(std::int64_t v);
// INFO server's opening lines and its lines about the host, the same for redis-server
// and redis-sentinel (redis_mode comes between them).
inline constexpr std::string_view kInfoServerHead =
    "# Server\r\n"
    "redis_version:7.0.15\r\n"
    "redis_git_sha1:00000000\r\n"
    "redis_git_dirty:0\r\n"
    "redis_build_id:ae4d7c971a948f0\r\n";
inline constexpr std::string_view kInfoServerHost =
    "os:Linux 5.15.0 x86_64\r\n"
    "arch_bits:64\r\n"
    "monotonic_clock:POSIX clock_gettime\r\n"
    "multiplexing_api:epoll\r\n"
    "atomicvar_api:c11-builtin\r\n"
    "gcc_version:12.2.0\r\n";

// A 40-character hex id (run ids, replication ids) from a random source.
std::string hexId(Random& rng);

}  // namespace kun::redissim
