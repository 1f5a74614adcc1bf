#pragma once
// The keys a Sentinel lists for an instance (SENTINEL MASTER, MASTERS, REPLICAS, SENTINELS),
// in the order redis-sentinel 7.0 lists them (addReplySentinelRedisInstance): the common
// ones, then a master's, a replica's and a sentinel's own. An instance lists a subset, in
// this order. One table for the sender and the reader: the simulator hands a field over by
// its index here (SentinelFieldSink::fieldAt), which the reader stores without a compare.
#include <cstddef>
#include <cstdint>

#include "core/redis/key_table.h"

namespace kun {

inline constexpr KeyTable kSentinelKeys({
    // every instance
    "name", "ip", "port", "runid", "flags", "link-pending-commands", "link-refcount", "failover-state",
    "last-ping-sent", "last-ok-ping-reply", "last-ping-reply", "s-down-time", "o-down-time",
    "down-after-milliseconds",
    // masters and replicas
    "info-refresh", "role-reported", "role-reported-time",
    // masters
    "config-epoch", "num-slaves", "num-other-sentinels", "quorum", "failover-timeout", "parallel-syncs",
    // replicas
    "master-link-down-time", "master-link-status", "master-host", "master-port", "slave-priority",
    "slave-repl-offset", "replica-announced",
    // sentinels
    "last-hello-message", "voted-leader", "voted-leader-epoch",
});

// A set of kSentinelKeys, bit i for the key at index i.
using SentinelKeySet = std::uint64_t;
static_assert(kSentinelKeys.size() <= 64, "a SentinelKeySet holds every key");
inline constexpr SentinelKeySet kAllSentinelKeys = ~SentinelKeySet{0};

constexpr SentinelKeySet sentinelKeyBit(std::size_t key) { return SentinelKeySet{1} << key; }

}  // namespace kun
