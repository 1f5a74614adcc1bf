// EventRecorder against the fake store: core/v1 Events and their aggregation.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "core/kube/event_recorder.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/store/fake_store.h"

namespace kun {
namespace {

struct Fixture {
  SimLoop loop;
  FakeStore store{loop};
  Object pod;
  Fixture() {
    auto p = store.create(res::configmaps, Object{{"apiVersion", "v1"}, {"kind", "ConfigMap"},
                                                  {"metadata", {{"name", "cm"}, {"namespace", "default"}}}});
    pod = p.value();
  }
  std::vector<Object> events() { return store.list(res::events, "default")->items; }
};

TEST(EventRecorder, CreatesAnEventDescribingTheInvolvedObject) {
  Fixture f;
  EventRecorder rec(f.store, f.loop, "my-controller", "node-1");
  f.loop.runFor(seconds(5));
  rec.record(f.pod, EventType::Warning, "Broken", "it broke");
  const auto evs = f.events();
  ASSERT_EQ(evs.size(), 1u);
  const Object& e = evs[0];
  EXPECT_EQ(e["involvedObject"]["kind"], "ConfigMap");
  EXPECT_EQ(e["involvedObject"]["name"], "cm");
  EXPECT_EQ(e["involvedObject"]["namespace"], "default");
  EXPECT_EQ(e["involvedObject"]["uid"], meta::uid(f.pod));
  EXPECT_EQ(e["reason"], "Broken");
  EXPECT_EQ(e["message"], "it broke");
  EXPECT_EQ(e["type"], "Warning");
  EXPECT_EQ(e["source"]["component"], "my-controller");
  EXPECT_EQ(e["source"]["host"], "node-1");
  EXPECT_EQ(e["count"], 1);
  EXPECT_EQ(e["firstTimestamp"], formatRfc3339(f.loop.wallMicros()));
  EXPECT_EQ(e["lastTimestamp"], e["firstTimestamp"]);
  // client-go's <involved>.<unix nanos in hex>; the first Event's sequence adds 0.
  EXPECT_EQ(meta::name(e), fmt::format("cm.{:x}", f.loop.wallMicros() * 1000));
  EXPECT_EQ(rec.created(), 1u);
}

TEST(EventRecorder, ARepeatBumpsCountAndLastTimestampOfTheSameEvent) {
  Fixture f;
  EventRecorder rec(f.store, f.loop, "c");
  rec.record(f.pod, EventType::Normal, "Tick", "same");
  const std::string first = f.events()[0]["firstTimestamp"];
  f.loop.runFor(seconds(90));
  rec.record(f.pod, EventType::Normal, "Tick", "same");
  rec.record(f.pod, EventType::Normal, "Tick", "same");
  auto evs = f.events();
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0]["count"], 3);
  EXPECT_EQ(evs[0]["firstTimestamp"], first);
  EXPECT_EQ(evs[0]["lastTimestamp"], formatRfc3339(f.loop.wallMicros()));
  EXPECT_NE(evs[0]["lastTimestamp"], first);
  EXPECT_EQ(rec.aggregated(), 2u);
  // A different message, reason or type is a different event.
  rec.record(f.pod, EventType::Normal, "Tick", "other");
  rec.record(f.pod, EventType::Normal, "Tock", "same");
  rec.record(f.pod, EventType::Warning, "Tick", "same");
  EXPECT_EQ(f.events().size(), 4u);
}

TEST(EventRecorder, ADeletedEventIsRecreated) {
  Fixture f;
  EventRecorder rec(f.store, f.loop, "c");
  rec.record(f.pod, EventType::Normal, "Tick", "m");
  ASSERT_TRUE(f.store.remove(res::events, "default", meta::name(f.events()[0])).ok());
  rec.record(f.pod, EventType::Normal, "Tick", "m");
  auto evs = f.events();
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0]["count"], 1);
}

TEST(EventRecorder, ClusterScopedObjectsReportIntoDefault) {
  Fixture f;
  auto node = f.store.create(res::nodes, Object{{"apiVersion", "v1"}, {"kind", "Node"}, {"metadata", {{"name", "n1"}}}});
  ASSERT_TRUE(node.ok());
  EventRecorder rec(f.store, f.loop, "c");
  rec.record(*node, EventType::Normal, "NodeReady", "ready");
  auto evs = f.events();
  ASSERT_EQ(evs.size(), 1u);
  EXPECT_EQ(evs[0]["involvedObject"]["name"], "n1");
  EXPECT_EQ(evs[0]["involvedObject"]["namespace"], "");
}

TEST(EventRecorder, AFailedWriteIsDroppedNotRaised) {
  Fixture f;
  EventRecorder rec(f.store, f.loop, "c");
  Object ghost = {{"apiVersion", "v1"}, {"kind", "Pod"}, {"metadata", {{"name", "x"}, {"namespace", "nowhere"}, {"uid", "u"}}}};
  rec.record(ghost, EventType::Normal, "Tick", "m");  // namespace "nowhere" does not exist
  EXPECT_EQ(rec.dropped(), 1u);
  EXPECT_EQ(rec.created(), 0u);
}

}  // namespace
}  // namespace kun
