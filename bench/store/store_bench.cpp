// The fake API store's hot paths: get, update of a 2 KB object, selective list over 10k and
// 100k objects, and one update fanned out to 100 watchers. Figures in bench/RESULTS.md.
#include <benchmark/benchmark.h>

#include <chrono>
#include <memory>
#include <string>
#include <vector>

#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

// A pod-like object of about 2 KB serialised: labels, annotations, two containers with env.
Object twoKilobytePod(const std::string& name) {
  Object env = Object::array();
  for (int i = 0; i < 12; ++i)
    env.push_back(Object{{"name", "REDIS_SETTING_" + std::to_string(i)}, {"value", "value-" + std::to_string(i * 7919)}});
  auto container = [&](const std::string& n, int port) {
    return Object{{"name", n},
                  {"image", "redis:7.2.4"},
                  {"ports", Object::array({Object{{"containerPort", port}, {"protocol", "TCP"}}})},
                  {"env", env},
                  {"resources", {{"requests", {{"cpu", "100m"}, {"memory", "128Mi"}}}, {"limits", {{"memory", "256Mi"}}}}}};
  };
  Object pod{{"metadata",
              {{"name", name},
               {"namespace", "default"},
               {"labels", {{"app.kubernetes.io/name", "redis"}, {"redis.kun/cluster", "demo"}, {"role", "replica"}}},
               {"annotations", {{"kun.io/config-hash", "5f3c9a1e"}}}}},
             {"spec",
              {{"nodeName", "node-1"},
               {"containers", Object::array({container("redis", 6379), container("sentinel", 26379)})}}}};
  return pod;
}

struct Fixture {
  explicit Fixture(std::size_t window = FakeStoreOptions{}.historyWindow) : store(loop, nullptr, options(window)) {}
  static FakeStoreOptions options(std::size_t window) {
    FakeStoreOptions o;
    o.historyWindow = window;
    return o;
  }
  SimLoop loop;
  FakeStore store;
};

// Reads through the seam (KubeClient&), as the operator makes them.
void BM_Get(benchmark::State& state) {
  Fixture f;
  KubeClient& client = f.store;
  const Object pod = twoKilobytePod("web-0");
  if (!client.create(res::pods, pod).ok()) state.SkipWithError("create failed");
  for (auto _ : state) {
    auto r = client.get(res::pods, "default", "web-0");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
  state.counters["object_bytes"] = static_cast<double>(pod.dump().size());
}
BENCHMARK(BM_Get);

void BM_GetShared(benchmark::State& state) {
  Fixture f;
  KubeClient& client = f.store;
  if (!client.create(res::pods, twoKilobytePod("web-0")).ok()) state.SkipWithError("create failed");
  for (auto _ : state) {
    auto r = client.getShared(res::pods, "default", "web-0");
    benchmark::DoNotOptimize(r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_GetShared);

// For scale: what copying the object alone costs.
void BM_CopyObject(benchmark::State& state) {
  const Object pod = twoKilobytePod("web-0");
  for (auto _ : state) {
    Object copy = pod;
    benchmark::DoNotOptimize(copy);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_CopyObject);

// Fills the history window (10,000 changes by default) so a benchmark measures the steady
// state, where each change also retires the oldest retained version, rather than the
// growth of the heap.
void fillHistory(FakeStore& store, Object obj, std::size_t window = FakeStoreOptions{}.historyWindow) {
  obj["metadata"].erase("resourceVersion");
  for (std::size_t i = 0; i <= window; ++i) {
    obj["metadata"]["annotations"]["fill"] = std::to_string(i);
    (void)store.updateShared(res::pods, obj);
  }
}

// An optimistic-concurrency update: change an annotation, send it with the version just
// read back. No watchers.
void BM_Update(benchmark::State& state) {
  Fixture f;
  KubeClient& client = f.store;
  auto created = client.create(res::pods, twoKilobytePod("web-0"));
  if (!created.ok()) state.SkipWithError("create failed");
  fillHistory(f.store, *created);
  Object obj = *client.get(res::pods, "default", "web-0");
  std::uint64_t n = 0;
  for (auto _ : state) {
    obj["metadata"]["annotations"]["kun.io/config-hash"] = std::to_string(++n);
    auto r = client.update(res::pods, obj);
    if (!r.ok()) {
      state.SkipWithError("update failed");
      break;
    }
    obj["metadata"]["resourceVersion"] = (*r)["metadata"]["resourceVersion"];
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_Update);

// The same read-modify-write with the seam's shared calls: the caller copies the stored
// version once (it must: stored versions are immutable), edits it and moves it in. The
// argument is the history window.
void BM_UpdateShared(benchmark::State& state) {
  const auto window = static_cast<std::size_t>(state.range(0));
  Fixture f(window);
  KubeClient& client = f.store;
  auto created = client.create(res::pods, twoKilobytePod("web-0"));
  if (!created.ok()) state.SkipWithError("create failed");
  fillHistory(f.store, *created, window);
  ObjectPtr current = *client.getShared(res::pods, "default", "web-0");
  std::uint64_t n = 0;
  for (auto _ : state) {
    Object next = *current;
    next["metadata"]["annotations"]["kun.io/config-hash"] = std::to_string(++n);
    auto r = client.updateShared(res::pods, std::move(next));
    if (!r.ok()) {
      state.SkipWithError("update failed");
      break;
    }
    current = std::move(*r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpdateShared)->Arg(10000)->Arg(100);

// The store's side of an update alone: the caller's object is built (copied from the
// stored version and edited) before the clock starts, as a client builds its request
// before the server sees it; it is still hot in the cache, as it would be. Timed, by a
// steady clock around the call (manual time: Pause/ResumeTiming costs more than the
// update): the precondition check, the validation, the comparison that yields the
// history's back patch, the commit (index, history, watch hub) and freeing the replaced
// version. Run it on a quiet machine: manual time is wall time. The argument is the
// history window.
void BM_UpdatePrepared(benchmark::State& state) {
  const auto window = static_cast<std::size_t>(state.range(0));
  Fixture f;
  auto created = f.store.create(res::pods, twoKilobytePod("web-0"));
  if (!created.ok()) state.SkipWithError("create failed");
  fillHistory(f.store, *created, window);
  ObjectPtr current = *f.store.getShared(res::pods, "default", "web-0");
  std::uint64_t n = 0;
  for (auto _ : state) {
    Object next = *current;
    next["metadata"]["annotations"]["kun.io/config-hash"] = std::to_string(++n);
    const auto start = std::chrono::steady_clock::now();
    auto r = f.store.updateShared(res::pods, std::move(next));
    if (!r.ok()) {
      state.SkipWithError(r.error().message.c_str());
      break;
    }
    current = std::move(*r);  // the last reference to the replaced version goes here
    state.SetIterationTime(std::chrono::duration<double>(std::chrono::steady_clock::now() - start).count());
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpdatePrepared)->Arg(10000)->Arg(100)->UseManualTime();

// As BM_UpdateShared with the default window, the writes spread round-robin over
// `objects` pods, as in a simulation where many objects change.
void BM_UpdateSharedSpread(benchmark::State& state) {
  const auto objects = static_cast<int>(state.range(0));
  Fixture f;
  KubeClient& client = f.store;
  std::vector<ObjectPtr> current;
  for (int i = 0; i < objects; ++i) {
    auto created = client.create(res::pods, twoKilobytePod("web-" + std::to_string(i)));
    if (!created.ok()) state.SkipWithError("create failed");
  }
  fillHistory(f.store, *client.get(res::pods, "default", "web-0"));
  for (int i = 0; i < objects; ++i) current.push_back(*client.getShared(res::pods, "default", "web-" + std::to_string(i)));
  std::uint64_t n = 0;
  for (auto _ : state) {
    ObjectPtr& cur = current[n % current.size()];
    Object next = *cur;
    next["metadata"]["annotations"]["kun.io/config-hash"] = std::to_string(++n);
    auto r = client.updateShared(res::pods, std::move(next));
    if (!r.ok()) {
      state.SkipWithError("update failed");
      break;
    }
    cur = std::move(*r);
  }
  state.SetItemsProcessed(state.iterations());
}
BENCHMARK(BM_UpdateSharedSpread)->Arg(1000);

// A list by label selector that returns `result` objects out of `total`.
void BM_ListBySelector(benchmark::State& state) {
  const auto total = static_cast<int>(state.range(0));
  const auto result = static_cast<int>(state.range(1));
  static std::map<int, std::unique_ptr<Fixture>> fixtures;  // built once per size
  auto& f = fixtures[total];
  if (!f) {
    f = std::make_unique<Fixture>();
    for (int i = 0; i < total; ++i) {
      Object cm{{"metadata",
                 {{"name", "cm-" + std::to_string(i)},
                  {"namespace", "default"},
                  {"labels", {{"app", "bench"}, {"group10", std::to_string(i / 10)}, {"group100", std::to_string(i / 100)}}}}},
                {"data", {{"key", "value"}}}};
      if (!f->store.create(res::configmaps, cm).ok()) state.SkipWithError("create failed");
    }
  }
  const std::string key = result == 10 ? "group10" : "group100";
  const std::string selector = "app=bench," + key + "=" + std::to_string(total / result / 2);
  std::size_t items = 0;
  for (auto _ : state) {
    auto l = f->store.list(res::configmaps, "default", ListOptions{selector, ""});
    items += l->items.size();
    benchmark::DoNotOptimize(l);
  }
  if (items != static_cast<std::size_t>(result) * state.iterations()) state.SkipWithError("wrong result size");
  state.SetItemsProcessed(static_cast<std::int64_t>(items));
  state.counters["examined"] = static_cast<double>(f->store.lastListExaminedForTest());
}
BENCHMARK(BM_ListBySelector)->Args({10000, 10})->Args({100000, 10})->Args({10000, 100})->Args({100000, 100});

// One update of a 2 KB object delivered to `watchers` watches (the loop runs until every
// delivery is done). The update itself is an updateShared, so the figure is the fan-out's.
void BM_WatchFanout(benchmark::State& state) {
  const auto watchers = static_cast<int>(state.range(0));
  Fixture f;
  auto created = f.store.create(res::pods, twoKilobytePod("web-0"));
  if (!created.ok()) state.SkipWithError("create failed");
  fillHistory(f.store, *created);  // before the watches exist
  std::uint64_t delivered = 0;
  std::vector<std::unique_ptr<Watch>> ws;
  for (int i = 0; i < watchers; ++i) {
    auto w = f.store.watch(res::pods, "default", {}, [&](const WatchEvent&) { ++delivered; }, nullptr);
    ws.push_back(std::move(*w));
  }
  Object obj = *created;
  obj["metadata"].erase("resourceVersion");
  std::uint64_t n = 0;
  for (auto _ : state) {
    obj["metadata"]["annotations"]["kun.io/config-hash"] = std::to_string(++n);
    if (!f.store.updateShared(res::pods, obj).ok()) state.SkipWithError("update failed");
    while (f.loop.runOne()) {
    }
  }
  if (delivered != static_cast<std::uint64_t>(watchers) * state.iterations()) state.SkipWithError("lost events");
  state.SetItemsProcessed(static_cast<std::int64_t>(delivered));
  state.counters["updates/s"] = benchmark::Counter(static_cast<double>(state.iterations()), benchmark::Counter::kIsRate);
}
BENCHMARK(BM_WatchFanout)->Arg(100);

}  // namespace
}  // namespace kun
