#pragma once
// The operator's two outgoing seams, wrapped to feed OperatorMetrics: every API write by
// verb and resource, and every state-changing Redis/Sentinel command by name. The calls
// themselves pass through unchanged.
#include "core/kube/forwarding_client.h"
#include "core/operator/operator_metrics.h"
#include "core/redis/redis_admin.h"

namespace kun {

class MetricsKubeClient final : public ForwardingClient {
 public:
  MetricsKubeClient(KubeClient& inner, OperatorMetrics& metrics) : ForwardingClient(inner), metrics_(metrics) {}

 protected:
  void enter(std::string_view verb, const Resource& r, bool write) override;

 private:
  OperatorMetrics& metrics_;
};

class MetricsRedisAdmin final : public RedisAdmin {
 public:
  MetricsRedisAdmin(RedisAdmin& inner, OperatorMetrics& metrics) : inner_(inner), metrics_(metrics) {}
  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password = {}) override;

 private:
  RedisAdmin& inner_;
  OperatorMetrics& metrics_;
};

}  // namespace kun
