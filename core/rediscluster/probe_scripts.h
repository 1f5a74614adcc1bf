#pragma once
// The shell scripts the pods run as probes and as the preStop hook. They live in
// ConfigMaps, not in the pod template, so improving one does not restart any pod.
//
// What the probes mean (the simulator's readiness hook models the same):
// - redis Ready = usable: not loading, and master, or a replica whose link to its master is
//   up with no sync in progress. A new pod replicates 127.0.0.1 (where no master runs) and
//   stays unready until it follows the real master, so "Ready" never names a pod that
//   could be handed to Sentinel or clients as a data source before it has the data.
// - redis alive = the server answers PING with anything (NOAUTH during a password change,
//   LOADING while it reads its data are no reason to kill it).
// - sentinel Ready = the operator has pointed it at the master (it no longer monitors the
//   127.0.0.1 placeholder) and it knows a replica. Not "the master is up" (KUN's
//   status=ok): during a failover every sentinel would turn unready at once and the
//   sentinel Service would lose its endpoints exactly when clients ask it for the new
//   master.
// The password is read from the mounted Secret on every run and handed to redis-cli in
// REDISCLI_AUTH: never an argument (visible in ps and in the pod spec), and current after a
// password change, which a container's environment is not.
#include <string>
#include <string_view>

namespace kun::rediscluster {

std::string redisReadinessScript();
std::string redisLivenessScript();
std::string sentinelReadinessScript();
// preStop of redis pods: if this pod is the master, ask Sentinel (through the sentinel
// Service of the cluster) to fail over and wait up to 10 s until Sentinel names another
// master (clients follow Sentinel; Sentinel demotes this node within its next INFO
// period, by then the pod is gone); then, when persistence is on, SAVE.
std::string shutdownScript(std::string_view cluster, bool persistence);

}  // namespace kun::rediscluster
