// How fast the Redis/Sentinel simulator runs: virtual seconds simulated per wall second for
// 1 master + 2 replicas + 3 sentinels, idle and under 1,000 writes/s, and the memory a
// simulated node costs. Counters: x_realtime = virtual seconds per wall second;
// events_per_s = loop events per wall second; bytes_per_node.
#include <benchmark/benchmark.h>

#include <malloc.h>
#include <memory>
#include <string>

#include "chaos/network/network_model.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/redis/sim_client.h"
#include "fakeapi/redis/topology.h"

namespace {

using namespace kun;
using namespace kun::redissim;

struct World {
  explicit World(std::uint64_t seed)
      : rng(seed), net(loop, rng.fork("net"), &trace), sim(loop, net, rng.fork("redis"), &trace),
        topo(sim, TopologyOptions{}) {
    loop.runUntil([&] { return topo.converged() && topo.sentinelListsExact(); }, loop.now() + seconds(60));
    loop.runFor(seconds(10));
  }
  SimLoop loop;
  Trace trace;
  Random rng;
  NetworkModel net;
  RedisSim sim;
  Topology topo;
};

void report(benchmark::State& state, double virtualSeconds, std::uint64_t events) {
  state.counters["x_realtime"] = benchmark::Counter(virtualSeconds, benchmark::Counter::kIsRate);
  state.counters["events_per_s"] = benchmark::Counter(static_cast<double>(events), benchmark::Counter::kIsRate);
}

void BM_IdleCluster(benchmark::State& state) {
  World w(1);
  const auto chunk = seconds(60);
  std::uint64_t events0 = w.loop.eventsRun();
  double simulated = 0;
  for (auto _ : state) {
    w.loop.runFor(chunk);
    simulated += 60.0;
  }
  report(state, simulated, w.loop.eventsRun() - events0);
}
BENCHMARK(BM_IdleCluster)->Unit(benchmark::kMillisecond)->MinTime(3.0);

// A client writes SET every millisecond through the network model (1,000 writes/s).
class Writer {
 public:
  Writer(SimLoop& loop, SimClient& client, RedisEndpoint to) : loop_(loop), client_(client), to_(std::move(to)) {}
  void start() { tick(); }
  std::uint64_t acked() const { return acked_; }

 private:
  void tick() {
    loop_.runAfter(milliseconds(1), [this] { tick(); });
    std::string k = "k";
    k += std::to_string(n_++ % 10000);
    client_.command(to_, {"SET", k, "value"}, [this](Result<RedisReply> r) {
      if (r && r->isOk()) ++acked_;
    });
  }
  SimLoop& loop_;
  SimClient& client_;
  RedisEndpoint to_;
  std::uint64_t n_ = 0, acked_ = 0;
};

void BM_ClusterUnder1000WritesPerSecond(benchmark::State& state) {
  World w(2);
  SimClient client(w.sim.fabric(), "10.0.9.1", milliseconds(250), milliseconds(250));
  Writer writer(w.loop, client, Topology::redisEp(0));
  writer.start();
  w.loop.runFor(seconds(5));
  const std::uint64_t acked0 = writer.acked();
  std::uint64_t events0 = w.loop.eventsRun();
  double simulated = 0;
  for (auto _ : state) {
    w.loop.runFor(seconds(10));
    simulated += 10.0;
  }
  report(state, simulated, w.loop.eventsRun() - events0);
  state.counters["writes_per_virtual_s"] = static_cast<double>(writer.acked() - acked0) / simulated;
}
BENCHMARK(BM_ClusterUnder1000WritesPerSecond)->Unit(benchmark::kMillisecond)->MinTime(3.0);

// Heap bytes in use (glibc): what the simulation allocated, independent of what the
// allocator keeps cached from earlier benchmarks.
std::int64_t heapInUse() { return static_cast<std::int64_t>(mallinfo2().uordblks); }

// 50 independent 1+2+3 layouts in one simulation, 30 virtual seconds in: heap per
// simulated process (its state, connections, the events it has queued).
void BM_MemoryPerNode(benchmark::State& state) {
  for (auto _ : state) {
    state.PauseTiming();
    const std::int64_t before = heapInUse();
    state.ResumeTiming();
    SimLoop loop;
    Trace trace;
    Random rng(3);
    NetworkModel net(loop, rng.fork("net"), &trace);
    RedisSim sim(loop, net, rng.fork("redis"), &trace);
    std::vector<std::unique_ptr<Topology>> layouts;
    constexpr int kLayouts = 50;
    // Each layout on its own addresses: shift by rewriting nothing — build by hand.
    for (int l = 0; l < kLayouts; ++l) {
      const std::string base = "10." + std::to_string(1 + l / 200) + "." + std::to_string(l % 200) + ".";
      for (int i = 0; i < 3; ++i) {
        RedisNodeOptions o;
        o.ip = base + std::to_string(i + 1);
        if (i > 0) o.config = {{"replicaof", base + "1 6379"}};
        sim.addRedis(std::move(o));
      }
      for (int i = 0; i < 3; ++i) {
        SentinelOptions so;
        so.ip = base + std::to_string(10 + i);
        SentinelMasterConfig mc;
        mc.name = "mymaster";
        mc.host = base + "1";
        mc.downAfterMs = 5000;
        so.monitors.push_back(mc);
        sim.addSentinel(std::move(so));
      }
    }
    loop.runFor(seconds(30));
    state.PauseTiming();
    const std::int64_t after = heapInUse();
    state.counters["bytes_per_node"] = static_cast<double>(after - before) / (kLayouts * 6);
    state.counters["nodes"] = kLayouts * 6;
    state.ResumeTiming();
  }
}
BENCHMARK(BM_MemoryPerNode)->Unit(benchmark::kMillisecond)->Iterations(1);

}  // namespace
