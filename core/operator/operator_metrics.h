#pragma once
// The operator's Prometheus metrics, in one registry that the simulator and the real
// binary share the same way: the simulator (and its tests) read the registry after a run;
// kun-operator serves it at --metrics-addr (metrics_exposer_real.h). Nothing here starts
// a server or reads a clock: durations come from the caller's EventLoop (virtual time in a
// simulation, where a reconcile takes no time).
//
//   kun_reconcile_total{result}                 done | requeue | error
//   kun_reconcile_errors_total                  reconciles that failed (backed off)
//   kun_reconcile_duration_seconds              histogram
//   kun_api_writes_total{verb,resource}         create/update/updateStatus/patch/delete
//   kun_redis_state_changing_commands_total{command}   "CONFIG SET", "REPLICAOF", ...
//   kun_cluster_healthy{namespace,name}         1 Healthy, 0 not (gone once deleted)
//
// Counters and gauges are atomic: worker threads may update them at once.
#include <map>
#include <memory>
#include <mutex>
#include <string>
#include <string_view>

#include <prometheus/counter.h>
#include <prometheus/family.h>
#include <prometheus/gauge.h>
#include <prometheus/histogram.h>
#include <prometheus/registry.h>

#include "core/controller/reconcile_result.h"
#include "core/runtime/time.h"

namespace kun {

class OperatorMetrics {
 public:
  explicit OperatorMetrics(std::shared_ptr<prometheus::Registry> registry = std::make_shared<prometheus::Registry>());
  OperatorMetrics(const OperatorMetrics&) = delete;
  OperatorMetrics& operator=(const OperatorMetrics&) = delete;

  const std::shared_ptr<prometheus::Registry>& registry() const { return registry_; }

  void reconciled(const ReconcileResult& r, Duration took);
  void apiWrite(std::string_view verb, std::string_view resource);
  void redisStateChange(const std::string& command);
  // key "namespace/name"; healthy unset: the cluster is gone, its series is removed.
  void clusterHealth(const std::string& key, std::optional<bool> healthy);

 private:
  std::shared_ptr<prometheus::Registry> registry_;
  prometheus::Family<prometheus::Counter>& reconciles_;
  prometheus::Counter& done_;
  prometheus::Counter& requeued_;
  prometheus::Counter& failed_;
  prometheus::Counter& errors_;
  prometheus::Histogram& duration_;
  prometheus::Family<prometheus::Counter>& apiWrites_;
  prometheus::Family<prometheus::Counter>& redisChanges_;
  prometheus::Family<prometheus::Gauge>& healthy_;
  std::mutex mu_;  // guards healthyByKey_ (the families lock themselves)
  std::map<std::string, prometheus::Gauge*> healthyByKey_;
};

}  // namespace kun
