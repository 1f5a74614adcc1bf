#pragma once
// Leader election on a coordination.k8s.io/v1 Lease, with client-go's rules, so that of
// several operator replicas exactly one acts at a time:
// - a candidate takes the Lease when it does not exist, when its holder is empty (released),
//   or when the record has not changed for leaseDuration as this candidate observed it
//   (its own loop clock, never the timestamps written by another machine);
// - the leader renews every retryPeriod; when no renewal has succeeded for renewDeadline it
//   stops leading, before any other candidate can take over (renewDeadline < leaseDuration,
//   and a competing write of the same record fails with Conflict);
// - stop() releases a held Lease (empty holder, duration 1 s) so a successor need not wait.
// Writes: spec.holderIdentity, leaseDurationSeconds, acquireTime, renewTime (MicroTime) and
// leaseTransitions (+1 whenever the holder changes).
//
// Everything runs on the EventLoop: attempts are timers, nothing sleeps. isLeader() is
// exact at any instant (it checks the renew deadline itself, not only when a timer fires),
// so a reconcile gated on it never runs after leadership has lapsed. isLeader() may be called
// from any thread (the controller's workers); everything else runs on the loop.
#include <atomic>
#include <cstdint>
#include <functional>
#include <optional>
#include <string>

#include "core/api/object.h"
#include "core/kube/kube_client.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"
#include "core/runtime/random.h"
#include "core/runtime/result.h"
#include "core/runtime/trace.h"

namespace kun {

struct LeaderElectionOptions {
  std::string leaseNamespace = "default";
  std::string leaseName = "kun-operator";
  std::string identity;  // unique per candidate (pod name + random suffix in real mode)
  Duration leaseDuration = seconds(15);
  Duration renewDeadline = seconds(10);
  Duration retryPeriod = seconds(2);
  // Called on the loop when this candidate starts / stops leading, and when the holder it
  // observes changes (identity "" when released).
  std::function<void()> onStartedLeading;
  std::function<void()> onStoppedLeading;
  std::function<void(const std::string& identity)> onNewLeader;
};

// The Lease's spec as this elector reads and writes it.
struct LeaseRecord {
  std::string holderIdentity;
  std::int64_t leaseDurationSeconds = 0;
  std::string acquireTime;
  std::string renewTime;
  std::int64_t leaseTransitions = 0;
  bool operator==(const LeaseRecord&) const = default;
};
LeaseRecord leaseRecordOf(const Object& lease);
Object leaseSpecOf(const LeaseRecord& r);

// Invalid when durations are not leaseDuration > renewDeadline > retryPeriod > 0 or the
// identity is empty.
Status validateLeaderElectionOptions(const LeaderElectionOptions& o);

class LeaderElector {
 public:
  // random (optional) jitters acquire attempts as client-go does (up to +20 %), so
  // candidates started together do not retry in lockstep. trace is optional.
  LeaderElector(KubeClient& client, EventLoop& loop, LeaderElectionOptions opts, Logger log,
                Random* random = nullptr, Trace* trace = nullptr);
  ~LeaderElector();
  LeaderElector(const LeaderElector&) = delete;
  LeaderElector& operator=(const LeaderElector&) = delete;

  void start();
  // Stops trying; a held Lease is released (onStoppedLeading runs first).
  void stop();

  bool isLeader() const;
  // The holder as last observed ("" when unknown or released).
  const std::string& observedLeader() const { return observed_.holderIdentity; }
  const LeaderElectionOptions& options() const { return opts_; }
  std::uint64_t attempts() const { return attempts_; }
  std::uint64_t transitions() const { return transitions_; }  // times this one became leader

 private:
  // One try to acquire or renew; true when this candidate holds the Lease afterwards.
  bool tryAcquireOrRenew();
  void attempt();
  void scheduleAttempt(Duration d);
  void becomeLeader();
  void loseLeadership(std::string_view why);
  void observe(const LeaseRecord& r);
  std::string nowMicroTime() const;
  void note(std::string_view text);

  KubeClient& client_;
  EventLoop& loop_;
  LeaderElectionOptions opts_;
  Logger log_;
  Random* random_;
  Trace* trace_;
  bool running_ = false;
  // Read by isLeader() from the worker threads of real mode; written on the loop.
  std::atomic<bool> leading_{false};
  std::atomic<TimePoint> lastRenew_{TimePoint{}};
  LeaseRecord observed_;
  TimePoint observedTime_{};
  TimerId attemptTimer_ = 0;
  TimerId deadlineTimer_ = 0;
  std::uint64_t attempts_ = 0;
  std::uint64_t transitions_ = 0;
};

}  // namespace kun
