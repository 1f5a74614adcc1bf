// A change that restarts pods (the image) rolls them one at a time while a client keeps
// writing through the Sentinel-discovered master.
#include <vector>

#include "fakeapi/world/pod_files.h"
#include "tests/scenario/operator/operator_fixture.h"

namespace kun::scenario {
namespace {

TEST_F(OperatorScenario, RollingImageChangeUnderWritesLosesNoAcknowledgedWrite) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const std::string image = "redis:7.2-rolled";
  auto rolled = [&] {
    for (int i = 0; i < 3; ++i) {
      auto p = world->store().get(res::pods, kNs, redisPod("a", i));
      if (!p.ok() || meta::isDeleting(*p)) return false;
      const Object* c = sim::findContainer(*p, "redis");
      if (!c || c->value("image", "") != image) return false;
    }
    return true;
  };
  std::vector<std::string> uids;
  for (int i = 0; i < 3; ++i) uids.push_back(podUid(redisPod("a", i)));
  editSpec("a", [&](Object& s) { s["image"] = image; });

  std::vector<std::string> acknowledged;
  int attempts = 0;
  const TimePoint deadline = world->loop().now() + seconds(300);
  while (!(rolled() && healthy("a")) && world->loop().now() < deadline) {
    const std::string key = "w" + std::to_string(attempts++);
    if (write("a", key, "1")) acknowledged.push_back(key);
    world->runFor(milliseconds(250));
  }
  ASSERT_TRUE(rolled() && healthy("a")) << describe("a");
  for (int i = 0; i < 3; ++i) EXPECT_NE(podUid(redisPod("a", i)), uids[i]) << i;
  // Most writes went through (a failover pauses them briefly), and none acknowledged is gone.
  EXPECT_GT(acknowledged.size(), static_cast<std::size_t>(attempts) * 3 / 4);
  const std::string master = status("a").masterIP;
  for (const auto& k : acknowledged) EXPECT_EQ(read(master, k), "1") << k;
  ASSERT_FALSE(acknowledged.empty());
  EXPECT_TRUE(readableEverywhere("a", 3, acknowledged.back(), "1"));
  EXPECT_EQ(masters("a", 3), 1);
}

// Healthy is never claimed for the new spec while its rollout is pending: whenever the
// status says Healthy for the current generation, every redis and sentinel pod runs the
// new images (sampled after every simulated event, from the change until it is done).
TEST_F(OperatorScenario, HealthyIsNotClaimedWhileARolloutIsPending) {
  startOperator();
  create("a", Object{{"size", 3}});
  ASSERT_TRUE(waitHealthy("a")) << describe("a");
  const std::string image = "redis:7.2-rolled";
  auto runs = [&](const std::string& pod, const char* container, const std::string& want) {
    auto p = world->store().get(res::pods, kNs, pod);
    if (!p.ok() || meta::isDeleting(*p)) return false;
    const Object* c = sim::findContainer(*p, container);
    return c && c->value("image", "") == want;
  };
  auto rolled = [&] {
    for (int i = 0; i < 3; ++i)
      if (!runs(redisPod("a", i), "redis", image) || !runs(sentinelPod("a", i), "sentinel", image)) return false;
    return true;
  };
  editSpec("a", [&](Object& s) {
    s["image"] = image;
    s["sentinel"]["image"] = image;
  });
  // healthy() copies and parses the cluster; after every event that is too slow, so the
  // stored object is read in place.
  auto healthyNow = [&] {
    auto o = world->store().getShared(res::redisclusters, kNs, "a");
    if (!o.ok()) return false;
    const Object& rc = **o;
    auto st = rc.find("status");
    if (st == rc.end() || st->value("observedGeneration", -1) != meta::generation(rc)) return false;
    auto conds = st->find("conditions");
    if (conds == st->end() || !conds->is_array()) return false;
    for (const auto& c : *conds)
      if (c.value("type", "") == "Healthy") return c.value("status", "") == "True";
    return false;
  };
  int claimedEarly = 0;
  const bool done = world->runUntil([&] {
    if (!healthyNow()) return false;
    if (rolled()) return true;
    ++claimedEarly;
    return false;
  }, seconds(300));
  EXPECT_TRUE(done) << describe("a");
  EXPECT_EQ(claimedEarly, 0) << "Healthy while pods still ran the old images";
}

}  // namespace
}  // namespace kun::scenario
