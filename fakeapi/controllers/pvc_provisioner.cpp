#include "fakeapi/controllers/pvc_provisioner.h"

#include <fmt/format.h>

#include "fakeapi/controllers/status_update.h"

namespace kun::sim {
namespace {

bool isBound(const Object& pvc) {
  auto s = pvc.find("status");
  return s != pvc.end() && s->is_object() && s->value("phase", "") == "Bound";
}

}  // namespace

PvcProvisioner::PvcProvisioner(SimEnv env, Random rng, PvcProvisionerConfig cfg)
    : env_(env), rng_(rng), cfg_(cfg),
      claims_(env.client, env.loop, res::persistentvolumeclaims, {}, env.log),
      events_(env.client, env.loop, "persistentvolume-controller") {
  claims_.addHandler([this](WatchEventType t, const ObjectPtr& obj, const ObjectPtr&) { onClaim(t, obj); });
}

PvcProvisioner::~PvcProvisioner() { stop(); }

void PvcProvisioner::start() {
  if (running_) return;
  running_ = true;
  claims_.start();
}

void PvcProvisioner::stop() {
  running_ = false;
  claims_.stop();
  for (auto& [uid, t] : pending_) env_.loop.cancel(t);
  pending_.clear();
}

void PvcProvisioner::onClaim(WatchEventType type, const ObjectPtr& obj) {
  const std::string uid = meta::uid(*obj);
  if (type == WatchEventType::Deleted || meta::isDeleting(*obj) || isBound(*obj)) {
    if (auto it = pending_.find(uid); it != pending_.end()) {
      env_.loop.cancel(it->second);
      pending_.erase(it);
    }
    return;
  }
  if (pending_.count(uid)) return;
  const Duration delay = rng_.durationBetween(cfg_.bindDelayMin, cfg_.bindDelayMax);
  pending_[uid] = env_.loop.runAfter(delay, [this, uid, ns = meta::namespaceOf(*obj), name = meta::name(*obj)] {
    pending_.erase(uid);
    bind(uid, ns, name);
  });
}

void PvcProvisioner::bind(const std::string& uid, const std::string& ns, const std::string& name) {
  auto retry = [&] {
    pending_[uid] = env_.loop.runAfter(cfg_.retryAfterError, [this, uid, ns, name] {
      pending_.erase(uid);
      bind(uid, ns, name);
    });
  };
  auto cur = env_.client.get(res::persistentvolumeclaims, ns, name);
  if (cur.is(Reason::NotFound)) return;
  if (!cur) return retry();
  if (meta::uid(*cur) != uid || meta::isDeleting(*cur) || isBound(*cur)) return;
  const std::string volume = "pvc-" + uid;
  Object claim = std::move(cur.value());
  if (!claim.contains("spec") || !claim["spec"].is_object()) claim["spec"] = Object::object();
  if (claim["spec"].value("volumeName", "") != volume) {
    claim["spec"]["volumeName"] = volume;
    meta::setAnnotation(claim, "pv.kubernetes.io/bind-completed", "yes");
    meta::setAnnotation(claim, "pv.kubernetes.io/bound-by-controller", "yes");
    auto upd = env_.client.update(res::persistentvolumeclaims, claim);
    if (!upd) {
      if (!upd.is(Reason::NotFound)) retry();
      return;
    }
    claim = std::move(upd.value());
  }
  const Object& spec = claim["spec"];
  Object storage = "1Gi";
  if (spec.contains("resources") && spec["resources"].is_object()) {
    const Object& req = spec["resources"].value("requests", Object::object());
    if (req.is_object() && req.contains("storage")) storage = req["storage"];
  }
  const Object modes = spec.value("accessModes", Object::array({"ReadWriteOnce"}));
  auto st = mutateStatus(env_.client, res::persistentvolumeclaims, ns, name, uid, [&](Object& status) {
    status["phase"] = "Bound";
    status["accessModes"] = modes;
    status["capacity"] = {{"storage", storage}};
  });
  if (!st) {
    if (!st.is(Reason::NotFound)) retry();
    return;
  }
  ++bound_;
  events_.record(claim, EventType::Normal, "ProvisioningSucceeded",
                 fmt::format("Successfully provisioned volume {}", volume));
  env_.note("pvc", fmt::format("bound {}/{} {}", ns, name, volume));
}

}  // namespace kun::sim
