// kun-operator: parses its flags, starts serving its metrics at --metrics-addr, then would
// connect to the API server. The HTTP client is the seam that is still missing; until it
// exists this says so and exits 2, and the operator core (OperatorCore) runs inside the
// simulator (kun-sim). The OperatorMetrics made here is what OperatorSeams::metrics will
// be handed once there is a client to build the operator with.
#include <cstdio>
#include <string>
#include <vector>

#include "core/operator/metrics_exposer_real.h"
#include "core/operator/operator_flags.h"
#include "core/operator/operator_metrics.h"

int main(int argc, char** argv) {
  std::vector<std::string> args(argv + 1, argv + argc);
  auto flags = kun::parseOperatorFlags(args);
  if (!flags) {
    std::fprintf(stderr, "kun-operator: %s\nRun kun-operator --help for the options.\n",
                 flags.error().message.c_str());
    return 2;
  }
  if (flags->help) {
    std::fputs(kun::operatorUsage().c_str(), stdout);
    return 0;
  }
  kun::OperatorMetrics metrics;
  auto exposer = kun::MetricsExposer::start(flags->metricsAddr, metrics);
  if (!exposer) {
    std::fprintf(stderr, "kun-operator: %s\n", exposer.error().message.c_str());
    return 2;
  }
  std::fprintf(stderr, "kun-operator: metrics at http://%s/metrics (port %d)\n", flags->metricsAddr.c_str(),
               (*exposer)->port());
  std::fprintf(stderr,
               "kun-operator: the HTTP Kubernetes client is not built yet; run inside kun-sim "
               "(the operator core runs there against the simulated cluster).\n");
  return 2;
}
