// OperatorMetrics as the simulator reads it (the registry's values) and as Prometheus
// scrapes it in real mode (the Exposer over loopback HTTP).
#include <gtest/gtest.h>

#include <boost/asio.hpp>

#include "core/operator/metrics_clients.h"
#include "core/operator/metrics_exposer_real.h"
#include "core/operator/operator_metrics.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"
#include "tests/support/metric_value.h"

namespace kun {
namespace {

using test::metricValue;

TEST(OperatorMetrics, CountsReconcilesWritesCommandsAndHealth) {
  OperatorMetrics m;
  m.reconciled(ReconcileResult::done(), milliseconds(2));
  m.reconciled(ReconcileResult::requeueAfter(seconds(1)), milliseconds(1));
  m.reconciled(ReconcileResult::failed(makeError(Reason::Conflict, "x")), milliseconds(1));
  const auto& reg = *m.registry();
  EXPECT_EQ(metricValue(reg, "kun_reconcile_total", {{"result", "done"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_reconcile_total", {{"result", "requeue"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_reconcile_total", {{"result", "error"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_reconcile_errors_total"), 1);
  EXPECT_EQ(metricValue(reg, "kun_reconcile_duration_seconds"), 3);

  // Writes through the metered client, by verb and resource; reads are not counted.
  SimLoop loop;
  FakeStore store{loop};
  MetricsKubeClient kube{store, m};
  Object cm{{"apiVersion", "v1"}, {"kind", "ConfigMap"}, {"metadata", {{"name", "c"}, {"namespace", "default"}}}};
  ASSERT_TRUE(kube.create(res::configmaps, cm).ok());
  ASSERT_TRUE(kube.get(res::configmaps, "default", "c").ok());
  ASSERT_TRUE(kube.remove(res::configmaps, "default", "c").ok());
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total", {{"verb", "create"}, {"resource", "configmaps"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total", {{"verb", "delete"}, {"resource", "configmaps"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_api_writes_total", {{"verb", "get"}}), -1);

  m.redisStateChange("CONFIG SET");
  m.redisStateChange("CONFIG SET");
  EXPECT_EQ(metricValue(reg, "kun_redis_state_changing_commands_total", {{"command", "CONFIG SET"}}), 2);

  m.clusterHealth("default/a", true);
  m.clusterHealth("default/b", false);
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"namespace", "default"}, {"name", "a"}}), 1);
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"namespace", "default"}, {"name", "b"}}), 0);
  m.clusterHealth("default/a", false);
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"name", "a"}}), 0);
  m.clusterHealth("default/a", std::nullopt);  // deleted: the series goes
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"name", "a"}}), -1);
  EXPECT_EQ(metricValue(reg, "kun_cluster_healthy", {{"name", "b"}}), 0);
}

TEST(MetricsExposer, ServesTheRegistryOverHttp) {
  OperatorMetrics m;
  m.reconciled(ReconcileResult::done(), milliseconds(1));
  m.clusterHealth("default/a", true);
  auto e = MetricsExposer::start("127.0.0.1:0", m);
  ASSERT_TRUE(e.ok()) << e.error().toString();
  ASSERT_GT((*e)->port(), 0);
  boost::asio::io_context io;
  boost::asio::ip::tcp::socket sock(io);
  sock.connect({boost::asio::ip::make_address("127.0.0.1"), static_cast<unsigned short>((*e)->port())});
  const std::string req = "GET /metrics HTTP/1.0\r\nHost: localhost\r\n\r\n";
  boost::asio::write(sock, boost::asio::buffer(req));
  std::string body;
  boost::system::error_code ec;
  char buf[4096];
  for (;;) {
    const std::size_t n = sock.read_some(boost::asio::buffer(buf), ec);
    body.append(buf, n);
    if (ec) break;
  }
  EXPECT_NE(body.find("200 OK"), std::string::npos) << body.substr(0, 200);
  EXPECT_NE(body.find("kun_reconcile_total{result=\"done\"} 1"), std::string::npos) << body;
  EXPECT_NE(body.find("kun_cluster_healthy{name=\"a\",namespace=\"default\"} 1"), std::string::npos) << body;
}

TEST(MetricsExposer, ABadAddressIsAnErrorNotAThrow) {
  OperatorMetrics m;
  EXPECT_EQ(MetricsExposer::start("localhost:notaport", m).error().reason, Reason::Invalid);
}

}  // namespace
}  // namespace kun
