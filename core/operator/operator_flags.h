#pragma once
// The kun-operator command line, parsed into values (errors are values naming the flag).
#include <string>
#include <vector>

#include "core/runtime/result.h"

namespace kun {

struct OperatorFlags {
  std::string kubeconfig;   // --kubeconfig PATH
  bool inCluster = false;   // --in-cluster: the pod's service account
  std::string ns;           // --namespace NS ("" = cluster-scoped)
  int workers = 1;          // --workers N (>= 1)
  std::string metricsAddr = ":8080";  // --metrics-addr HOST:PORT
  bool leaderElect = false;           // --leader-elect
  std::string logLevel = "info";      // --log-level
  bool help = false;
};

// args without the program name. Invalid (field = the flag) on unknown flags, missing or
// malformed values, --kubeconfig together with --in-cluster, workers < 1.
Result<OperatorFlags> parseOperatorFlags(const std::vector<std::string>& args);

// The --help text.
std::string operatorUsage();

}  // namespace kun
