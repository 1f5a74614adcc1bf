#include "core/operator/metrics_exposer_real.h"

#include <prometheus/exposer.h>

#include <exception>

namespace kun {

MetricsExposer::MetricsExposer(std::unique_ptr<prometheus::Exposer> e) : exposer_(std::move(e)) {}
MetricsExposer::~MetricsExposer() = default;

Result<std::unique_ptr<MetricsExposer>> MetricsExposer::start(const std::string& addr, const OperatorMetrics& metrics) {
  const auto colon = addr.rfind(':');
  const std::string host = colon == std::string::npos ? std::string() : addr.substr(0, colon);
  const std::string port = colon == std::string::npos ? addr : addr.substr(colon + 1);
  if (port.empty() || port.find_first_not_of("0123456789") != std::string::npos || port.size() > 5 ||
      std::stoi(port) > 65535)
    return makeError(Reason::Invalid, "--metrics-addr: want HOST:PORT or :PORT, got '" + addr + "'");
  // civetweb (under the Exposer) takes "PORT" for every interface or "IP:PORT".
  const std::string bind = host.empty() ? port : host + ":" + port;
  try {
    auto e = std::make_unique<prometheus::Exposer>(bind);
    e->RegisterCollectable(metrics.registry());
    return std::unique_ptr<MetricsExposer>(new MetricsExposer(std::move(e)));
  } catch (const std::exception& ex) {
    // The Exposer throws when it cannot listen; the seam hands errors back as values.
    return makeError(Reason::Unavailable, "--metrics-addr " + addr + ": cannot listen: " + ex.what());
  }
}

int MetricsExposer::port() const {
  const auto ports = exposer_->GetListeningPorts();
  return ports.empty() ? 0 : ports.front();
}

}  // namespace kun
