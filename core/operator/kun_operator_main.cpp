// kun-operator: parses its flags, then would connect to the API server. The HTTP client is
// the seam that is still missing; until it exists this says so and exits 2, and the
// operator core (OperatorCore) runs inside the simulator (kun-sim).
#include <cstdio>
#include <string>
#include <vector>

#include "core/operator/operator_flags.h"

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
  std::fprintf(stderr,
               "kun-operator: the HTTP Kubernetes client is not built yet; run inside kun-sim "
               "(the operator core runs there against the simulated cluster).\n");
  return 2;
}
