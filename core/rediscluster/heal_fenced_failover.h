#pragma once
// Internal to heal: the one way a heal step hands the master role to another pod — a
// rolling restart before it replaces the master's pod, a scale-down before it removes it.
//
// Sentinel promotes a replica but leaves the old master serving until it converts it,
// seconds later, and what that master acknowledges meanwhile is lost with the resync; a
// replica whose link looks up may also lack writes the master already acknowledged (the
// stream held up by a one-way cut or a slow link). So the master is fenced first (asked for
// more good replicas than it can have, it refuses writes with NOREPLICAS, never
// acknowledging them), and SENTINEL FAILOVER is asked only once a replica the step may
// move it to is linked to it and has its last offset. Every wait is a requeue.
#include <string_view>

#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

struct MasterMove {
  HealPhase phase;          // what the cluster goes through meanwhile
  std::string_view step;    // "rolling restart", "scale-down": starts the action texts
  std::string_view reason;  // why the master goes, after its pod name: "is on the old revision"
  // A replica the master may go to (on the new revision; a pod that stays). The caller
  // keeps Sentinel from picking any other (the roll has no other; the scale-down gives the
  // others replica-priority 0).
  bool (*candidate)(const HealRun& run, const RedisNodeView& n);
};

// The sentinel moveMasterFenced asks: the first that monitors `master`, is not in TILT,
// was not reset in this pass and lists a replica `move` may go to that it would promote
// (in sync, up, priority not 0 as it last read it); nullptr while there is none (one
// without such a replica answers SENTINEL FAILOVER with NOGOODSLAVE).
const SentinelNodeView* sentinelToAsk(const HealRun& run, const RedisNodeView& master, const MasterMove& move);

// One pass of the move of `master` (the pass's master): wait for sentinelToAsk and a
// linked candidate, fence, wait for a candidate with the fenced master's offset,
// then SENTINEL FAILOVER. Always Next::Stop: the pass ends with a requeue or a failure.
Next moveMasterFenced(HealRun& run, const RedisNodeView& master, const MasterMove& move);

// Whether n is the master a heal step is moving away: moveMasterFenced keeps it fenced,
// and heal_config leaves that fence be on it and lifts it everywhere else (a move that no
// longer happens — its change reverted while it waited — must not leave a master
// refusing writes).
bool stepMovesMaster(const HealRun& run, const RedisNodeView& n);
// The two moves: the roll's (n is the only pod left on the old revision; heal_rolling.cpp)
// and the scale-down's (n goes; heal_scale.cpp).
bool rollMovesMaster(const HealRun& run, const RedisNodeView& n);
bool scaleMovesMaster(const HealRun& run, const RedisNodeView& n);

}  // namespace kun::rediscluster::healstep
