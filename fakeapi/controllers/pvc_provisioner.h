#pragma once
// A trivial dynamic provisioner and binder: every PersistentVolumeClaim that is not Bound
// gets a volume after a seeded delay — spec.volumeName "pvc-<uid>", status.phase Bound,
// capacity = the requested storage — and an Event ProvisioningSucceeded. No
// PersistentVolume objects, storage classes or zones are modelled.
#include <cstdint>
#include <map>
#include <string>

#include "core/kube/event_recorder.h"
#include "core/kube/informer.h"
#include "core/runtime/random.h"
#include "fakeapi/controllers/sim_env.h"

namespace kun::sim {

struct PvcProvisionerConfig {
  Duration bindDelayMin = milliseconds(200);
  Duration bindDelayMax = seconds(1);
  Duration retryAfterError = seconds(1);
};

class PvcProvisioner {
 public:
  PvcProvisioner(SimEnv env, Random rng, PvcProvisionerConfig cfg = {});
  ~PvcProvisioner();
  PvcProvisioner(const PvcProvisioner&) = delete;
  PvcProvisioner& operator=(const PvcProvisioner&) = delete;

  void start();
  void stop();
  std::uint64_t bound() const { return bound_; }

 private:
  void onClaim(WatchEventType type, const ObjectPtr& obj);
  void bind(const std::string& uid, const std::string& ns, const std::string& name);

  SimEnv env_;
  Random rng_;
  PvcProvisionerConfig cfg_;
  Informer claims_;
  EventRecorder events_;
  std::map<std::string, TimerId> pending_;  // by uid
  bool running_ = false;
  std::uint64_t bound_ = 0;
};

}  // namespace kun::sim
