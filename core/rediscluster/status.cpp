#include "core/rediscluster/status.h"

#include <array>

#include "core/api/redis_cluster_status_write.h"
#include "core/kube/resource.h"
#include "core/kube/status_update_body.h"

namespace kun::rediscluster {

namespace {
constexpr std::array<ClusterPhase, 5> kPhases = {ClusterPhase::Creating, ClusterPhase::Healthy, ClusterPhase::Updating,
                                                 ClusterPhase::Scaling, ClusterPhase::Recovering};
}  // namespace

api::RedisClusterStatus nextStatus(const api::RedisClusterStatus& current, const StatusReport& report,
                                   const std::string& now) {
  api::RedisClusterStatus s = current;
  if (report.phase) {
    for (ClusterPhase p : kPhases)
      if (p != *report.phase) clearCondition(s, conditionTypeOf(p), now);
    setCondition(s, conditionTypeOf(*report.phase), true, report.reason, report.message, now);
  }
  if (report.failed)
    setCondition(s, conditions::kFailed, true, report.failedReason, report.failedMessage, now);
  else
    clearCondition(s, conditions::kFailed, now);
  if (report.masterIP) s.masterIP = *report.masterIP;
  if (report.sentinelIP) s.sentinelIP = *report.sentinelIP;
  s.observedGeneration = report.observedGeneration;
  return s;
}

namespace {

// The stored cluster's status object ({} when it has none).
const Object& storedStatus(const api::RedisCluster& stored) {
  static const Object kEmpty = Object::object();
  if (stored.original) {
    if (const Object* s = memberOf(*stored.original, "status"); s && s->is_object()) return *s;
  }
  return kEmpty;
}

// next is its stored original (the stored status itself) to the letter: no JSON built.
bool readsBackAsStored(const api::RedisCluster& stored, const api::RedisClusterStatus& next) {
  return next.original && next.original.get() == &storedStatus(stored) && api::statusReadsBack(next);
}

}  // namespace

bool statusUnchanged(const api::RedisCluster& stored, const api::RedisClusterStatus& next) {
  return readsBackAsStored(stored, next) || api::toObject(next) == storedStatus(stored);
}

Result<bool> writeStatusIfChanged(KubeClient& client, const api::RedisCluster& stored,
                                  const api::RedisClusterStatus& next) {
  if (readsBackAsStored(stored, next)) return false;
  Object status = api::toObject(next);  // once: compared, then written
  if (status == storedStatus(stored)) return false;
  // Only status and the object's identity and version (statusUpdateBody): the store keeps
  // the rest as stored.
  Object o;
  if (stored.original) {
    o = statusUpdateBody(*stored.original, std::move(status));
  } else {
    o = api::toObject(stored);
    o["status"] = std::move(status);
  }
  auto written = client.updateStatusShared(res::redisclusters, std::move(o));
  if (!written) return written.error();
  return true;
}

}  // namespace kun::rediscluster
