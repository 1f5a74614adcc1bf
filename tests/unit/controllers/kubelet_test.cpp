// The simulated kubelet: pod lifecycle, IPs, readiness, crashes, graceful deletion, nodes.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "fakeapi/controllers/ip_pool.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "fakeapi/controllers/status_update.h"
#include "tests/unit/controllers/sim_test_util.h"

namespace kun::sim {
namespace {

Object pod(const std::string& name, const std::string& restartPolicy = "Always", std::optional<int> grace = {}) {
  Object p = {{"apiVersion", "v1"},
              {"kind", "Pod"},
              {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", "t"}}}}},
              {"spec", {{"restartPolicy", restartPolicy},
                        {"containers", Object::array({{{"name", "main"}, {"image", "busybox:1"}}})}}}};
  if (grace) p["spec"]["terminationGracePeriodSeconds"] = *grace;
  return p;
}

Object get(SimCluster& c, const std::string& name) {
  auto p = c.client().get(res::pods, "default", name);
  return p ? p.value() : Object();
}

bool gone(SimCluster& c, const std::string& name) {
  return c.client().get(res::pods, "default", name).is(Reason::NotFound);
}

const Object& containerStatus(const Object& p) { return p["status"]["containerStatuses"][0]; }

SimClusterOptions oneNode(std::uint64_t seed = 1) {
  SimClusterOptions o;
  o.seed = seed;
  o.nodes = 1;
  o.zones = 1;
  return o;
}

TEST(Kubelet, APodGoesFromPendingToRunningAndReadyWithAnIpFromItsNode) {
  SimCluster c(oneNode());
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  const TimePoint created = c.loop().now();
  ASSERT_TRUE(c.runUntil([&] { return podNodeName(get(c, "a")) == "node-0"; }, seconds(1)));
  c.runFor(milliseconds(1));
  Object p = get(c, "a");
  EXPECT_EQ(podPhase(p), "Pending");
  EXPECT_EQ(containerStatus(p)["state"]["waiting"]["reason"], "ContainerCreating");
  EXPECT_EQ(p["status"]["hostIP"], "172.18.0.2");
  EXPECT_TRUE(podConditionTrue(p, "PodScheduled"));
  EXPECT_FALSE(podConditionTrue(p, "Ready"));

  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  const Duration took = c.loop().now() - created;
  const KubeletConfig cfg;
  EXPECT_GE(took, cfg.startDelayMin);
  EXPECT_LE(took, cfg.startDelayMax + milliseconds(10));
  p = get(c, "a");
  EXPECT_EQ(podIP(p).rfind("10.244.0.", 0), 0u) << podIP(p);
  EXPECT_EQ(p["status"]["podIPs"][0]["ip"], podIP(p));
  for (const char* cond : {"PodScheduled", "Initialized", "ContainersReady", "Ready"}) {
    EXPECT_TRUE(podConditionTrue(p, cond)) << cond;
  }
  EXPECT_TRUE(containerStatus(p)["ready"].get<bool>());
  EXPECT_EQ(containerStatus(p)["restartCount"], 0);
  EXPECT_TRUE(containerStatus(p)["state"].contains("running"));
  EXPECT_EQ(c.kubelet().ipOf("default", "a"), podIP(p));
}

TEST(Kubelet, StartDelaysComeFromTheSeed) {
  auto startTime = [](std::uint64_t seed) {
    SimCluster c(oneNode(seed));
    EXPECT_TRUE(c.client().create(res::pods, pod("a")).ok());
    EXPECT_TRUE(c.runUntil([&] { return podPhase(get(c, "a")) == "Running"; }, seconds(5)));
    return c.loop().now();
  };
  EXPECT_EQ(startTime(7), startTime(7));
  std::set<TimePoint> distinct;
  for (std::uint64_t s = 1; s <= 5; ++s) distinct.insert(startTime(s));
  EXPECT_GT(distinct.size(), 1u);
}

TEST(Kubelet, ReadinessFollowsTheHookPeriodicallyAndOnDemand) {
  SimCluster c(oneNode());
  bool ready = false;
  c.kubelet().setReadinessHook([&](const Object& p) {
    EXPECT_FALSE(podIP(p).empty());  // the hook sees the pod as the kubelet runs it
    return ready;
  });
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return podPhase(get(c, "a")) == "Running"; }, seconds(5)));
  c.runFor(seconds(30));
  EXPECT_FALSE(podConditionTrue(get(c, "a"), "Ready"));
  ready = true;
  // Periodic: within one readinessPeriod (10s).
  const TimePoint flipped = c.loop().now();
  ASSERT_TRUE(c.runUntil([&] { return podConditionTrue(get(c, "a"), "Ready"); }, seconds(11)));
  EXPECT_LE(c.loop().now() - flipped, seconds(10) + milliseconds(1));
  // On demand: at once.
  ready = false;
  c.kubelet().probeNow("default", "a");
  c.runFor(milliseconds(1));
  EXPECT_FALSE(podConditionTrue(get(c, "a"), "Ready"));
  EXPECT_EQ(get(c, "a")["status"]["conditions"].size(), 4u);
}

TEST(Kubelet, AStoredViewHookSeesTheStoredMetadataAndSpecAndDrivesReadinessTheSame) {
  SimCluster c(oneNode());
  bool ready = false;
  int asked = 0;
  c.kubelet().setReadinessHook(
      [&](const Object& p) {
        ++asked;
        const Object stored = get(c, "a");
        // What a Stored hook may read (its status and resourceVersion may lag).
        for (const char* f : {"name", "namespace", "uid", "labels"}) EXPECT_EQ(p["metadata"][f], stored["metadata"][f]);
        EXPECT_EQ(p["spec"], stored["spec"]);
        return ready;
      },
      ReadinessView::Stored);
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return podPhase(get(c, "a")) == "Running"; }, seconds(5)));
  c.runFor(seconds(30));
  EXPECT_GT(asked, 0);
  EXPECT_FALSE(podConditionTrue(get(c, "a"), "Ready"));
  ready = true;
  c.kubelet().probeNow("default", "a");
  c.runFor(milliseconds(1));
  EXPECT_TRUE(podConditionTrue(get(c, "a"), "Ready"));
  ready = false;
  ASSERT_TRUE(c.runUntil([&] { return !podConditionTrue(get(c, "a"), "Ready"); }, seconds(11)));
}

TEST(Kubelet, AStatusWriteBuildsOnWhatOthersWroteAndOnWhatItWroteItself) {
  SimCluster c(oneNode());
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  // The kubelet's next write starts from its own last one (the status it built is reused)...
  ASSERT_TRUE(c.kubelet().crashContainer("default", "a", "main").ok());
  c.runFor(milliseconds(1));
  Object p = get(c, "a");
  EXPECT_EQ(containerStatus(p)["state"]["terminated"]["exitCode"], 1);
  EXPECT_FALSE(podConditionTrue(p, "Ready"));
  // ... or from someone else's, whose condition it keeps.
  ASSERT_TRUE(mutateStatus(c.client(), res::pods, "default", "a", "", [](Object& st) {
                setCondition(st, "Custom", "True", "", "", "2024-01-01T00:00:00Z");
              }).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(30)));
  p = get(c, "a");
  EXPECT_TRUE(podConditionTrue(p, "Custom"));
  EXPECT_EQ(containerStatus(p)["restartCount"], 1);
  EXPECT_EQ(p["status"]["conditions"].size(), 5u);
}

TEST(Kubelet, ReadinessProbePeriodSecondsSetsTheCheckInterval) {
  SimCluster c(oneNode());
  bool ready = false;
  c.kubelet().setReadinessHook([&](const Object&) { return ready; });
  Object p = pod("a");
  p["spec"]["containers"][0]["readinessProbe"] = {{"periodSeconds", 2}, {"initialDelaySeconds", 5}};
  ASSERT_TRUE(c.client().create(res::pods, p).ok());
  ASSERT_TRUE(c.runUntil([&] { return podPhase(get(c, "a")) == "Running"; }, seconds(5)));
  c.runFor(seconds(10));
  ready = true;
  const TimePoint flipped = c.loop().now();
  ASSERT_TRUE(c.runUntil([&] { return podConditionTrue(get(c, "a"), "Ready"); }, seconds(5)));
  EXPECT_LE(c.loop().now() - flipped, seconds(2) + milliseconds(1));
}

TEST(Kubelet, ARecreatedPodGetsANewIpAndAFreedIpGoesToAnotherPodLater) {
  SimClusterOptions o = oneNode();
  o.kubelet.ipQuarantine = seconds(30);
  SimCluster c(o);
  ASSERT_TRUE(c.client().create(res::pods, pod("a", "Always", 0)).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  const std::string ipA = podIP(get(c, "a"));
  ASSERT_TRUE(c.client().remove(res::pods, "default", "a").ok());
  ASSERT_TRUE(c.runUntil([&] { return gone(c, "a"); }, seconds(5)));
  // Right away, in quarantine: a newcomer gets a fresh address.
  ASSERT_TRUE(c.client().create(res::pods, pod("b")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "b")); }, seconds(5)));
  EXPECT_NE(podIP(get(c, "b")), ipA);
  c.runFor(seconds(60));
  // The same name again never gets its old address back...
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  EXPECT_NE(podIP(get(c, "a")), ipA);
  // ...but another pod does: the address is reused, as in a real cluster.
  ASSERT_TRUE(c.client().create(res::pods, pod("c")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "c")); }, seconds(5)));
  EXPECT_EQ(podIP(get(c, "c")), ipA);
}

TEST(Kubelet, ACrashedContainerRestartsWithCrashLoopBackOff) {
  SimCluster c(oneNode());
  std::vector<std::string> events;
  c.kubelet().addContainerListener([&](const ContainerEvent& e) {
    events.push_back(fmt::format("{} {} {}", e.kind == ContainerEvent::Kind::Started ? "start" : "stop", e.container, e.restartCount));
  });
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  const KubeletConfig cfg;
  auto crashAndTimeRestart = [&](int expectCount) {
    EXPECT_TRUE(c.kubelet().crashContainer("default", "a", "main").ok());
    const TimePoint crashed = c.loop().now();
    c.runFor(milliseconds(1));
    EXPECT_FALSE(podConditionTrue(get(c, "a"), "Ready"));
    EXPECT_TRUE(c.runUntil([&] { return podRestartCount(get(c, "a"), "main") == expectCount && isRunningAndReady(get(c, "a")); },
                           minutes(6)));
    return c.loop().now() - crashed;
  };
  const Duration first = crashAndTimeRestart(1);
  EXPECT_LE(first, cfg.restartDelayMax + milliseconds(2));  // the first restart is immediate
  Object p = get(c, "a");
  EXPECT_EQ(containerStatus(p)["lastState"]["terminated"]["exitCode"], 1);
  EXPECT_EQ(containerStatus(p)["lastState"]["terminated"]["reason"], "Error");
  // Then 10s, 20s, 40s ...
  Duration expected = seconds(10);
  for (int n = 2; n <= 6; ++n) {
    // Mid-back-off the container waits in CrashLoopBackOff.
    EXPECT_TRUE(c.kubelet().crashContainer("default", "a", "main").ok());
    c.runFor(seconds(1));
    EXPECT_EQ(containerStatus(get(c, "a"))["state"]["waiting"]["reason"], "CrashLoopBackOff");
    EXPECT_TRUE(c.kubelet().crashContainer("default", "a", "main").is(Reason::Invalid));
    const TimePoint since = c.loop().now() - seconds(1);
    ASSERT_TRUE(c.runUntil([&] { return podRestartCount(get(c, "a"), "main") == n; }, minutes(6)));
    const Duration took = c.loop().now() - since;
    EXPECT_GE(took, expected) << "restart " << n;
    EXPECT_LE(took, expected + cfg.restartDelayMax + milliseconds(2)) << "restart " << n;
    c.runFor(seconds(1));
    expected = std::min(expected * 2, Duration(minutes(5)));
  }
  EXPECT_EQ(events.front(), "start main 0");
  EXPECT_EQ(events.back(), "start main 6");
  EXPECT_EQ(events.size(), 13u);
  // A container that then runs for ten minutes starts over at an immediate restart.
  c.runFor(minutes(11));
  EXPECT_LE(crashAndTimeRestart(7), cfg.restartDelayMax + milliseconds(2));
}

TEST(Kubelet, BackOffIsCappedAtFiveMinutes) {
  SimCluster c(oneNode());
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  Duration last{0};
  for (int n = 1; n <= 8; ++n) {
    ASSERT_TRUE(c.kubelet().crashContainer("default", "a", "main").ok());
    const TimePoint t = c.loop().now();
    ASSERT_TRUE(c.runUntil([&] { return podRestartCount(get(c, "a"), "main") == n; }, minutes(10)));
    last = c.loop().now() - t;
    c.runFor(milliseconds(1));
  }
  EXPECT_GE(last, minutes(5));
  EXPECT_LE(last, minutes(5) + seconds(1));
}

TEST(Kubelet, RestartPolicyNeverAndOnFailure) {
  SimCluster c(oneNode());
  ASSERT_TRUE(c.client().create(res::pods, pod("never", "Never")).ok());
  ASSERT_TRUE(c.client().create(res::pods, pod("onfail", "OnFailure")).ok());
  ASSERT_TRUE(c.client().create(res::pods, pod("done", "OnFailure")).ok());
  ASSERT_TRUE(c.runUntil([&] {
    return isRunningAndReady(get(c, "never")) && isRunningAndReady(get(c, "onfail")) && isRunningAndReady(get(c, "done"));
  }, seconds(5)));
  ASSERT_TRUE(c.kubelet().crashContainer("default", "never", "main", 3).ok());
  ASSERT_TRUE(c.kubelet().crashContainer("default", "onfail", "main", 3).ok());
  ASSERT_TRUE(c.kubelet().crashContainer("default", "done", "main", 0).ok());
  c.runFor(seconds(30));
  Object never = get(c, "never");
  EXPECT_EQ(podPhase(never), "Failed");
  EXPECT_EQ(podRestartCount(never, "main"), 0);
  EXPECT_EQ(containerStatus(never)["state"]["terminated"]["exitCode"], 3);
  EXPECT_EQ(podPhase(get(c, "done")), "Succeeded");
  EXPECT_EQ(podRestartCount(get(c, "done"), "main"), 0);
  EXPECT_TRUE(isRunningAndReady(get(c, "onfail")));
  EXPECT_EQ(podRestartCount(get(c, "onfail"), "main"), 1);
  EXPECT_TRUE(c.kubelet().crashContainer("default", "nope", "main").is(Reason::NotFound));
  EXPECT_TRUE(c.kubelet().crashContainer("default", "onfail", "nope").is(Reason::NotFound));
}

TEST(Kubelet, GracefulDeletionGivesContainersTheGracePeriod) {
  SimCluster c(oneNode());
  std::vector<std::string> stops;
  c.kubelet().addContainerListener([&](const ContainerEvent& e) {
    if (e.kind == ContainerEvent::Kind::Stopped) stops.push_back(fmt::format("{} {}", e.pod, e.reason));
  });
  ASSERT_TRUE(c.client().create(res::pods, pod("a", "Always", 20)).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  ASSERT_TRUE(c.client().remove(res::pods, "default", "a").ok());
  const TimePoint deleted = c.loop().now();
  c.runFor(seconds(19));
  Object p = get(c, "a");
  ASSERT_FALSE(p.is_null());
  EXPECT_TRUE(meta::isDeleting(p));
  EXPECT_FALSE(podConditionTrue(p, "Ready"));
  EXPECT_TRUE(stops.empty());
  ASSERT_TRUE(c.runUntil([&] { return gone(c, "a"); }, seconds(5)));
  EXPECT_EQ(c.loop().now() - deleted, seconds(20));
  EXPECT_EQ(stops, (std::vector<std::string>{"a Killed"}));
  EXPECT_FALSE(c.kubelet().ipOf("default", "a").has_value());
}

TEST(Kubelet, TheTerminationHookShortensShutdown) {
  SimCluster c(oneNode());
  c.kubelet().setTerminationHook([](const Object&, Duration) { return Duration(seconds(2)); });
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  ASSERT_TRUE(c.client().remove(res::pods, "default", "a").ok());
  const TimePoint deleted = c.loop().now();
  ASSERT_TRUE(c.runUntil([&] { return gone(c, "a"); }, seconds(60)));
  EXPECT_EQ(c.loop().now() - deleted, seconds(2));
}

TEST(Kubelet, AFailedNodeTakesItsPodsDownAndTheyAreEvictedAndRecreatedElsewhere) {
  SimClusterOptions o;
  o.nodeLifecycle.evictionDelay = seconds(40);
  SimCluster c(o);
  ASSERT_TRUE(c.client().create(res::statefulsets, simtest::statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return simtest::converged(c.client(), "default", "web", 3); }, minutes(2)));
  const std::string victim = podNodeName(get(c, "web-1"));
  ASSERT_TRUE(c.failNode(victim).ok());
  c.runFor(milliseconds(10));
  auto node = c.client().get(res::nodes, "", victim);
  ASSERT_TRUE(node.ok());
  EXPECT_EQ(podCondition(*node, "Ready")->value("status", ""), "Unknown");
  bool tainted = false;
  for (const auto& t : (*node)["spec"]["taints"])
    if (t["key"] == "node.kubernetes.io/unreachable" && t["effect"] == "NoExecute") tainted = true;
  EXPECT_TRUE(tainted);
  EXPECT_FALSE(podConditionTrue(get(c, "web-1"), "Ready"));
  // Evicted after the toleration, recreated on a live node.
  c.runFor(seconds(39));
  EXPECT_EQ(podNodeName(get(c, "web-1")), victim);
  ASSERT_TRUE(c.runUntil([&] { return simtest::converged(c.client(), "default", "web", 3); }, minutes(2)));
  for (const auto& p : simtest::podsOf(c.client(), "default", "web")) EXPECT_NE(podNodeName(p), victim);
  EXPECT_GE(c.nodeLifecycle().evictions(), 1u);

  ASSERT_TRUE(c.recoverNode(victim).ok());
  c.runFor(milliseconds(10));
  node = c.client().get(res::nodes, "", victim);
  EXPECT_TRUE(podConditionTrue(*node, "Ready"));
  EXPECT_FALSE((*node)["spec"].contains("taints"));
}

TEST(Kubelet, ARecoveredNodeRestartsItsPodsInANewSandbox) {
  SimClusterOptions o = oneNode();
  SimCluster c(o);
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  const std::string ip = podIP(get(c, "a"));
  ASSERT_TRUE(c.failNode("node-0").ok());
  c.runFor(seconds(60));
  EXPECT_FALSE(podConditionTrue(get(c, "a"), "Ready"));
  ASSERT_TRUE(c.recoverNode("node-0").ok());
  ASSERT_TRUE(c.runUntil([&] { return isRunningAndReady(get(c, "a")); }, seconds(5)));
  EXPECT_NE(podIP(get(c, "a")), ip);
  EXPECT_EQ(podRestartCount(get(c, "a"), "main"), 1);
}

}  // namespace
}  // namespace kun::sim
