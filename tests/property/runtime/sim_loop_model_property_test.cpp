// SimLoop against a model: whatever is scheduled, cancelled and run, events run in
// (max(time, now at scheduling), scheduling order) order, at that time, and cancel reports
// whether the event was still pending.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <tuple>
#include <vector>

#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

struct Op {
  enum Kind { Schedule, Cancel, Advance, RunOne } kind;
  int arg;  // Schedule: absolute ms; Cancel: index into scheduled ids; Advance: ms
};

struct Ran {
  int name;
  TimePoint at;
  bool operator==(const Ran&) const = default;
};

// The model: a plain list of pending events, sorted when it is time to run them.
struct Model {
  struct Pending {
    TimePoint t;
    std::uint64_t seq;
    int name;
  };
  std::vector<Pending> pending;
  TimePoint now{};
  std::uint64_t seq = 0;
  std::vector<Ran> ran;

  void sort() {
    std::sort(pending.begin(), pending.end(),
              [](const Pending& a, const Pending& b) { return std::tie(a.t, a.seq) < std::tie(b.t, b.seq); });
  }
  void runOne() {
    sort();
    if (pending.empty()) return;
    now = pending.front().t;
    ran.push_back({pending.front().name, now});
    pending.erase(pending.begin());
  }
  void runUntil(TimePoint t) {
    sort();
    while (!pending.empty() && pending.front().t <= t) runOne();
    now = std::max(now, t);
  }
};

rc::Gen<Op> genOp() {
  return rc::gen::mapcat(rc::gen::element(Op::Schedule, Op::Schedule, Op::Cancel, Op::Advance, Op::RunOne),
                         [](Op::Kind k) {
                           return rc::gen::map(rc::gen::element(0, 0, 1, 2, 3, 5, 8, 13, 40),
                                               [k](int a) { return Op{k, a}; });
                         });
}

RC_GTEST_PROP(SimLoopModel, RunsInTimeThenSchedulingOrder, ()) {
  const auto n = *rc::gen::element<std::size_t>(5, 20, 60);
  const auto ops = *rc::gen::container<std::vector<Op>>(n, genOp());

  SimLoop loop;
  Model model;
  std::vector<Ran> ran;
  std::vector<TimerId> ids;
  std::vector<std::uint64_t> modelSeqs;
  int names = 0;
  for (const Op& op : ops) {
    switch (op.kind) {
      case Op::Schedule: {
        const int name = names++;
        const TimePoint t(milliseconds(op.arg));
        ids.push_back(loop.runAt(t, [&ran, &loop, name] { ran.push_back({name, loop.now()}); }));
        modelSeqs.push_back(model.seq);
        model.pending.push_back({std::max(t, model.now), model.seq++, name});
        break;
      }
      case Op::Cancel: {
        if (ids.empty()) break;
        const std::size_t i = static_cast<std::size_t>(op.arg) % ids.size();
        auto it = std::find_if(model.pending.begin(), model.pending.end(),
                               [&](const Model::Pending& p) { return p.seq == modelSeqs[i]; });
        const bool expected = it != model.pending.end();
        if (expected) model.pending.erase(it);
        RC_ASSERT(loop.cancel(ids[i]) == expected);
        break;
      }
      case Op::Advance:
        loop.runFor(milliseconds(op.arg));
        model.runUntil(model.now + milliseconds(op.arg));
        break;
      case Op::RunOne:
        loop.runOne();
        model.runOne();
        break;
    }
    RC_ASSERT(loop.now() == model.now);
    RC_ASSERT(loop.pending() == model.pending.size());
  }
  loop.runUntil(TimePoint(seconds(1)));
  model.runUntil(TimePoint(seconds(1)));
  RC_ASSERT(ran == model.ran);
  RC_ASSERT(loop.eventsRun() == model.ran.size());
}

}  // namespace
}  // namespace kun
