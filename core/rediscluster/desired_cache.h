#pragma once
// Generating a cluster's objects builds a dozen JSON documents; a steady-state reconcile
// should not pay for that. The objects are a pure function of the options and of the
// stored cluster's spec, apiVersion, name, namespace, uid and labels. The spec moves
// metadata.generation (the CRD has a status subresource); name, namespace and uid never
// change; labels are compared. So they are kept per cluster uid and regenerated only when
// (generation, labels, apiVersion, options) differ — not on the operator's own status
// writes, which move the resourceVersion only. A cluster without a uid or a generation
// (built in code) is never cached.
//
// Thread-safe: the reconciler's workers use one cache for different clusters at once. The
// lock covers the lookup and the store, not the generation in between; two calls for the
// same uid at once (the reconciler never makes them) would both generate, and the later
// store wins.
#include <atomic>
#include <cstdint>
#include <map>
#include <memory>
#include <mutex>
#include <optional>
#include <string>
#include <vector>

#include "core/api/object.h"
#include "core/rediscluster/generate.h"

namespace kun::rediscluster {

class DesiredCache {
 public:
  using Objects = std::shared_ptr<const std::vector<DesiredObject>>;

  // desiredObjects(rc, opts), generated or remembered.
  Objects get(const api::RedisCluster& rc, const GenerateOptions& opts = {});
  // Drop a deleted cluster's entry.
  void forget(const std::string& uid);
  std::size_t size() const;
  // Regenerations, for tests and metrics.
  std::uint64_t generated() const { return generated_.load(std::memory_order_relaxed); }

 private:
  struct Entry {
    std::int64_t generation = 0;
    Object labels;
    std::string apiVersion;
    PdbVersion pdbVersion;
    std::optional<std::int32_t> redisReplicas;
    std::string previousPassword;
    Objects objects;
  };
  mutable std::mutex mu_;  // guards entries_
  std::map<std::string, Entry> entries_;  // by uid
  std::atomic<std::uint64_t> generated_{0};
};

}  // namespace kun::rediscluster
