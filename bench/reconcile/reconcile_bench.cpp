// Steady-state reconciles of a healthy RedisCluster against the in-process fakes (the real
// reconciler; the fake API server's caches; the Redis/Sentinel simulator answering its
// INFO and SENTINEL reads), virtual time standing still. Cost versus the cluster's size
// (redis pods; 3 sentinels) and versus how many other clusters the caches hold (see
// reconcile_bench_world.h for what those are). Counters: reconciles per second, and the
// API writes and state-changing Redis commands of the timed loop (both must be 0).
#include <benchmark/benchmark.h>

#include <memory>
#include <tuple>

#include "bench/reconcile/reconcile_bench_world.h"

namespace {

using kun::bench::ReconcileBenchWorld;

// Worlds are expensive (10,000 clusters take seconds to write): the current one is kept
// for the repetitions of its benchmark, and dropped for the next (each is measured with
// no other world's memory around).
ReconcileBenchWorld& worldFor(int size, int others, bool recheckConfig) {
  static std::tuple<int, int, bool> key{-1, -1, false};
  static std::unique_ptr<ReconcileBenchWorld> world;
  if (!world || key != std::tuple{size, others, recheckConfig}) {
    world.reset();
    world = std::make_unique<ReconcileBenchWorld>(size, others,
                                                  recheckConfig ? kun::Duration::zero() : kun::seconds(30));
    key = {size, others, recheckConfig};
  }
  return *world;
}

void run(benchmark::State& state, int size, int others, bool recheckConfig = false) {
  ReconcileBenchWorld& w = worldFor(size, others, recheckConfig);
  if (!w.error().empty()) {
    state.SkipWithError(w.error().c_str());
    return;
  }
  w.kube().reset();
  w.redis().reset();
  const std::string key = w.key();
  for (auto _ : state) {
    auto r = w.reconciler().reconcile(key);
    benchmark::DoNotOptimize(r);
  }
  state.counters["reconciles_per_s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
  state.counters["api_writes"] = static_cast<double>(w.kube().writes());
  state.counters["redis_state_changes"] = static_cast<double>(w.redis().stateChanging());
  state.counters["redis_cmds_per_reconcile"] =
      static_cast<double>(w.redis().total()) / static_cast<double>(std::max<benchmark::IterationCount>(state.iterations(), 1));
  if (w.kube().writes() || w.redis().stateChanging() || !w.healthy())
    state.SkipWithError("the healthy cluster's reconciles wrote something or it is no longer healthy");
}

void BM_ReconcileBySize(benchmark::State& state) { run(state, static_cast<int>(state.range(0)), 0); }
BENCHMARK(BM_ReconcileBySize)->ArgName("redis_pods")->Arg(3)->Arg(9)->Arg(33)->Arg(101)->Unit(benchmark::kMicrosecond);

// The same, with each node's config read back (CONFIG GET) on every pass, as the periodic
// recheck of a healthy cluster does; the others re-read it at most every 30 s.
void BM_ReconcileConfigReadEveryPass(benchmark::State& state) { run(state, static_cast<int>(state.range(0)), 0, true); }
BENCHMARK(BM_ReconcileConfigReadEveryPass)->ArgName("redis_pods")->Arg(3)->Unit(benchmark::kMicrosecond);

// Clusters in the caches in all, the bench cluster among them.
void BM_ReconcileByClusters(benchmark::State& state) { run(state, 3, static_cast<int>(state.range(0)) - 1); }
BENCHMARK(BM_ReconcileByClusters)
    ->ArgName("clusters")
    ->Arg(1)
    ->Arg(100)
    ->Arg(10000)
    ->Unit(benchmark::kMicrosecond);

}  // namespace
