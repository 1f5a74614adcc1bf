#pragma once
// The configuration files the pods boot from: redis.conf (ConfigMap redis-cluster-<name>),
// auth.conf (Secret redis-auth-<name>, included by redis.conf) and sentinel.conf
// (ConfigMap redis-sentinel-<name>).
//
// Values are written as the tokens Redis' config parser (sdssplitargs) reads back: a token
// with a quote, a backslash or a control character, and an empty value, is double-quoted
// with escapes, so no value can end a line or add a directive, whatever validation let
// through.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/api/redis_cluster_types.h"

namespace kun::rediscluster {

// One token as redis.conf spells it: bare when it can be, else "..." with \\ \" \xHH.
std::string configToken(std::string_view token);

// The lines for one spec.config entry. A value is split into tokens on spaces; "save" is
// written one "save <seconds> <changes>" line per pair and client-output-buffer-limit one
// line per class, as Redis before 6.2 accepts them in a file; an empty value is `key ""`.
std::vector<std::string> redisConfigLines(std::string_view key, std::string_view value);

// redis.conf for the (defaulted) spec: the operator's lines (boot as a replica of
// 127.0.0.1:6379 with replica-priority 0, data in /data, keepalive), spec.config in key
// order but for the replica priority (healConfig sets it once the node is in sync), and
// last an include of the auth file. It never contains the password.
std::string renderRedisConf(const api::RedisClusterSpec& spec);

// auth.conf: "masterauth" and "requirepass" with the password quoted, or only a comment
// when there is no password (the file always exists, so redis.conf can always include it
// and setting a password later changes the Secret alone).
std::string renderAuthConf(std::string_view password);

// The quorum the sentinels use: a majority of spec.sentinel.replicas.
std::int32_t sentinelQuorum(std::int32_t sentinelReplicas);

// sentinel.conf: KUN's, monitoring a placeholder master at 127.0.0.1:6379 until the
// operator points the sentinels at the real one (SENTINEL MONITOR, then auth-pass and
// spec.sentinel.customConfig with SENTINEL SET — none of which is ever written here).
std::string renderSentinelConf(std::int32_t sentinelReplicas);

}  // namespace kun::rediscluster
