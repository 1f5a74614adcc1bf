// A password set or changed without losing replication: every node learns the new
// masterauth first (a replica authenticates only when it reconnects, so the old link
// stays up), then every node requires it (replicas before the master, whose replicas
// reconnect with the masterauth they now have), then every sentinel uses it (auth-pass).
// The values are never part of an action text.
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

Next healPasswords(HealRun& run) {
  std::vector<const RedisNodeView*> behind;
  for (const auto& n : run.view().redis)
    if (n.reachable && n.password > 0) behind.push_back(&n);
  if (behind.empty()) return Next::Continue;
  run.phase(HealPhase::Updating);
  if (!run.ctx.objectsEnsured) {
    // The Secret must hold the new password and the old one before any node changes, or
    // an operator restarted meanwhile knows neither the nodes' nor the spec's.
    run.waiting("password change waits for the auth Secret to be written");
    run.requeue(HealPhase::Updating);
    return Next::Continue;
  }
  const std::string& pw = run.password();
  for (const auto* n : behind)
    if (!run.changeRedis(*n, {"CONFIG", "SET", "masterauth", pw}, "CONFIG SET masterauth ***").ok()) return Next::Stop;
  // From the first requirepass on, every sentinel owes the new auth-pass, until it is given
  // it: a pass that stops part-way leaves that to healSentinels, and the next pass finds no
  // node behind (the master took the new password but its reply was lost: the sentinels
  // kept the old auth-pass, and one held the master down 2 s after the loss ended —
  // kun-sim prop --vary-cluster --seed 53 --minutes 1).
  if (run.ctx.authPassOwed)
    for (const auto& s : run.view().sentinels)
      if (!s.pod.uid.empty()) run.ctx.authPassOwed->insert(s.pod.uid);
  // Replicas first, the master last.
  std::vector<const RedisNodeView*> order;
  for (const auto* n : behind)
    if (!n->isMaster()) order.push_back(n);
  for (const auto* n : behind)
    if (n->isMaster()) order.push_back(n);
  for (const auto* n : order) {
    if (!run.changeRedis(*n, {"CONFIG", "SET", "requirepass", pw}, "CONFIG SET requirepass ***").ok())
      return Next::Stop;
    run.setPasswordOf(*n, 0);
  }
  run.passwordChanged = true;
  for (const auto& s : run.view().sentinels) {
    const bool set = s.reachable && s.monitoring &&
                     run.changeSentinel(s, {"SENTINEL", "SET", std::string(layout::kMasterName), "auth-pass", pw},
                                        "SENTINEL SET auth-pass ***")
                         .ok();
    // One that did not get it keeps authenticating with the old password: to new or
    // restarted nodes only, so nothing it reports says so until one of them restarts. It
    // stays owed.
    if (set && run.ctx.authPassOwed) run.ctx.authPassOwed->erase(s.pod.uid);
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
