#pragma once
// The simulated kubelet of every node: runs the pods bound to a node (spec.nodeName) and
// reports their status as a real kubelet does. Lifecycle, all on the loop's virtual clock:
// - admitted: phase Pending, containers waiting (ContainerCreating), hostIP set;
// - after a seeded start delay: a pod IP from the node's range (see IpPool), containers
//   running, phase Running; readiness from the readiness hook (default: ready), checked at
//   readinessProbe.initialDelaySeconds and every periodSeconds (default config), and on
//   demand (probeNow);
// - a crashed container (crashContainer, for the chaos layer) restarts per restartPolicy
//   (Always / OnFailure / Never) with Kubernetes' CrashLoopBackOff: the first restart at
//   once, then 10s, 20s, ... up to 5min; the back-off resets once a container ran 10min;
// - graceful deletion: on deletionTimestamp the containers get SIGTERM; they exit after the
//   termination hook's duration (default: the whole grace period), then the kubelet
//   confirms the deletion (delete with gracePeriodSeconds=0) and the IP goes back to the
//   pool;
// - node down (nodeDown): containers die, the pods are marked not Ready (as the node
//   lifecycle controller does), nothing else happens on that node until nodeUp, which
//   restarts the surviving pods in a new sandbox (new IP, restartCount + 1).
//
// Simplified: no init containers, liveness/startup probes, images or resources; one
// readiness verdict per pod (all its running containers share it).
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/kube/event_recorder.h"
#include "core/kube/informer.h"
#include "core/kube/time_text.h"
#include "core/runtime/random.h"
#include "fakeapi/controllers/ip_pool.h"
#include "fakeapi/controllers/sim_env.h"

namespace kun::sim {

struct KubeletConfig {
  Duration startDelayMin = milliseconds(500);  // sandbox, image, container start
  Duration startDelayMax = seconds(2);
  Duration restartDelayMin = milliseconds(100);  // re-creating a container after back-off
  Duration restartDelayMax = milliseconds(500);
  Duration readinessPeriod = seconds(10);  // when no readinessProbe.periodSeconds is given
  Duration backoffInitial = seconds(10);
  Duration backoffMax = minutes(5);
  Duration ipQuarantine = seconds(30);
  Duration retryAfterError = seconds(1);
  Duration defaultGrace = seconds(30);  // when the pod carries no grace period
};

// Is the pod ready? Given the pod with the kubelet's current status (podIP, phase, ...), or,
// for a hook that reads only metadata and spec, the pod as stored (see ReadinessView).
using ReadinessHook = std::function<bool(const Object& pod)>;
// What a readiness hook is handed. WithStatus: the stored pod with the status the kubelet
// would write now (a copy of the pod, rebuilt after every change). Stored: the pod as the
// kubelet last saw it, whose metadata and spec are the same and whose status may lag: for
// a hook that reads nothing else it gives the same answer without the copy.
enum class ReadinessView { WithStatus, Stored };
// How long the pod's containers take to exit after SIGTERM (capped at grace).
using TerminationHook = std::function<Duration(const Object& pod, Duration grace)>;
// The asynchronous form, for a preStop handler whose length depends on the world (e.g. a
// master waiting until Sentinel names another): it calls done() when the handler returned;
// the containers then exit on SIGTERM (exit 0, "Completed"). If the grace period runs out
// first they are killed (137, "Killed") and a later done() is ignored. Takes precedence
// over a TerminationHook. done() may be called from inside the hook.
using PreStopHook = std::function<void(const Object& pod, Duration grace, std::function<void()> done)>;

struct ContainerEvent {
  enum class Kind { Started, Stopped };
  Kind kind;
  std::string ns, pod, uid, container, node, podIP;
  int restartCount = 0;
  int exitCode = 0;    // Stopped
  std::string reason;  // Stopped: Error, Completed, Killed (grace ran out), NodeLost, Deleted
};
using ContainerListener = std::function<void(const ContainerEvent&)>;

class Kubelet {
 public:
  Kubelet(SimEnv env, Random rng, KubeletConfig cfg = {});
  ~Kubelet();
  Kubelet(const Kubelet&) = delete;
  Kubelet& operator=(const Kubelet&) = delete;

  void start();
  void stop();

  // Without a hook a running pod is ready, and there is nothing to re-check periodically.
  // Setting one re-checks every running pod now, then every period.
  void setReadinessHook(ReadinessHook h, ReadinessView view = ReadinessView::WithStatus);
  void setTerminationHook(TerminationHook h) { termination_ = std::move(h); }
  void setPreStopHook(PreStopHook h) { preStop_ = std::move(h); }
  void addContainerListener(ContainerListener l) { listeners_.push_back(std::move(l)); }

  // Re-evaluates readiness now (one pod; or every running pod).
  void probeNow(std::string_view ns, std::string_view pod);
  void probeAll();

  // The container's process exits with exitCode. NotFound: no such pod/container here;
  // Invalid: the container is not running.
  Status crashContainer(std::string_view ns, std::string_view pod, std::string_view container,
                        int exitCode = 1);

  // Used by NodeLifecycle: the node's machine is gone / back.
  void nodeDown(const std::string& node);
  void nodeUp(const std::string& node);
  bool isNodeDown(const std::string& node) const { return down_.count(node) > 0; }

  // The pod's IP as the kubelet knows it (nullopt: not running here).
  std::optional<std::string> ipOf(std::string_view ns, std::string_view pod) const;
  std::size_t podCount() const { return pods_.size(); }

 private:
  struct ContainerRt;
  struct PodRt;

  void onPod(WatchEventType type, const ObjectPtr& obj);
  void admit(const ObjectPtr& pod);
  void startSandbox(const std::string& uid);
  void startContainer(PodRt& p, ContainerRt& c, bool restart);
  void containerExited(PodRt& p, ContainerRt& c, int exitCode, const std::string& reason);
  void restartContainer(const std::string& uid, const std::string& container);
  void scheduleProbe(PodRt& p, Duration after);
  void probe(PodRt& p);
  void beginTermination(PodRt& p);
  void finishTermination(const std::string& uid);
  void finishTermination(const std::string& uid, bool graceful);
  void preStopDone(const std::string& uid, std::uint64_t attempt);
  void confirmDeletion(const std::string& uid);
  void forget(const std::string& uid, const std::string& reason);
  void killContainers(PodRt& p, const std::string& reason, int exitCode);
  void releaseIp(PodRt& p);
  void markDirty(PodRt& p);
  void flush(const std::string& uid);
  Object buildStatus(const PodRt& p, const Object& current) const;  // current: the status to update
  Object view(const PodRt& p) const;
  IpPool& poolFor(const std::string& node);
  std::string hostIpOf(const std::string& node) const;
  EventRecorder& recorder(const std::string& node);
  void emit(const PodRt& p, const ContainerRt& c, ContainerEvent::Kind kind, int exitCode,
            const std::string& reason);
  PodRt* find(std::string_view ns, std::string_view name);
  const std::string& now() const;  // RFC 3339, the loop's wall clock

  SimEnv env_;
  Random rng_;
  KubeletConfig cfg_;
  Informer podInformer_, nodeInformer_;
  ReadinessHook readiness_;
  ReadinessView readinessView_ = ReadinessView::WithStatus;
  TerminationHook termination_;
  PreStopHook preStop_;
  std::uint64_t preStopAttempts_ = 0;
  std::map<std::string, std::uint64_t> preStopPending_;  // uid -> attempt awaiting done()
  std::vector<ContainerListener> listeners_;
  std::map<std::string, std::unique_ptr<PodRt>> pods_;  // by uid
  std::map<std::string, std::string> byKey_;            // ns/name -> uid
  std::map<std::string, std::string> lastIp_;           // ns/name -> the IP it had last
  std::map<std::string, IpPool> pools_;                 // by node
  std::map<std::string, std::unique_ptr<EventRecorder>> recorders_;  // by node
  std::set<std::string> down_;
  std::set<std::string> finished_;  // uids whose deletion the kubelet confirmed, until DELETED
  mutable Rfc3339Text nowText_;  // now()'s
  int fallbackCidrs_ = 0;
  bool running_ = false;
};

}  // namespace kun::sim
