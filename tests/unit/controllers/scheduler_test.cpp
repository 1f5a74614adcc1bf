// The scheduler: node selection rules, spreading, and unschedulable reporting.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "fakeapi/controllers/nodes.h"
#include "fakeapi/controllers/scheduling_rules.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "tests/unit/controllers/sim_test_util.h"

namespace kun::sim {
namespace {

Object pod(const std::string& name, const std::string& app = "r") {
  return Object{{"apiVersion", "v1"},
                {"kind", "Pod"},
                {"metadata", {{"name", name}, {"namespace", "default"}, {"labels", {{"app", app}}}}},
                {"spec", {{"containers", Object::array({{{"name", "main"}, {"image", "busybox:1"}}})}}}};
}

Object antiAffinity(const std::string& app, const std::string& key) {
  return {{"podAntiAffinity",
           {{"requiredDuringSchedulingIgnoredDuringExecution",
             Object::array({{{"labelSelector", {{"matchLabels", {{"app", app}}}}}, {"topologyKey", key}}})}}}};
}

Object withAffinity(Object p, const Object& affinity) {
  p["spec"]["affinity"] = affinity;
  return p;
}

Object get(SimCluster& c, const std::string& name) { return c.client().get(res::pods, "default", name).value(); }
std::string nodeOf(SimCluster& c, const std::string& name) { return podNodeName(get(c, name)); }
std::string zoneOf(SimCluster& c, const std::string& node) {
  return meta::label(c.client().get(res::nodes, "", node).value(), "topology.kubernetes.io/zone");
}

std::string unschedulableMessage(SimCluster& c, const std::string& name) {
  const Object p = get(c, name);
  const Object* cond = podCondition(p, "PodScheduled");
  if (!cond || cond->value("status", "") != "False" || cond->value("reason", "") != "Unschedulable") return {};
  return cond->value("message", "");
}

TEST(Scheduler, NodeSelectorPicksTheMatchingNode) {
  SimCluster c;
  Object p = pod("a");
  p["spec"]["nodeSelector"] = {{"topology.kubernetes.io/zone", "zone-b"}};
  ASSERT_TRUE(c.client().create(res::pods, p).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "a"), "node-1");
  EXPECT_TRUE(podConditionTrue(get(c, "a"), "PodScheduled"));
}

TEST(Scheduler, RequiredNodeAffinityOperators) {
  SimCluster c;
  Object p = pod("a");
  p["spec"]["affinity"] = {{"nodeAffinity",
                            {{"requiredDuringSchedulingIgnoredDuringExecution",
                              {{"nodeSelectorTerms",
                                Object::array({{{"matchExpressions",
                                                 Object::array({{{"key", "kubernetes.io/hostname"},
                                                                 {"operator", "NotIn"},
                                                                 {"values", Object::array({"node-0", "node-1"})}}})}}})}}}}}};
  ASSERT_TRUE(c.client().create(res::pods, p).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "a"), "node-2");
}

TEST(Scheduler, TaintsRepelPodsThatDoNotTolerateThem) {
  SimCluster c;
  for (const char* n : {"node-0", "node-1"}) {
    ASSERT_TRUE(addTaint(c.client(), n, Object{{"key", "dedicated"}, {"value", "db"}, {"effect", "NoSchedule"}}).ok());
  }
  for (int i = 0; i < 4; ++i) ASSERT_TRUE(c.client().create(res::pods, pod(fmt::format("p{}", i))).ok());
  Object tolerant = pod("t");
  tolerant["spec"]["tolerations"] = Object::array({{{"key", "dedicated"}, {"operator", "Equal"}, {"value", "db"}, {"effect", "NoSchedule"}}});
  tolerant["spec"]["nodeSelector"] = {{"kubernetes.io/hostname", "node-0"}};
  ASSERT_TRUE(c.client().create(res::pods, tolerant).ok());
  c.runFor(seconds(1));
  for (int i = 0; i < 4; ++i) EXPECT_EQ(nodeOf(c, fmt::format("p{}", i)), "node-2");
  EXPECT_EQ(nodeOf(c, "t"), "node-0");
}

TEST(Scheduler, RequiredAntiAffinityOnHostnameLeavesTheExtraPodPendingWithTheReason) {
  SimCluster c;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod(fmt::format("p{}", i)), antiAffinity("r", "kubernetes.io/hostname"))).ok());
  }
  c.runFor(seconds(5));
  std::set<std::string> nodes;
  for (int i = 0; i < 3; ++i) nodes.insert(nodeOf(c, fmt::format("p{}", i)));
  EXPECT_EQ(nodes.size(), 3u);
  EXPECT_EQ(nodeOf(c, "p3"), "");
  EXPECT_EQ(podPhase(get(c, "p3")), "Pending");
  EXPECT_EQ(unschedulableMessage(c, "p3"), "0/3 nodes are available: 3 node(s) didn't match pod anti-affinity rules.");
  // A FailedScheduling event says the same.
  auto events = c.client().list(res::events, "default");
  ASSERT_TRUE(events.ok());
  int failed = 0;
  for (const auto& e : events->items) {
    if (e["reason"] == "FailedScheduling" && e["involvedObject"]["name"] == "p3") {
      ++failed;
      EXPECT_EQ(e["type"], "Warning");
      EXPECT_EQ(e["message"], unschedulableMessage(c, "p3"));
    }
  }
  EXPECT_EQ(failed, 1);
  // A new node makes room: retried on the node change.
  ASSERT_TRUE(c.client().create(res::nodes, makeNode("node-3", "zone-a", 3)).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "p3"), "node-3");
  EXPECT_TRUE(podConditionTrue(get(c, "p3"), "PodScheduled"));
}

TEST(Scheduler, APendingPodIsRetriedWhenAPodGoes) {
  SimCluster c;
  for (int i = 0; i < 4; ++i) {
    ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod(fmt::format("p{}", i)), antiAffinity("r", "kubernetes.io/hostname"))).ok());
  }
  c.runFor(seconds(5));
  ASSERT_EQ(nodeOf(c, "p3"), "");
  const std::string freed = nodeOf(c, "p1");
  ASSERT_TRUE(c.client().remove(res::pods, "default", "p1", DeleteOptions{{}, {}, {}, 0}).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "p3"), freed);
}

TEST(Scheduler, ZoneAntiAffinitySpreadsAcrossZones) {
  SimClusterOptions o;
  o.nodes = 4;
  o.zones = 2;
  SimCluster c(o);
  for (int i = 0; i < 3; ++i) {
    ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod(fmt::format("p{}", i)), antiAffinity("r", "topology.kubernetes.io/zone"))).ok());
  }
  c.runFor(seconds(5));
  EXPECT_NE(zoneOf(c, nodeOf(c, "p0")), zoneOf(c, nodeOf(c, "p1")));
  EXPECT_EQ(nodeOf(c, "p2"), "");
  EXPECT_EQ(unschedulableMessage(c, "p2"), "0/4 nodes are available: 4 node(s) didn't match pod anti-affinity rules.");
}

TEST(Scheduler, ExistingPodsAntiAffinityIsHonouredToo) {
  SimClusterOptions o;
  o.nodes = 2;
  SimCluster c(o);
  // The guard refuses company of app=other on its node.
  Object guard = withAffinity(pod("guard", "guard"), antiAffinity("other", "kubernetes.io/hostname"));
  guard["spec"]["nodeSelector"] = {{"kubernetes.io/hostname", "node-0"}};
  ASSERT_TRUE(c.client().create(res::pods, guard).ok());
  c.runFor(seconds(1));
  Object other = pod("o", "other");
  other["spec"]["nodeSelector"] = {{"kubernetes.io/hostname", "node-0"}};
  ASSERT_TRUE(c.client().create(res::pods, other).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "o"), "");
  EXPECT_EQ(unschedulableMessage(c, "o"),
            "0/2 nodes are available: 1 node(s) didn't match Pod's node affinity/selector, "
            "1 node(s) didn't satisfy existing pods anti-affinity rules.");
}

TEST(Scheduler, TheMessageCountsEachNodesFirstFailingRule) {
  SimCluster c;
  ASSERT_TRUE(addTaint(c.client(), "node-0", Object{{"key", "dedicated"}, {"value", "x"}, {"effect", "NoSchedule"}}).ok());
  ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod("a"), antiAffinity("r", "kubernetes.io/hostname"))).ok());
  ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod("b"), antiAffinity("r", "kubernetes.io/hostname"))).ok());
  ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod("c"), antiAffinity("r", "kubernetes.io/hostname"))).ok());
  c.runFor(seconds(2));
  EXPECT_EQ(nodeOf(c, "c"), "");
  EXPECT_EQ(unschedulableMessage(c, "c"),
            "0/3 nodes are available: 1 node(s) had untolerated taint {dedicated: x}, "
            "2 node(s) didn't match pod anti-affinity rules.");
}

TEST(Scheduler, RequiredPodAffinityCoLocatesAndLetsTheFirstPodIn) {
  SimCluster c;
  const Object together = {{"podAffinity",
                            {{"requiredDuringSchedulingIgnoredDuringExecution",
                              Object::array({{{"labelSelector", {{"matchLabels", {{"app", "r"}}}}},
                                              {"topologyKey", "kubernetes.io/hostname"}}})}}}};
  ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod("a"), together)).ok());
  c.runFor(seconds(1));
  ASSERT_NE(nodeOf(c, "a"), "");  // matches its own term: allowed anywhere
  for (int i = 0; i < 3; ++i) ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod(fmt::format("b{}", i)), together)).ok());
  c.runFor(seconds(1));
  for (int i = 0; i < 3; ++i) EXPECT_EQ(nodeOf(c, fmt::format("b{}", i)), nodeOf(c, "a"));
  // A pod whose affinity matches nothing, not even itself, cannot go anywhere.
  const Object lonely = {{"podAffinity",
                          {{"requiredDuringSchedulingIgnoredDuringExecution",
                            Object::array({{{"labelSelector", {{"matchLabels", {{"app", "nobody"}}}}},
                                            {"topologyKey", "kubernetes.io/hostname"}}})}}}};
  ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod("l"), lonely)).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(unschedulableMessage(c, "l"), "0/3 nodes are available: 3 node(s) didn't match pod affinity rules.");
}

TEST(Scheduler, PreferredAntiAffinitySpreadsButDoesNotBlock) {
  SimCluster c;
  const Object prefer = {{"podAntiAffinity",
                          {{"preferredDuringSchedulingIgnoredDuringExecution",
                            Object::array({{{"weight", 100},
                                            {"podAffinityTerm",
                                             {{"labelSelector", {{"matchLabels", {{"app", "r"}}}}},
                                              {"topologyKey", "kubernetes.io/hostname"}}}}})}}}};
  for (int i = 0; i < 5; ++i) {
    ASSERT_TRUE(c.client().create(res::pods, withAffinity(pod(fmt::format("p{}", i)), prefer)).ok());
  }
  c.runFor(seconds(2));
  std::map<std::string, int> perNode;
  for (int i = 0; i < 5; ++i) ++perNode[nodeOf(c, fmt::format("p{}", i))];
  EXPECT_FALSE(perNode.count(""));
  EXPECT_EQ(perNode.size(), 3u);
  for (const auto& [n, k] : perNode) EXPECT_LE(k, 2) << n;
}

TEST(Scheduler, AStatefulSetSpreadsOverNodesWithoutAnyAffinity) {
  SimCluster c;
  ASSERT_TRUE(c.client().create(res::statefulsets, simtest::statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return simtest::converged(c.client(), "default", "web", 3); }, minutes(2)));
  std::set<std::string> nodes;
  for (const auto& p : simtest::podsOf(c.client(), "default", "web")) nodes.insert(podNodeName(p));
  EXPECT_EQ(nodes.size(), 3u);
}

TEST(Scheduler, APodWaitsForItsClaim) {
  SimCluster c;
  Object p = pod("a");
  p["spec"]["volumes"] = Object::array({{{"name", "d"}, {"persistentVolumeClaim", {{"claimName", "data"}}}}});
  ASSERT_TRUE(c.client().create(res::pods, p).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(unschedulableMessage(c, "a"), "0/3 nodes are available: persistentvolumeclaim \"data\" not found.");
  Object claim = {{"apiVersion", "v1"},
                  {"kind", "PersistentVolumeClaim"},
                  {"metadata", {{"name", "data"}, {"namespace", "default"}}},
                  {"spec", {{"accessModes", Object::array({"ReadWriteOnce"})}, {"resources", {{"requests", {{"storage", "2Gi"}}}}}}}};
  ASSERT_TRUE(c.client().create(res::persistentvolumeclaims, claim).ok());
  c.runFor(milliseconds(100));
  EXPECT_EQ(unschedulableMessage(c, "a"), "0/3 nodes are available: pod has unbound immediate PersistentVolumeClaims.");
  c.runFor(seconds(2));
  EXPECT_NE(nodeOf(c, "a"), "");
  auto pvc = c.client().get(res::persistentvolumeclaims, "default", "data");
  EXPECT_EQ((*pvc)["status"]["phase"], "Bound");
  EXPECT_EQ((*pvc)["status"]["capacity"]["storage"], "2Gi");
  EXPECT_EQ((*pvc)["spec"]["volumeName"], "pvc-" + meta::uid(*pvc));
}

TEST(Scheduler, CordonedNodesAreSkipped) {
  SimCluster c;
  ASSERT_TRUE(setUnschedulable(c.client(), "node-0", true).ok());
  ASSERT_TRUE(setUnschedulable(c.client(), "node-1", true).ok());
  ASSERT_TRUE(setUnschedulable(c.client(), "node-2", true).ok());
  ASSERT_TRUE(c.client().create(res::pods, pod("a")).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(unschedulableMessage(c, "a"), "0/3 nodes are available: 3 node(s) were unschedulable.");
  ASSERT_TRUE(setUnschedulable(c.client(), "node-2", false).ok());
  c.runFor(seconds(1));
  EXPECT_EQ(nodeOf(c, "a"), "node-2");
}

TEST(SchedulingRules, TolerationsMatchAsKubernetesDoes) {
  const Object taint = {{"key", "k"}, {"value", "v"}, {"effect", "NoSchedule"}};
  auto tol = [](Object t) { return Object::array({std::move(t)}); };
  EXPECT_TRUE(toleratesTaint(tol({{"key", "k"}, {"value", "v"}}), taint));  // any effect
  EXPECT_TRUE(toleratesTaint(tol({{"key", "k"}, {"operator", "Exists"}, {"effect", "NoSchedule"}}), taint));
  EXPECT_TRUE(toleratesTaint(tol({{"operator", "Exists"}}), taint));  // everything
  EXPECT_FALSE(toleratesTaint(tol({{"key", "k"}, {"value", "w"}}), taint));
  EXPECT_FALSE(toleratesTaint(tol({{"key", "k"}, {"value", "v"}, {"effect", "NoExecute"}}), taint));
  EXPECT_FALSE(toleratesTaint(tol({{"key", "j"}, {"operator", "Exists"}}), taint));
  EXPECT_FALSE(toleratesTaint(Object(), taint));
  EXPECT_EQ(describeTaint(taint), "{k: v}");
  EXPECT_EQ(describeTaint(Object{{"key", "node.kubernetes.io/unreachable"}}), "{node.kubernetes.io/unreachable: }");
}

}  // namespace
}  // namespace kun::sim
