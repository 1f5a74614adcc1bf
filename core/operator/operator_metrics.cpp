#include "core/operator/operator_metrics.h"

namespace kun {

namespace {

// Reconciles of a healthy cluster take tens of microseconds; a heal that waits on Redis
// or the API server, up to seconds.
prometheus::Histogram::BucketBoundaries durationBuckets() {
  return {0.00005, 0.0001, 0.00025, 0.0005, 0.001, 0.0025, 0.005, 0.01, 0.025, 0.05, 0.1, 0.25, 0.5, 1, 2.5, 5};
}

std::pair<std::string, std::string> splitKey(const std::string& key) {
  const auto slash = key.find('/');
  if (slash == std::string::npos) return {"", key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

}  // namespace

OperatorMetrics::OperatorMetrics(std::shared_ptr<prometheus::Registry> registry)
    : registry_(std::move(registry)),
      reconciles_(prometheus::BuildCounter()
                      .Name("kun_reconcile_total")
                      .Help("RedisCluster reconciles, by result (done, requeue, error)")
                      .Register(*registry_)),
      done_(reconciles_.Add({{"result", "done"}})),
      requeued_(reconciles_.Add({{"result", "requeue"}})),
      failed_(reconciles_.Add({{"result", "error"}})),
      errors_(prometheus::BuildCounter()
                  .Name("kun_reconcile_errors_total")
                  .Help("RedisCluster reconciles that failed and were retried with backoff")
                  .Register(*registry_)
                  .Add({})),
      duration_(prometheus::BuildHistogram()
                    .Name("kun_reconcile_duration_seconds")
                    .Help("Time one RedisCluster reconcile took")
                    .Register(*registry_)
                    .Add({}, durationBuckets())),
      apiWrites_(prometheus::BuildCounter()
                     .Name("kun_api_writes_total")
                     .Help("Requests the operator sent to change something in the Kubernetes API, by verb and resource")
                     .Register(*registry_)),
      redisChanges_(prometheus::BuildCounter()
                        .Name("kun_redis_state_changing_commands_total")
                        .Help("Commands the operator sent that change a Redis or Sentinel node, by command")
                        .Register(*registry_)),
      healthy_(prometheus::BuildGauge()
                   .Name("kun_cluster_healthy")
                   .Help("1 when the RedisCluster's last reconcile found it Healthy, else 0")
                   .Register(*registry_)) {}

void OperatorMetrics::reconciled(const ReconcileResult& r, Duration took) {
  if (r.isFailed()) {
    failed_.Increment();
    errors_.Increment();
  } else if (r.isRequeue()) {
    requeued_.Increment();
  } else {
    done_.Increment();
  }
  duration_.Observe(std::chrono::duration<double>(took).count());
}

void OperatorMetrics::apiWrite(std::string_view verb, std::string_view resource) {
  apiWrites_.Add({{"verb", std::string(verb)}, {"resource", std::string(resource)}}).Increment();
}

void OperatorMetrics::redisStateChange(const std::string& command) {
  redisChanges_.Add({{"command", command}}).Increment();
}

void OperatorMetrics::clusterHealth(const std::string& key, std::optional<bool> healthy) {
  std::lock_guard lock(mu_);
  auto it = healthyByKey_.find(key);
  if (!healthy) {
    if (it != healthyByKey_.end()) {
      healthy_.Remove(it->second);
      healthyByKey_.erase(it);
    }
    return;
  }
  if (it == healthyByKey_.end()) {
    const auto [ns, name] = splitKey(key);
    it = healthyByKey_.emplace(key, &healthy_.Add({{"namespace", ns}, {"name", name}})).first;
  }
  it->second->Set(*healthy ? 1 : 0);
}

}  // namespace kun
