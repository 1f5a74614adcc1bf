#include "core/operator/operator_flags.h"

#include <sstream>

#include <boost/program_options.hpp>

#include "core/runtime/log.h"

namespace kun {

namespace po = boost::program_options;

namespace {

po::options_description describeFlags(OperatorFlags& f) {
  po::options_description d("Options");
  d.add_options()
      ("help,h", po::bool_switch(&f.help), "print this help and exit")
      ("kubeconfig", po::value(&f.kubeconfig)->value_name("PATH"), "kubeconfig file of the cluster to manage")
      ("in-cluster", po::bool_switch(&f.inCluster), "use the pod's service account (running inside the cluster)")
      ("namespace", po::value(&f.ns)->value_name("NS"),
       "manage RedisClusters in NS that are NOT annotated redis.kun/scope: cluster-scoped; without it, manage "
       "those annotated cluster-scoped in every namespace")
      ("workers", po::value(&f.workers)->value_name("N")->default_value(1), "concurrent reconciles (>= 1)")
      ("metrics-addr", po::value(&f.metricsAddr)->value_name("HOST:PORT")->default_value(":8080"),
       "where to serve Prometheus metrics (http://HOST:PORT/metrics; :PORT = every interface)")
      ("leader-elect", po::bool_switch(&f.leaderElect),
       "take a coordination.k8s.io Lease so that only one replica acts at a time")
      ("log-level", po::value(&f.logLevel)->value_name("LEVEL")->default_value("info"), "debug, info, warn, error");
  return d;
}

bool validHostPort(const std::string& s) {
  const auto colon = s.rfind(':');
  if (colon == std::string::npos || colon + 1 == s.size()) return false;
  const std::string port = s.substr(colon + 1);
  if (port.size() > 5 || port.find_first_not_of("0123456789") != std::string::npos) return false;
  const int p = std::stoi(port);
  return p > 0 && p < 65536;
}

}  // namespace

Result<OperatorFlags> parseOperatorFlags(const std::vector<std::string>& args) {
  OperatorFlags f;
  po::options_description d = describeFlags(f);
  try {
    po::variables_map vm;
    po::store(po::command_line_parser(args).options(d).run(), vm);
    po::notify(vm);
  } catch (const po::error_with_option_name& e) {
    return makeError(Reason::Invalid, e.what(), e.get_option_name());
  } catch (const po::error& e) {
    return makeError(Reason::Invalid, e.what());
  }
  if (f.help) return f;
  if (!f.kubeconfig.empty() && f.inCluster)
    return makeError(Reason::Invalid, "--kubeconfig and --in-cluster are alternatives; give one", "--in-cluster");
  if (f.workers < 1) return makeError(Reason::Invalid, "--workers must be at least 1", "--workers");
  if (!validHostPort(f.metricsAddr))
    return makeError(Reason::Invalid, "--metrics-addr must be HOST:PORT or :PORT, e.g. :8080", "--metrics-addr");
  LogLevel lvl;
  if (!parseLogLevel(f.logLevel, lvl))
    return makeError(Reason::Invalid, "--log-level must be debug, info, warn or error", "--log-level");
  return f;
}

std::string operatorUsage() {
  OperatorFlags f;
  std::ostringstream out;
  out << "Usage: kun-operator [options]\n\n"
         "A Kubernetes operator for Redis in Sentinel mode (RedisCluster, redis.kun/v1beta1).\n\n"
      << describeFlags(f)
      << "\nStatus: the HTTP Kubernetes client is not built yet, so kun-operator cannot talk to a\n"
         "real API server; it checks its flags, starts the metrics endpoint and exits with\n"
         "status 2. The same operator core runs inside the simulator: use kun-sim.\n";
  return out.str();
}

}  // namespace kun
