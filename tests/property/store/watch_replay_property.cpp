// Property (a): for any sequence of creates, updates, status updates and deletes, a watch
// started from any retained resourceVersion replays exactly the later changes, in order,
// and folding them onto the list at that version gives the store's state — for a plain
// watch and for one with a label selector (whose transitions read as ADDED/DELETED).
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <map>
#include <string>
#include <vector>

#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

struct Op {
  int kind;    // 0 create, 1 update, 2 status update, 3 delete, 4 run the loop
  int target;  // even: a ConfigMap, odd: a Pod; target/2 picks one of three names
  int value;
};

struct Snapshot {
  std::string rv;
  std::map<std::string, std::vector<Object>> lists;  // by resource, plain and selected
};

struct ChangeRecord {
  std::uint64_t rv;
  const Resource* resource;
  WatchEventType type;
  std::string name;
};

const Resource& resourceOf(int target) { return target % 2 ? res::pods : res::configmaps; }
std::string nameOf(int target) { return "o" + std::to_string(target / 2); }

Object newObject(int target, int value) {
  Object o{{"metadata", {{"name", nameOf(target)}, {"namespace", "default"}, {"labels", {{"app", value % 2 ? "x" : "y"}}}}}};
  if (target % 2) o["spec"] = {{"containers", Object::array({Object{{"name", "c"}, {"image", "i0"}}})}};
  else o["data"] = {{"k", "0"}};
  return o;
}

// One step; appends the change it made (if any) to log.
void apply(FakeStore& store, SimLoop& loop, const Op& op, std::vector<ChangeRecord>& log) {
  const Resource& r = resourceOf(op.target);
  const std::string name = nameOf(op.target);
  const std::string before = store.resourceVersion();
  WatchEventType type = WatchEventType::Modified;
  switch (op.kind) {
    case 0:
      (void)store.create(r, newObject(op.target, op.value));
      type = WatchEventType::Added;
      break;
    case 1: {
      auto cur = store.get(r, "default", name);
      if (!cur) break;
      Object next = *cur;
      // The current version makes a value no earlier state had.
      if (op.value == 0 && op.target % 2) next["spec"]["containers"][0]["image"] = "i" + store.resourceVersion();
      else if (op.value == 0) next["data"]["k"] = store.resourceVersion();
      else if (op.value == 1) next["metadata"]["labels"]["app"] = meta::label(next, "app") == "x" ? "y" : "x";
      (void)store.update(r, next);  // value 2: unchanged, a no-op
      break;
    }
    case 2: {
      auto cur = store.get(r, "default", name);
      if (!cur) break;
      Object next = *cur;
      next["status"] = {{"phase", "P" + std::to_string(op.value)}};
      (void)store.updateStatus(r, next);  // ConfigMaps have no status subresource: NotFound
      break;
    }
    case 3:
      (void)store.remove(r, "default", name);
      type = WatchEventType::Deleted;
      break;
    default:
      loop.runFor(milliseconds(op.value));
      break;
  }
  const std::string after = store.resourceVersion();
  if (after != before) {
    RC_ASSERT(std::stoull(after) == std::stoull(before) + 1);  // each step is one change
    log.push_back({std::stoull(after), &r, type, name});
  }
}

Snapshot snapshot(FakeStore& store) {
  Snapshot s;
  s.rv = store.resourceVersion();
  for (const Resource* r : {&res::configmaps, &res::pods}) {
    auto all = store.list(*r, "default");
    auto sel = store.list(*r, "default", ListOptions{"app=x", ""});
    RC_ASSERT(all.ok() && sel.ok());
    RC_ASSERT(all->resourceVersion == s.rv);
    s.lists[r->plural] = all->items;
    s.lists[r->plural + "?app=x"] = sel->items;
  }
  return s;
}

RC_GTEST_PROP(StoreWatchProperty, ReplayFromAnyRetainedVersionFoldsToTheState, ()) {
  const auto ops = *rc::gen::container<std::vector<Op>>(
      rc::gen::construct<Op>(rc::gen::inRange(0, 5), rc::gen::inRange(0, 6), rc::gen::inRange(0, 3)));
  SimLoop loop;
  FakeStore store(loop);
  std::vector<ChangeRecord> log;
  std::vector<Snapshot> snaps{snapshot(store)};

  struct Started {
    std::size_t snap;
    const Resource* resource;
    std::string selector;
    std::vector<WatchEvent> events;
    std::unique_ptr<Watch> watch;
  };
  std::vector<std::unique_ptr<Started>> watches;
  auto start = [&](std::size_t snap, const Resource& r, const std::string& selector) {
    auto s = std::make_unique<Started>();
    s->snap = snap;
    s->resource = &r;
    s->selector = selector;
    Started* raw = s.get();
    WatchOptions opts;
    opts.resourceVersion = snaps[snap].rv;
    opts.labelSelector = selector;
    auto w = store.watch(r, "default", opts, [raw](const WatchEvent& e) { raw->events.push_back(e); }, nullptr);
    RC_ASSERT(w.ok());
    s->watch = std::move(*w);
    watches.push_back(std::move(s));
  };
  // Live watches from the start, then every op, then replays from every recorded version.
  start(0, res::configmaps, "");
  start(0, res::pods, "app=x");
  for (const auto& op : ops) {
    apply(store, loop, op, log);
    snaps.push_back(snapshot(store));
  }
  // Replays from the first and last versions and from a few drawn in between (every
  // version would make a run quadratic for no more coverage).
  auto from = *rc::gen::container<std::vector<std::size_t>>(6, rc::gen::inRange<std::size_t>(0, snaps.size()));
  from.push_back(0);
  from.push_back(snaps.size() - 1);
  for (std::size_t i : from)
    for (const Resource* r : {&res::configmaps, &res::pods})
      for (const char* sel : {"", "app=x"}) start(i, *r, sel);
  loop.runUntil([&] { return loop.idle(); }, loop.now() + hours(1));
  const Snapshot final = snapshot(store);

  for (const auto& w : watches) {
    const std::uint64_t from = std::stoull(snaps[w->snap].rv);
    const std::string listName = w->resource->plural + (w->selector.empty() ? "" : "?app=x");
    // Exactly the later changes of this resource, in order (unfiltered watches).
    if (w->selector.empty()) {
      std::vector<std::pair<std::uint64_t, std::string>> expected, got;
      for (const auto& c : log)
        if (c.rv > from && c.resource == w->resource)
          expected.emplace_back(c.rv, std::string(watchEventTypeName(c.type)) + " " + c.name);
      for (const auto& e : w->events)
        got.emplace_back(std::stoull(meta::resourceVersion(*e.object)),
                         std::string(watchEventTypeName(e.type)) + " " + meta::name(*e.object));
      RC_ASSERT(got == expected);
    }
    // Folding the events onto the list at `from` gives the current list.
    std::map<std::string, Object> state;
    for (const auto& o : snaps[w->snap].lists.at(listName)) state[meta::name(o)] = o;
    std::uint64_t last = from;
    for (const auto& e : w->events) {
      const std::uint64_t rv = std::stoull(meta::resourceVersion(*e.object));
      RC_ASSERT(rv > last);
      last = rv;
      const std::string name = meta::name(*e.object);
      switch (e.type) {
        case WatchEventType::Added: RC_ASSERT(state.count(name) == 0u); state[name] = *e.object; break;
        case WatchEventType::Modified: RC_ASSERT(state.count(name) == 1u); state[name] = *e.object; break;
        case WatchEventType::Deleted: RC_ASSERT(state.erase(name) == 1u); break;
        case WatchEventType::Bookmark: break;
      }
    }
    std::map<std::string, Object> want;
    for (const auto& o : final.lists.at(listName)) want[meta::name(o)] = o;
    RC_ASSERT(state == want);
  }
}

}  // namespace
}  // namespace kun
