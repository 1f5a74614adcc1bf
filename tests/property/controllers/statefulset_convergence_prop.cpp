// Properties of the simulated cluster as a whole:
// (d) a StatefulSet of size N converges to exactly N Running and Ready pods 0..N-1 from any
//     interleaving of pod deletions, container crashes, scale changes and waits;
// (e) two runs from one seed give the same trace hash.
#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <algorithm>
#include <ostream>
#include <sstream>

#include <fmt/format.h>

#include "fakeapi/controllers/sim_cluster.h"
#include "tests/unit/controllers/sim_test_util.h"

namespace kun::sim {
namespace {

struct Action {
  enum Kind { DeletePod, CrashPod, Scale, Wait } kind = Wait;
  int value = 0;  // ordinal, replica count, or seconds
};

void showValue(const Action& a, std::ostream& os) {
  static const char* names[] = {"delete", "crash", "scale", "wait"};
  os << names[a.kind] << "(" << a.value << ")";
}

rc::Gen<Action> genAction() {
  return rc::gen::oneOf(
      rc::gen::map(rc::gen::inRange(0, 6), [](int v) { return Action{Action::DeletePod, v}; }),
      rc::gen::map(rc::gen::inRange(0, 6), [](int v) { return Action{Action::CrashPod, v}; }),
      rc::gen::map(rc::gen::inRange(0, 6), [](int v) { return Action{Action::Scale, v}; }),
      rc::gen::map(rc::gen::inRange(0, 40), [](int v) { return Action{Action::Wait, v}; }));
}

// Up to maxCount actions.
rc::Gen<std::vector<Action>> genActions(int maxCount) {
  return rc::gen::mapcat(rc::gen::inRange(0, maxCount + 1), [](int n) {
    return rc::gen::container<std::vector<Action>>(static_cast<std::size_t>(n), genAction());
  });
}

// Creates the set, applies the actions (each followed by a short run), returns the final
// desired size.
int play(SimCluster& c, int initial, bool parallel, const std::vector<Action>& actions) {
  simtest::SetOptions o;
  o.replicas = initial;
  o.policy = parallel ? "Parallel" : "OrderedReady";
  o.grace = 3;
  (void)c.client().create(res::statefulsets, simtest::statefulSet("web", o));
  c.runFor(seconds(2));
  int desired = initial;
  for (const auto& a : actions) {
    switch (a.kind) {
      case Action::DeletePod:
        (void)c.client().remove(res::pods, "default", statefulSetPodName("web", a.value));
        break;
      case Action::CrashPod:
        (void)c.kubelet().crashContainer("default", statefulSetPodName("web", a.value), "redis");
        break;
      case Action::Scale:
        (void)simtest::scale(c.client(), "default", "web", a.value);
        desired = a.value;
        break;
      case Action::Wait:
        c.runFor(seconds(a.value));
        break;
    }
    c.runFor(milliseconds(300));
  }
  return desired;
}

RC_GTEST_PROP(SimClusterProperties, AStatefulSetConvergesToExactlyItsReplicas, ()) {
  const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1000000);
  const int initial = *rc::gen::inRange(1, 5);
  const bool parallel = *rc::gen::arbitrary<bool>();
  const auto actions = *genActions(8);
  SimClusterOptions opts;
  opts.seed = seed;
  SimCluster c(opts);
  const int desired = play(c, initial, parallel, actions);
  const bool ok = c.runUntil(
      [&] {
        if (!simtest::converged(c.client(), "default", "web", desired)) return false;
        auto set = c.client().get(res::statefulsets, "default", "web");
        return set && (*set)["status"].value("readyReplicas", -1) == desired &&
               (*set)["status"].value("replicas", -1) == desired;
      },
      minutes(20));
  if (!ok) {
    for (const auto& p : simtest::podsOf(c.client(), "default", "web")) {
      RC_LOG() << meta::name(p) << " phase=" << podPhase(p) << " ready=" << podConditionTrue(p, "Ready")
               << " deleting=" << meta::isDeleting(p) << "\n";
    }
  }
  RC_ASSERT(ok);
  // Exactly N pods are running on the nodes, too.
  c.runFor(milliseconds(10));
  RC_ASSERT(c.kubelet().podCount() == static_cast<std::size_t>(desired));
}

// RapidCheck with a smaller case budget than the suite's (each case of (e) simulates two
// whole clusters): at most `cases` successes, the rest of the configuration (seed,
// RC_PARAMS) as usual.
template <class Property>
void checkWithBudget(int cases, Property&& property) {
  const auto* test = ::testing::UnitTest::GetInstance()->current_test_info();
  rc::detail::TestMetadata metadata;
  metadata.id = std::string(test->test_suite_name()) + "/" + test->name();
  metadata.description = test->name();
  rc::detail::TestParams params = rc::detail::configuration().testParams;
  params.maxSuccess = std::min(params.maxSuccess, cases);
  const auto result = rc::detail::checkTestable(std::forward<Property>(property), metadata, params);
  if (!result.template is<rc::detail::SuccessResult>()) {
    std::ostringstream out;
    rc::detail::printResultMessage(result, out);
    FAIL() << out.str();
  }
}

TEST(SimClusterProperties, OneSeedGivesOneTrace) {
  checkWithBudget(30, [] {
    const auto seed = *rc::gen::inRange<std::uint64_t>(1, 1000000);
    const auto actions = *genActions(6);
    auto run = [&] {
      SimClusterOptions opts;
      opts.seed = seed;
      SimCluster c(opts);
      play(c, 3, false, actions);
      c.runFor(seconds(5));
      return std::make_pair(c.trace().hash(), c.trace().count());
    };
    const auto first = run();
    const auto second = run();
    RC_ASSERT(first.second > 0u);
    RC_ASSERT(first == second);
  });
}

}  // namespace
}  // namespace kun::sim
