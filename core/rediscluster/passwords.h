#pragma once
// The passwords a reconcile tries on the nodes, and keeping them out of every text the
// operator writes (Events, conditions, logs).
#include <string>
#include <string_view>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/live_objects.h"

namespace kun::rediscluster {

// The password in the cached auth Secret (what the pods were last given), or "" when the
// Secret has none or is not cached.
std::string passwordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster);
// The password a change in progress replaces, as the cached auth Secret records it ("" when
// no change is in progress or the Secret is not cached).
std::string previousPasswordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster);

// For observe() and heal(): spec.password first, then the password the live Secret still
// holds, then the previous one it records, then `remembered` (one this process saw
// before, if any), then "" (no password): during a change some nodes answer to the old
// one. Duplicates removed, order kept.
std::vector<std::string> candidatePasswords(const api::RedisCluster& rc, const LiveObjects& live,
                                            const std::string& remembered = {});

// text with every non-empty secret replaced by "***" (longest first, so a password that
// contains another is hidden whole).
std::string redact(std::string_view text, const std::vector<std::string>& secrets);

}  // namespace kun::rediscluster
