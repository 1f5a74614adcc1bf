#pragma once
// What a container runs, from its command line and config file: the redis-server or
// redis-sentinel process options. Pure functions of the text, so they are tested alone.
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/runtime/result.h"
#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/sentinel_node.h"
#include "fakeapi/world/config_text.h"

namespace kun::sim {

struct ProcessCommand {
  bool sentinel = false;
  std::string configFile;                // "" when the command line names none
  std::vector<ConfigDirective> options;  // "--name args..." after it, applied after the file
};

// command + args of a container: `redis-server [FILE] [--name args...] [--sentinel]` or
// `redis-sentinel [FILE] [...]` (any directory prefix). No command: the image's default,
// a redis-server without a config file. Invalid for any other program.
Result<ProcessCommand> parseCommand(const Object& container);

// The last value a directive was given ("" when never).
std::string lastValue(const std::vector<ConfigDirective>& dirs, std::string_view name);

// redis.conf directives as RedisNodeOptions: port, and every directive as a config entry
// (several "save" lines add up, as in a file; `save ""` clears them).
void applyRedisDirectives(const std::vector<ConfigDirective>& dirs, redissim::RedisNodeOptions& opts);

// sentinel.conf directives as SentinelOptions: port, "sentinel monitor" and the per-master
// settings (down-after-milliseconds, failover-timeout, parallel-syncs, auth-pass). A setting
// for a master not monitored before it, or a malformed number, is Invalid (Sentinel refuses
// to start).
Status applySentinelDirectives(const std::vector<ConfigDirective>& dirs, redissim::SentinelOptions& opts);

}  // namespace kun::sim
