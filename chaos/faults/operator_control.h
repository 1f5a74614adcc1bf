#pragma once
// What the faults that need the operator ask of the runner that owns it. The chaos layer
// cannot restart a process it does not own, so the runner implements this.
#include "chaos/faults/fault.h"
#include "core/runtime/result.h"

namespace kun::chaos {

class OperatorControl {
 public:
  virtual ~OperatorControl() = default;
  // The operator process dies now (its memory — caches, queues, timers — is lost) and a
  // new one starts, as after a crash and a restart by its Deployment.
  virtual Status restartOperator() = 0;
  // Apply f (kind ParamChange) to the cluster's spec, e.g. with paramPatch(). An error
  // only when the change could not be submitted at all; an invalid change the operator
  // rejects is not an error here (the checks see how the operator handled it).
  virtual Status changeParameter(const Fault& f) = 0;
};

// The JSON merge patch of a RedisCluster for a ParamChange:
//   config -> spec.config (an object), size -> spec.size, password -> spec.password,
//   persistence -> spec.disablePersistence (value: whether persistence is ON, so the
//   patch holds its negation), image -> spec.image, resources -> spec.resources,
//   sentinel-config -> spec.sentinel.customConfig (a list of "option value").
Object paramPatch(const Fault& f);

}  // namespace kun::chaos
