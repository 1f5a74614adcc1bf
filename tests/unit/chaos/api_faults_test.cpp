// API server faults through the fake store's hook, and the faults that go through the
// runner's OperatorControl.
#include <gtest/gtest.h>

#include "chaos/faults/fault_injector.h"
#include "chaos/faults/operator_control.h"
#include "core/kube/resource.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun::chaos {
namespace {

struct RecordingOperator : OperatorControl {
  Status restartOperator() override {
    ++restarts;
    return {};
  }
  Status changeParameter(const Fault& f) override {
    changes.push_back(f);
    return {};
  }
  int restarts = 0;
  std::vector<Fault> changes;
};

class ApiFaults : public ::testing::Test {
 protected:
  ApiFaults() {
    FaultSeams s;
    s.loop = &loop;
    s.client = &store;
    s.apiFaults = &store.faults();
    s.op = &op;
    inj = std::make_unique<FaultInjector>(s, Random(5));
    (void)store.create(res::configmaps, Object{{"apiVersion", "v1"},
                                               {"kind", "ConfigMap"},
                                               {"metadata", {{"name", "c"}, {"namespace", "default"}}}});
  }
  Fault errors(int code, Duration d) {
    Fault f;
    f.kind = FaultKind::ApiErrors;
    f.code = code;
    f.duration = d;
    return f;
  }
  SimLoop loop;
  FakeStore store{loop};
  RecordingOperator op;
  std::unique_ptr<FaultInjector> inj;
};

TEST_F(ApiFaults, TooManyRequestsWithRetryAfterForTheDuration) {
  Fault f = errors(429, seconds(10));
  f.retryAfterSeconds = 3;
  auto r = inj->begin(f);
  ASSERT_TRUE(r.ok()) << r.error().message;
  auto got = store.get(res::configmaps, "default", "c");
  ASSERT_TRUE(got.is(Reason::TooManyRequests));
  EXPECT_EQ(got.error().retryAfterSeconds, 3);
  // The rule's window ends by itself, and end() removes it.
  loop.runFor(seconds(10));
  EXPECT_TRUE(store.get(res::configmaps, "default", "c").ok());
  ASSERT_TRUE(inj->end(r->id).ok());
  EXPECT_EQ(store.faults().ruleCount(), 0u);
}

TEST_F(ApiFaults, ServerErrorsAtARate) {
  Fault f = errors(500, minutes(1));
  f.rateNum = 1;
  f.rateDen = 4;
  ASSERT_TRUE(inj->begin(f).ok());
  int failed = 0;
  for (int i = 0; i < 400; ++i) {
    auto g = store.get(res::configmaps, "default", "c");
    if (!g.ok()) {
      EXPECT_EQ(httpStatusFor(g.error().reason), 500);
      ++failed;
    }
  }
  EXPECT_GT(failed, 60);
  EXPECT_LT(failed, 140);
}

TEST_F(ApiFaults, ConflictsOnlyForUpdatesOfTheChosenResources) {
  Fault f = errors(409, seconds(30));
  f.target = "configmaps";
  ASSERT_TRUE(inj->begin(f).ok());
  EXPECT_TRUE(store.get(res::configmaps, "default", "c").ok());
  EXPECT_TRUE(store.patch(res::configmaps, "default", "c", Object{{"data", {{"a", "b"}}}}).is(Reason::Conflict));
  EXPECT_TRUE(store.create(res::secrets, Object{{"apiVersion", "v1"},
                                                {"kind", "Secret"},
                                                {"metadata", {{"name", "s"}, {"namespace", "default"}}}})
                  .ok());
}

TEST_F(ApiFaults, LatencyDelaysWatchesAndOverlapsTakeTheLargest) {
  Fault a;
  a.kind = FaultKind::ApiLatency;
  a.latency = milliseconds(500);
  a.duration = seconds(10);
  Fault b = a;
  b.latency = seconds(2);
  auto ra = inj->begin(a);
  auto rb = inj->begin(b);
  ASSERT_TRUE(ra.ok() && rb.ok());
  EXPECT_EQ(store.faults().watchDelay(), seconds(2));
  ASSERT_TRUE(inj->end(rb->id).ok());
  EXPECT_EQ(store.faults().watchDelay(), milliseconds(500));
  ASSERT_TRUE(inj->end(ra->id).ok());
  EXPECT_EQ(store.faults().watchDelay(), Duration{0});
}

TEST_F(ApiFaults, WatchDropClosesRunningWatches) {
  int closed = 0;
  auto w = store.watch(res::configmaps, "default", {}, [](const WatchEvent&) {}, [&](const Error&) { ++closed; });
  ASSERT_TRUE(w.ok());
  Fault f;
  f.kind = FaultKind::WatchDrop;
  ASSERT_TRUE(inj->begin(f).ok());
  loop.runFor(seconds(1));
  EXPECT_EQ(closed, 1);
}

TEST_F(ApiFaults, WatchGoneFailsTheNextWatchCalls) {
  Fault f;
  f.kind = FaultKind::WatchGone;
  f.count = 2;
  ASSERT_TRUE(inj->begin(f).ok());
  auto noop = [](const WatchEvent&) {};
  auto closedNoop = [](const Error&) {};
  EXPECT_TRUE(store.watch(res::configmaps, "default", {}, noop, closedNoop).is(Reason::Gone));
  EXPECT_TRUE(store.watch(res::configmaps, "default", {}, noop, closedNoop).is(Reason::Gone));
  EXPECT_TRUE(store.watch(res::configmaps, "default", {}, noop, closedNoop).ok());
}

TEST_F(ApiFaults, OperatorFaultsGoThroughTheRunner) {
  Fault restart;
  restart.kind = FaultKind::OperatorRestart;
  ASSERT_TRUE(inj->begin(restart).ok());
  EXPECT_EQ(op.restarts, 1);
  Fault change;
  change.kind = FaultKind::ParamChange;
  change.param = Param::Size;
  change.value = 5;
  ASSERT_TRUE(inj->begin(change).ok());
  ASSERT_EQ(op.changes.size(), 1u);
  EXPECT_EQ(op.changes[0], change);
}

TEST(ParamPatch, EachParameterLandsOnItsField) {
  Fault f;
  f.kind = FaultKind::ParamChange;
  f.param = Param::Config;
  f.value = Object{{"maxmemory", "100mb"}};
  EXPECT_EQ(paramPatch(f), (Object{{"spec", {{"config", {{"maxmemory", "100mb"}}}}}}));
  f.param = Param::Persistence;
  f.value = false;  // persistence off
  EXPECT_EQ(paramPatch(f), (Object{{"spec", {{"disablePersistence", true}}}}));
  f.param = Param::SentinelConfig;
  f.value = Object::array({"down-after-milliseconds 3000"});
  EXPECT_EQ(paramPatch(f), (Object{{"spec", {{"sentinel", {{"customConfig", f.value}}}}}}));
  f.param = Param::Size;
  f.value = 1;
  EXPECT_EQ(paramPatch(f), (Object{{"spec", {{"size", 1}}}}));
}

}  // namespace
}  // namespace kun::chaos
