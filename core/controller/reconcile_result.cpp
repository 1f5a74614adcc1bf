#include "core/controller/reconcile_result.h"

#include <exception>

#include "core/runtime/retry_after.h"

namespace kun {

namespace {

ReconcileResult runGuarded(const std::string& key, const ReconcileFn& fn) {
  try {
    return fn(key);
  } catch (const std::exception& e) {
    return ReconcileResult::failed(makeError(Reason::Internal, std::string("reconcile threw: ") + e.what()));
  } catch (...) {
    return ReconcileResult::failed(makeError(Reason::Internal, "reconcile threw"));
  }
}

}  // namespace

ReconcileResult processKey(WorkQueue& q, const std::string& key, const ReconcileFn& fn) {
  ReconcileResult r = runGuarded(key, fn);
  switch (r.kind) {
    case ReconcileResult::Kind::Done:
      q.forget(key);
      break;
    case ReconcileResult::Kind::RequeueAfter:
      q.forget(key);
      q.addAfter(key, r.after);
      break;
    case ReconcileResult::Kind::Failed:
      // Back a second after a long 429 storm, not a minute.
      if (const auto after = serverRetryAfter(r.error))
        q.addAfter(key, *after);
      else
        q.addRateLimited(key, seconds(r.error.retryAfterSeconds));
      break;
  }
  q.done(key);
  return r;
}

}  // namespace kun
