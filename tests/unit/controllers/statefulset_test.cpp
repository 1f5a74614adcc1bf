// The StatefulSet controller on a whole simulated cluster.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "fakeapi/controllers/sim_cluster.h"
#include "tests/unit/controllers/sim_test_util.h"

namespace kun::sim {
namespace {

using simtest::converged;
using simtest::podsOf;
using simtest::statefulSet;

// Records the pods' watch events in order: "ADDED web-0", "DELETING web-2", "DELETED web-2".
struct PodLog {
  std::vector<std::string> lines;
  std::unique_ptr<Watch> watch;
  PodLog(KubeClient& c) {
    auto w = c.watch(res::pods, "default", {}, [this](const WatchEvent& ev) {
      const std::string n = meta::name(*ev.object);
      if (ev.type == WatchEventType::Added) lines.push_back("ADDED " + n);
      if (ev.type == WatchEventType::Deleted) lines.push_back("DELETED " + n);
      if (ev.type == WatchEventType::Modified && meta::isDeleting(*ev.object) &&
          (lines.empty() || lines.back() != "DELETING " + n)) {
        // Only the first MODIFIED that carries the deletion mark.
        bool seen = false;
        for (auto it = lines.rbegin(); it != lines.rend(); ++it) {
          if (*it == "ADDED " + n) break;
          if (*it == "DELETING " + n) seen = true;
        }
        if (!seen) lines.push_back("DELETING " + n);
      }
    }, [](const Error&) {});
    watch = std::move(w.value());
  }
  std::vector<std::string> only(std::string_view prefix) const {
    std::vector<std::string> out;
    for (const auto& l : lines)
      if (l.rfind(prefix, 0) == 0) out.push_back(l);
    return out;
  }
};

TEST(StatefulSet, CreatesPodsWithStableIdentityAndStatus) {
  SimCluster c;
  ASSERT_TRUE(c.setupStatus().ok());
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  c.runFor(seconds(1));
  auto set = c.client().get(res::statefulsets, "default", "web");
  ASSERT_TRUE(set.ok());
  const Object& st = (*set)["status"];
  EXPECT_EQ(st["replicas"], 3);
  EXPECT_EQ(st["readyReplicas"], 3);
  EXPECT_EQ(st["currentReplicas"], 3);
  EXPECT_EQ(st["updatedReplicas"], 3);
  EXPECT_EQ(st["observedGeneration"], meta::generation(*set));
  const std::string rev = st["updateRevision"];
  EXPECT_EQ(st["currentRevision"], rev);
  EXPECT_EQ(rev, revisionName("web", templateHash((*set)["spec"]["template"])));
  auto revObj = c.client().get(res::controllerrevisions, "default", rev);
  ASSERT_TRUE(revObj.ok());
  EXPECT_EQ(revisionTemplate(*revObj), (*set)["spec"]["template"]);

  for (const auto& pod : podsOf(c.client(), "default", "web")) {
    const std::string name = meta::name(pod);
    EXPECT_EQ(meta::label(pod, "app"), "web");
    EXPECT_EQ(meta::label(pod, kRevisionLabel), rev);
    EXPECT_EQ(meta::label(pod, kPodNameLabel), name);
    auto owner = meta::controllerOf(pod);
    ASSERT_TRUE(owner.has_value());
    EXPECT_EQ(owner->uid, meta::uid(*set));
    EXPECT_EQ(owner->kind, "StatefulSet");
    EXPECT_TRUE(owner->blockOwnerDeletion);
    EXPECT_EQ(pod["spec"]["hostname"], name);
    EXPECT_EQ(pod["spec"]["subdomain"], "web");
  }
}

TEST(StatefulSet, OrderedReadyCreatesOrdinalOnlyAfterLowerOnesAreReady) {
  SimCluster c;
  bool oneReady = false;
  c.kubelet().setReadinessHook([&](const Object& pod) { return meta::name(pod) != "web-1" || oneReady; });
  PodLog log(c.client());
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web")).ok());
  c.runFor(minutes(2));
  // web-1 never gets ready, so web-2 is never created.
  EXPECT_EQ(log.only("ADDED"), (std::vector<std::string>{"ADDED web-0", "ADDED web-1"}));
  auto pods = podsOf(c.client(), "default", "web");
  ASSERT_EQ(pods.size(), 2u);
  EXPECT_TRUE(isRunningAndReady(pods[0]));
  EXPECT_EQ(podPhase(pods[1]), "Running");
  EXPECT_FALSE(podConditionTrue(pods[1], "Ready"));

  oneReady = true;
  c.kubelet().probeNow("default", "web-1");
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(1)));
  EXPECT_EQ(log.only("ADDED"), (std::vector<std::string>{"ADDED web-0", "ADDED web-1", "ADDED web-2"}));
}

TEST(StatefulSet, ParallelCreatesEveryPodWithoutWaiting) {
  SimCluster c;
  c.kubelet().setReadinessHook([](const Object&) { return false; });
  simtest::SetOptions o;
  o.policy = "Parallel";
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  c.runFor(seconds(30));
  auto pods = podsOf(c.client(), "default", "web");
  ASSERT_EQ(pods.size(), 3u);
  for (const auto& p : pods) EXPECT_EQ(podPhase(p), "Running");
}

TEST(StatefulSet, ScalesDownOneAtATimeHighestOrdinalFirst) {
  SimCluster c;
  simtest::SetOptions o;
  o.replicas = 4;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 4); }, minutes(2)));
  PodLog log(c.client());
  ASSERT_TRUE(simtest::scale(c.client(), "default", "web", 1).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 1); }, minutes(5)));
  c.runFor(seconds(1));
  std::vector<std::string> deletions;
  for (const auto& l : log.lines)
    if (l.rfind("DELET", 0) == 0) deletions.push_back(l);
  EXPECT_EQ(deletions, (std::vector<std::string>{"DELETING web-3", "DELETED web-3", "DELETING web-2",
                                                 "DELETED web-2", "DELETING web-1", "DELETED web-1"}));
}

TEST(StatefulSet, ParallelScaleDownDeletesAllCondemnedAtOnce) {
  SimCluster c;
  simtest::SetOptions o;
  o.replicas = 4;
  o.policy = "Parallel";
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 4); }, minutes(2)));
  PodLog log(c.client());
  ASSERT_TRUE(simtest::scale(c.client(), "default", "web", 1).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 1); }, minutes(5)));
  c.runFor(seconds(1));
  // All three are marked before the first is gone.
  const auto l = log.only("DELET");
  ASSERT_EQ(l.size(), 6u);
  for (int i = 0; i < 3; ++i) EXPECT_EQ(l[static_cast<std::size_t>(i)].rfind("DELETING", 0), 0u) << l[static_cast<std::size_t>(i)];
}

TEST(StatefulSet, RecreatesADeletedPodUnderTheSameNameWithANewIp) {
  SimCluster c;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  auto before = c.client().get(res::pods, "default", "web-1");
  ASSERT_TRUE(before.ok());
  ASSERT_TRUE(simtest::deletePod(c.client(), "default", "web-1").ok());
  c.runFor(milliseconds(1));
  EXPECT_FALSE(converged(c.client(), "default", "web", 3));
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  auto after = c.client().get(res::pods, "default", "web-1");
  ASSERT_TRUE(after.ok());
  EXPECT_NE(meta::uid(*after), meta::uid(*before));
  EXPECT_NE(podIP(*after), podIP(*before));
  EXPECT_FALSE(podIP(*after).empty());
}

TEST(StatefulSet, RollingUpdateGoesHighestFirstAndHonoursThePartition) {
  SimCluster c;
  simtest::SetOptions o;
  o.replicas = 4;
  o.partition = 1;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 4); }, minutes(2)));
  c.runFor(seconds(1));
  const std::string oldRev = c.client().get(res::statefulsets, "default", "web")->at("status")["currentRevision"];
  PodLog log(c.client());
  ASSERT_TRUE(c.client().patch(res::statefulsets, "default", "web",
                               Object{{"spec", {{"template", {{"spec", {{"containers", Object::array({{{"name", "redis"}, {"image", "redis:7.4"}}})}}}}}}}})
                  .ok());
  auto updatedAbovePartition = [&] {
    auto pods = podsOf(c.client(), "default", "web");
    if (pods.size() != 4) return false;
    for (std::size_t i = 1; i < 4; ++i) {
      if (!isRunningAndReady(pods[i]) || meta::label(pods[i], kRevisionLabel) == oldRev) return false;
    }
    return isRunningAndReady(pods[0]);
  };
  ASSERT_TRUE(c.runUntil(updatedAbovePartition, minutes(5)));
  c.runFor(seconds(5));
  auto pods = podsOf(c.client(), "default", "web");
  EXPECT_EQ(meta::label(pods[0], kRevisionLabel), oldRev);  // below the partition
  EXPECT_EQ(pods[1]["spec"]["containers"][0]["image"], "redis:7.4");
  EXPECT_EQ(pods[0]["spec"]["containers"][0]["image"], "redis:7.2");
  EXPECT_EQ(log.only("DELETING"), (std::vector<std::string>{"DELETING web-3", "DELETING web-2", "DELETING web-1"}));
  // One at a time: each deletion starts after the previous pod came back.
  const auto& l = log.lines;
  auto pos = [&](const std::string& s) { return std::find(l.begin(), l.end(), s) - l.begin(); };
  EXPECT_LT(pos("ADDED web-3"), pos("DELETING web-2"));
  EXPECT_LT(pos("ADDED web-2"), pos("DELETING web-1"));
  auto set = c.client().get(res::statefulsets, "default", "web");
  EXPECT_EQ((*set)["status"]["updatedReplicas"], 3);
  EXPECT_EQ((*set)["status"]["currentReplicas"], 1);
  EXPECT_EQ((*set)["status"]["currentRevision"], oldRev);
  EXPECT_NE((*set)["status"]["updateRevision"], oldRev);

  // A deleted pod below the partition comes back at the current (old) revision.
  ASSERT_TRUE(simtest::deletePod(c.client(), "default", "web-0").ok());
  c.runFor(milliseconds(1));
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 4); }, minutes(2)));
  EXPECT_EQ(meta::label(podsOf(c.client(), "default", "web")[0], kRevisionLabel), oldRev);

  // Partition 0 finishes the update; the update revision becomes current.
  ASSERT_TRUE(c.client().patch(res::statefulsets, "default", "web",
                               Object{{"spec", {{"updateStrategy", {{"rollingUpdate", {{"partition", 0}}}}}}}})
                  .ok());
  ASSERT_TRUE(c.runUntil([&] {
    auto s = c.client().get(res::statefulsets, "default", "web");
    return s && (*s)["status"].value("currentRevision", "") == (*s)["status"].value("updateRevision", "") &&
           (*s)["status"].value("readyReplicas", 0) == 4;
  }, minutes(5)));
  for (const auto& p : podsOf(c.client(), "default", "web")) EXPECT_EQ(p["spec"]["containers"][0]["image"], "redis:7.4");
}

TEST(StatefulSet, OnDeleteUpdatesAPodOnlyWhenItIsDeleted) {
  SimCluster c;
  simtest::SetOptions o;
  o.strategy = "OnDelete";
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  const auto uids = [&] {
    std::vector<std::string> u;
    for (const auto& p : podsOf(c.client(), "default", "web")) u.push_back(meta::uid(p));
    return u;
  };
  const auto before = uids();
  ASSERT_TRUE(c.client().patch(res::statefulsets, "default", "web",
                               Object{{"spec", {{"template", {{"spec", {{"containers", Object::array({{{"name", "redis"}, {"image", "redis:7.4"}}})}}}}}}}})
                  .ok());
  c.runFor(minutes(2));
  EXPECT_EQ(uids(), before);
  ASSERT_TRUE(simtest::deletePod(c.client(), "default", "web-1").ok());
  c.runFor(milliseconds(1));
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  auto pods = podsOf(c.client(), "default", "web");
  EXPECT_EQ(pods[1]["spec"]["containers"][0]["image"], "redis:7.4");
  EXPECT_EQ(pods[0]["spec"]["containers"][0]["image"], "redis:7.2");
  EXPECT_EQ(pods[2]["spec"]["containers"][0]["image"], "redis:7.2");
  auto set = c.client().get(res::statefulsets, "default", "web");
  EXPECT_EQ((*set)["status"]["updatedReplicas"], 1);
}

TEST(StatefulSet, ClaimsAreNamedPerOrdinalBoundAndOutliveTheirPods) {
  SimCluster c;
  simtest::SetOptions o;
  o.claims = true;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web", o)).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  std::map<std::string, std::string> claimUids;
  for (int i = 0; i < 3; ++i) {
    const std::string name = fmt::format("data-web-{}", i);
    auto pvc = c.client().get(res::persistentvolumeclaims, "default", name);
    ASSERT_TRUE(pvc.ok()) << name;
    EXPECT_EQ((*pvc)["status"]["phase"], "Bound");
    EXPECT_TRUE(meta::ownerReferences(*pvc).empty());
    EXPECT_EQ(meta::label(*pvc, "app"), "web");
    claimUids[name] = meta::uid(*pvc);
    auto pod = c.client().get(res::pods, "default", fmt::format("web-{}", i));
    ASSERT_TRUE(pod.ok());
    EXPECT_EQ((*pod)["spec"]["volumes"][0]["persistentVolumeClaim"]["claimName"], name);
  }
  ASSERT_TRUE(simtest::deletePod(c.client(), "default", "web-2").ok());
  c.runFor(milliseconds(1));
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  ASSERT_TRUE(simtest::scale(c.client(), "default", "web", 1).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 1); }, minutes(5)));
  for (const auto& [name, uid] : claimUids) {
    auto pvc = c.client().get(res::persistentvolumeclaims, "default", name);
    ASSERT_TRUE(pvc.ok()) << name;
    EXPECT_EQ(meta::uid(*pvc), uid);
  }
  // Scaling up again mounts the same claims.
  ASSERT_TRUE(simtest::scale(c.client(), "default", "web", 3).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  EXPECT_EQ(meta::uid(*c.client().get(res::persistentvolumeclaims, "default", "data-web-2")), claimUids["data-web-2"]);
}

TEST(StatefulSet, AHealthySetWritesNothing) {
  SimCluster c;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  c.runFor(seconds(5));
  const std::string rv = c.store().resourceVersion();
  const std::uint64_t syncs = c.statefulSets().syncs();
  c.statefulSets().enqueue("default", "web");
  c.runFor(minutes(5));
  EXPECT_GT(c.statefulSets().syncs(), syncs);
  EXPECT_EQ(c.store().resourceVersion(), rv);
}

TEST(StatefulSet, AFailedPodIsDeletedAndRecreated) {
  SimCluster c;
  Object set = statefulSet("web");
  set["spec"]["template"]["spec"]["restartPolicy"] = "Never";
  ASSERT_TRUE(c.client().create(res::statefulsets, set).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  const std::string uid = meta::uid(*c.client().get(res::pods, "default", "web-1"));
  ASSERT_TRUE(c.kubelet().crashContainer("default", "web-1", "redis", 2).ok());
  ASSERT_TRUE(c.runUntil([&] {
    auto p = c.client().get(res::pods, "default", "web-1");
    return p && meta::uid(*p) != uid && isRunningAndReady(*p);
  }, minutes(2)));
}

TEST(StatefulSet, SuccessfulCreateEventsAreRecorded) {
  SimCluster c;
  ASSERT_TRUE(c.client().create(res::statefulsets, statefulSet("web")).ok());
  ASSERT_TRUE(c.runUntil([&] { return converged(c.client(), "default", "web", 3); }, minutes(2)));
  auto events = c.client().list(res::events, "default");
  ASSERT_TRUE(events.ok());
  int creates = 0;
  for (const auto& e : events->items) {
    if (e["reason"] == "SuccessfulCreate" && e["involvedObject"]["kind"] == "StatefulSet") {
      ++creates;
      EXPECT_EQ(e["source"]["component"], "statefulset-controller");
    }
  }
  EXPECT_EQ(creates, 3);
}

}  // namespace
}  // namespace kun::sim
