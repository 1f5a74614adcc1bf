#pragma once
// A controller: informers fill caches and queue keys, a worker takes keys from the queue
// and runs the reconcile function — inline on the loop in the simulator (workers == 0), on
// N threads in real mode. With leader election it acts only while it holds the Lease: the
// caches run from start() (so a new leader starts warm), the worker runs only while
// leading, and every reconcile is gated on isLeader() at the instant it would run.
//
// Keys of the primary resource are queued on every change of it except status-only ones
// (the controller's own status writes would otherwise queue the key again), and on resync;
// owned objects queue their owner's key (owner_enqueue.h). When leadership is (re)gained
// every cached primary key is queued, since events seen while not leading were not acted on.
#include <atomic>
#include <cstdint>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <vector>

#include "core/controller/leader_election.h"
#include "core/controller/owner_enqueue.h"
#include "core/controller/reconcile_result.h"
#include "core/controller/work_queue.h"
#include "core/kube/informer.h"
#include "core/runtime/event_loop.h"
#include "core/runtime/log.h"

namespace kun {

class InlineWorker;
class WorkerThreads;

struct ControllerOptions {
  std::string name = "controller";
  // 0: one InlineWorker on the loop (simulation). N > 0: N threads (real mode). Then the
  // loop must be thread-safe (AsioLoop), the reconcile function must be safe to run on N
  // threads at once for different keys (never for the same key: the WorkQueue hands a key
  // to one worker at a time; the RedisCluster Reconciler is, see reconciler.h), and so must
  // everything it calls: the KubeClient (kube_client.h), the RedisAdmin, the Logger's sink.
  // Informer handlers, leader election and the rest of the controller stay on the loop;
  // the workers read the informer caches, which is safe from any thread.
  int workers = 0;
  WorkQueue::Options queue;
  // Set: act only while holding this Lease.
  std::optional<LeaderElectionOptions> leaderElection;
  // Queue the primary key when only its status changed (off: see above).
  bool enqueueStatusOnlyChanges = false;
};

struct ControllerSeams {
  EventLoop& loop;
  KubeClient& client;  // for the Lease
  Logger log;
  Random* random = nullptr;  // leader-election jitter
  Trace* trace = nullptr;
};

class Controller {
 public:
  Controller(ControllerSeams seams, ControllerOptions opts, ReconcileFn fn);
  ~Controller();
  Controller(const Controller&) = delete;
  Controller& operator=(const Controller&) = delete;

  // The primary resource (keys "namespace/name"); accept filters which objects are this
  // controller's (its scope). Informers must outlive the controller; start() starts them.
  void setPrimary(Informer& primary, std::function<bool(const Object&)> accept = {});
  // An informer whose changes queue their owner (ownerKind, see OwnerEnqueuer).
  void addOwned(Informer& owned, std::vector<const Informer*> intermediates = {});
  // An informer only read by the reconciler (or an intermediate): started with the others.
  void addCache(Informer& inf);
  void setOwnerKind(OwnerKind kind);
  void setOwnerFallback(OwnerMapper m);

  void start();
  void stop();

  // True while reconciles may run: started and (without leader election, or leading).
  bool acting() const;
  bool leading() const;
  WorkQueue& queue() { return queue_; }
  const LeaderElector* elector() const { return elector_.get(); }
  // Reconciles run / skipped because leadership had lapsed.
  std::uint64_t reconciles() const { return reconciles_.load(std::memory_order_relaxed); }
  std::uint64_t skippedNotLeading() const { return skipped_.load(std::memory_order_relaxed); }
  // All primary objects are synced and so are the other caches.
  bool synced() const;

 private:
  void startActing();
  void stopActing();
  void enqueueAllPrimary();
  bool accepts(const Object& o) const { return !accept_ || accept_(o); }
  ReconcileResult gated(const std::string& key);

  ControllerSeams seams_;
  ControllerOptions opts_;
  ReconcileFn fn_;
  WorkQueue queue_;
  OwnerEnqueuer owners_;
  Informer* primary_ = nullptr;
  std::function<bool(const Object&)> accept_;
  std::vector<Informer*> informers_;  // primary first, in the order added
  std::unique_ptr<LeaderElector> elector_;
  std::unique_ptr<InlineWorker> inline_;
  std::unique_ptr<WorkerThreads> threads_;
  bool started_ = false;
  // Read by the workers (gated()), written on the loop: atomic, as are the counters.
  std::atomic<bool> acting_{false};
  std::atomic<std::uint64_t> reconciles_{0};
  std::atomic<std::uint64_t> skipped_{0};
};

}  // namespace kun
