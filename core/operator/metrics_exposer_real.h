#pragma once
// Real mode only: serves an OperatorMetrics registry over HTTP at /metrics (prometheus-cpp's
// Exposer) for Prometheus to scrape. The simulator never starts one; it reads the registry.
#include <memory>
#include <string>

#include "core/operator/operator_metrics.h"
#include "core/runtime/result.h"

namespace prometheus {
class Exposer;
}

namespace kun {

class MetricsExposer {
 public:
  // addr as --metrics-addr takes it: "HOST:PORT", ":PORT" (every interface) or "PORT";
  // port 0 picks a free one. Invalid or Unavailable (cannot bind) as a value, never thrown.
  static Result<std::unique_ptr<MetricsExposer>> start(const std::string& addr, const OperatorMetrics& metrics);
  ~MetricsExposer();
  int port() const;  // the port it listens on

 private:
  explicit MetricsExposer(std::unique_ptr<prometheus::Exposer> e);
  std::unique_ptr<prometheus::Exposer> exposer_;
};

}  // namespace kun
