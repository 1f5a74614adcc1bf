#pragma once
// What one reconcile of one key asks for next, and how a worker files that with the queue.
// The reconciler never sleeps: it is done, wants to look again after a while (a failover in
// progress, a pod still starting), or failed (retried with per-key exponential backoff).
#include <functional>
#include <string>

#include "core/controller/work_queue.h"
#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun {

struct ReconcileResult {
  enum class Kind { Done, RequeueAfter, Failed };

  Kind kind = Kind::Done;
  Duration after{0};  // RequeueAfter
  Error error;        // Failed

  static ReconcileResult done() { return {}; }
  static ReconcileResult requeueAfter(Duration d) { return {Kind::RequeueAfter, d, {}}; }
  static ReconcileResult failed(Error e) { return {Kind::Failed, Duration{0}, std::move(e)}; }

  bool isDone() const { return kind == Kind::Done; }
  bool isRequeue() const { return kind == Kind::RequeueAfter; }
  bool isFailed() const { return kind == Kind::Failed; }
};

using ReconcileFn = std::function<ReconcileResult(const std::string& key)>;

// Runs fn(key) for a key taken from q and files the result:
//   Done          -> forget the key's backoff;
//   RequeueAfter  -> forget the backoff, add the key again after `after`;
//   Failed        -> add it again after its backoff (at least the error's retryAfterSeconds);
//                    a 429 with a Retry-After: after that delay, the backoff left as it is.
// Then done(key). An exception escaping fn counts as Failed (Internal): the key is never
// left stuck as "processing".
ReconcileResult processKey(WorkQueue& q, const std::string& key, const ReconcileFn& fn);

}  // namespace kun
