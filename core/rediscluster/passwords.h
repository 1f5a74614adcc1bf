#pragma once
// The passwords a reconcile tries on the nodes, and keeping them out of every text the
// operator writes (Events, conditions, logs).
#include <string>
#include <string_view>
#include <vector>

#include "core/api/redis_cluster_types.h"
#include "core/rediscluster/live_objects.h"
#include "core/rediscluster/observe.h"

namespace kun::rediscluster {

// The password in the cached auth Secret (what the pods were last given), or "" when the
// Secret has none or is not cached.
std::string passwordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster);
// The password a change in progress replaces, as the cached auth Secret records it ("" when
// no change is in progress or the Secret is not cached).
std::string previousPasswordInSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster);

// Both passwords the cached auth Secret holds, read with one look-up: the cached Secret
// (null when it is not cached or the cache is not synced) and what it decodes to. A
// reconcile keeps this while the cache holds the same Secret object.
struct SecretPasswords {
  ObjectPtr secret;
  std::string current;   // passwordInSecret
  std::string previous;  // previousPasswordInSecret
};
SecretPasswords secretPasswords(const LiveObjects& live, std::string_view ns, std::string_view cluster);
// The cached auth Secret (null: not cached, or the cache not synced).
ObjectPtr authSecret(const LiveObjects& live, std::string_view ns, std::string_view cluster);
// The passwords a Secret object holds (what secretPasswords reads from it).
SecretPasswords passwordsIn(ObjectPtr secret);

// For observe() and heal(): spec.password first, then the password the live Secret still
// holds, then the previous one it records, then `remembered` (one this process saw
// before, if any), then "" (no password): during a change some nodes answer to the old
// one. Duplicates removed, order kept.
std::vector<std::string> candidatePasswords(const api::RedisCluster& rc, const LiveObjects& live,
                                            const std::string& remembered = {});
// The same from the Secret's passwords read before.
std::vector<std::string> candidatePasswords(const api::RedisCluster& rc, const SecretPasswords& inSecret,
                                            const std::string& remembered = {});

// The password the auth Secret keeps as previous-password beside spec.password. A change
// starts when the spec's password differs from the Secret's: the Secret's is then the one
// the nodes have — unless a change before had not reached them yet: then the older one the
// Secret keeps, while a node still answers to it or one is out of reach and may (a master
// hung through both changes held the only data: --seed 1301 below) (kept the newer one, the Secret named
// neither password the nodes had, and no pass could reach them again: kun-sim prop
// --vary-cluster --seed 346 --minutes 1). It is kept until every redis pod of the view
// answers to the current password, so an operator restarted in between reads it back from
// the Secret; a pod that cannot be reached may still have it: kept too. `view` was observed
// with `passwords`.
std::string passwordToKeep(const api::RedisCluster& rc, const ClusterView& view, const SecretPasswords& inSecret,
                           const std::vector<std::string>& passwords);

// text with every non-empty secret replaced by "***" (longest first, so a password that
// contains another is hidden whole).
std::string redact(std::string_view text, const std::vector<std::string>& secrets);

}  // namespace kun::rediscluster
