// Property (b): a write based on a stale resourceVersion (update, status update, patch
// with the version, delete with a version precondition) is rejected with Conflict and
// changes nothing: same object, same store version, no watch event.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

Object statefulSet() {
  return Object{{"metadata", {{"name", "web"}, {"namespace", "default"}, {"labels", {{"app", "web"}}}}},
                {"spec", {{"replicas", 1}, {"serviceName", "web"}}}};
}

RC_GTEST_PROP(StoreStaleUpdateProperty, StaleWritesAreConflictsAndChangeNothing, ()) {
  SimLoop loop;
  FakeStore store(loop);
  RC_ASSERT(store.create(res::statefulsets, statefulSet()).ok());

  // Some accepted changes; the copy taken at a random point goes stale with the next one.
  const int before = *rc::gen::inRange(0, 5);
  const int after = *rc::gen::inRange(1, 5);
  auto change = [&](int i) {
    auto cur = store.get(res::statefulsets, "default", "web");
    RC_ASSERT(cur.ok());
    Object next = *cur;
    if (i % 3 == 0) next["spec"]["replicas"] = next["spec"]["replicas"].get<int>() + 1;
    else if (i % 3 == 1) next["metadata"]["annotations"]["n"] = std::to_string(i) + store.resourceVersion();
    else next["status"] = {{"replicas", i}, {"observedGeneration", meta::generation(next)}};
    auto r = i % 3 == 2 ? store.updateStatus(res::statefulsets, next) : store.update(res::statefulsets, next);
    RC_ASSERT(r.ok());
  };
  for (int i = 0; i < before; ++i) change(i);
  const Object stale = *store.get(res::statefulsets, "default", "web");
  for (int i = 0; i < after; ++i) change(before + i);

  const Object stored = *store.get(res::statefulsets, "default", "web");
  const std::string rv = store.resourceVersion();
  RC_PRE(meta::resourceVersion(stored) != meta::resourceVersion(stale));
  std::vector<WatchEvent> events;
  auto w = store.watch(res::statefulsets, "", {}, [&](const WatchEvent& e) { events.push_back(e); }, nullptr);
  RC_ASSERT(w.ok());

  // Whatever the stale copy asks for.
  Object edit = stale;
  const int field = *rc::gen::inRange(0, 4);
  const std::string value = *rc::gen::nonEmpty(rc::gen::container<std::string>(rc::gen::inRange('a', 'z')));
  if (field == 0) edit["spec"]["replicas"] = static_cast<int>(value.size()) + 100;
  else if (field == 1) edit["metadata"]["labels"]["app"] = value;
  else if (field == 2) edit["status"] = {{"replicas", 99}};
  else edit["metadata"]["finalizers"] = {"example.com/" + value};

  const int how = *rc::gen::inRange(0, 4);
  Status result;
  if (how == 0) {
    auto r = store.update(res::statefulsets, edit);
    if (!r) result = r.error();
  } else if (how == 1) {
    auto r = store.updateStatus(res::statefulsets, edit);
    if (!r) result = r.error();
  } else if (how == 2) {
    Object patch = edit;
    patch.erase("status");
    auto r = store.patch(res::statefulsets, "default", "web", patch);
    if (!r) result = r.error();
  } else {
    DeleteOptions opts;
    opts.preconditionResourceVersion = meta::resourceVersion(stale);
    result = store.remove(res::statefulsets, "default", "web", opts);
  }
  RC_ASSERT(result.is(Reason::Conflict));
  RC_ASSERT(*store.get(res::statefulsets, "default", "web") == stored);
  RC_ASSERT(store.resourceVersion() == rv);
  loop.runUntil([&] { return loop.idle(); }, loop.now() + minutes(5));
  RC_ASSERT(events.empty());
}

}  // namespace
}  // namespace kun
