// Exactly one master.
// - None, and every reachable pod still on the boot placeholder: bootstrap. Once every pod
//   of the StatefulSet answers, the one with the most data (highest offset, else most
//   keys; a pod that kept its volume may have data) becomes master.
// - None otherwise: the master died. While a quorum of sentinels monitors the dead address
//   Sentinel is about to fail over: wait for it, up to about two failover timeouts after
//   the replicas lost their master (their own INFO says since when). After that, or when
//   no quorum of sentinels monitors anything, or when they know no live replica to promote,
//   promote the replica with the highest offset (with no offsets to compare, the one with
//   the most keys) — never the oldest pod (an empty, just-recreated pod can be the
//   oldest-named), never a pod that is going away, and not one without data while the
//   master the sentinels name does not answer but its pod runs.
// - Several: keep the one the sentinels name (clients follow them), else one that no other
//   master was promoted out of (a promoted replica's master_replid2 is its old master's
//   replid: the one promoted is the later, as Sentinel decided when it failed over), the
//   one with the most data among those; the others become its replicas (their diverged
//   writes are lost, as they would be after a Sentinel failover).
#include <algorithm>
#include <map>

#include "core/rediscluster/config_files.h"
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

namespace {

bool candidate(const HealRun& run, const RedisNodeView& n) {
  if (!n.reachable || n.pod.terminating) return false;
  if (!n.pod.running && !run.opt().addUnreadyPodToSentinelForTest) return false;
  return true;
}

// Best first: most data, then a pod that stays after a scale-down, then a non-zero
// replica priority, then the lowest ordinal (a stable choice).
const RedisNodeView* bestByOffset(const HealRun& run, const std::vector<const RedisNodeView*>& nodes) {
  const RedisNodeView* best = nullptr;
  auto key = [&](const RedisNodeView* n) {
    return std::make_tuple(n->offset(), staysAfterScale(run.rc(), *n), n->replicaPriority != 0, -n->pod.ordinal);
  };
  for (const auto* n : nodes)
    if (!best || key(n) > key(best)) best = n;
  return best;
}

const RedisNodeView* oldest(const std::vector<const RedisNodeView*>& nodes) {
  const RedisNodeView* best = nullptr;
  for (const auto* n : nodes)
    if (!best || std::tie(n->pod.creationTimestamp, n->pod.ordinal) < std::tie(best->pod.creationTimestamp, best->pod.ordinal))
      best = n;
  return best;
}

const RedisNodeView* choose(const HealRun& run, const std::vector<const RedisNodeView*>& nodes) {
  return run.opt().promoteOldestForTest ? oldest(nodes) : bestByOffset(run, nodes);
}

// The address most reachable sentinels (not on the placeholder) name as the master.
struct SentinelMajority {
  std::string ip;
  int votes = 0;
};

SentinelMajority sentinelMaster(const ClusterView& v) {
  std::map<std::string, int> votes;
  for (const auto& s : v.sentinels)
    if (s.reachable && s.monitoring && !s.onPlaceholder()) ++votes[s.master.ip];
  SentinelMajority best;
  for (const auto& [ip, n] : votes)
    if (n > best.votes) best = {ip, n};
  return best;
}

// How long the replicas have been without their master (the shortest, in ms), from their
// own INFO (master_link_down_since_seconds): the one clock a stateless operator can read.
std::int64_t masterGoneForMs(const std::vector<const RedisNodeView*>& nodes) {
  std::int64_t shortest = -1;
  for (const auto* n : nodes) {
    if (!n->isReplica() || n->onPlaceholder()) continue;
    const std::int64_t s = n->replication.masterLinkDownSinceSeconds;
    if (s < 0) continue;
    shortest = shortest < 0 ? s * 1000 : std::min(shortest, s * 1000);
  }
  return shortest;
}

// DBSIZE, or -1 when the node does not say (an error, -LOADING).
std::int64_t keysOf(HealRun& run, const RedisNodeView& n) {
  static const std::vector<std::string> kDbsize{"DBSIZE"};
  const auto reply = run.readRedis(n, kDbsize);
  return reply.ok() && reply->type == RedisReply::Type::Integer ? reply->integer : -1;
}

// choose()'s pick `best`, unless it has no replication offset to compare (nodes restarted
// from an AOF, which keeps no replication id, and nodes never synced report 0): then,
// among the nodes with its offset, the one holding the most keys (`best` wins ties). A
// node that reloaded its data and a new, empty pod look alike in INFO replication, and
// picking the empty one makes every node resync to nothing. (Found by kun-sim prop --seed
// 1554: the master and a replica restarted from their AOF with their keys and offset 0,
// and the just-recreated empty pod-0 was promoted, with no master and at bootstrap.)
const RedisNodeView* withMostKeys(HealRun& run, const std::vector<const RedisNodeView*>& nodes,
                                  const RedisNodeView& best) {
  if (best.offset() > 0 || run.opt().promoteOldestForTest) return &best;
  const RedisNodeView* most = &best;
  std::int64_t mostCount = keysOf(run, best);
  for (const auto* n : nodes) {
    if (n == &best || n->offset() != best.offset()) continue;
    if (const std::int64_t k = keysOf(run, *n); k > mostCount) {
      most = n;
      mostCount = k;
    }
  }
  return most;
}

Next promote(HealRun& run, const RedisNodeView& n, HealPhase phase, const std::string& why) {
  run.phase(phase);
  if (!run.changeRedis(n, {"REPLICAOF", "NO", "ONE"}, "promoted to master (" + why + ")").ok()) return Next::Stop;
  run.masterIp = n.pod.ip;
  run.masterMadeNow = true;
  return Next::Continue;
}

Next noMaster(HealRun& run) {
  const auto& view = run.view();
  std::vector<const RedisNodeView*> nodes;
  bool allPlaceholder = true;
  for (const auto& n : view.redis) {
    if (!candidate(run, n)) continue;
    nodes.push_back(&n);
    if (!n.onPlaceholder()) allPlaceholder = false;
  }
  if (nodes.empty()) {
    run.waiting("no redis pod answers yet, waiting");
    run.requeue(HealPhase::Creating);
    return Next::Stop;
  }
  if (allPlaceholder) {
    // A pod that is not up yet may be the one holding the data: wait for all of them.
    std::size_t expected = 0;
    for (const auto& n : view.redis)
      if (staysAfterScale(run.rc(), n)) ++expected;
    expected = std::max<std::size_t>(expected, static_cast<std::size_t>(run.rc().spec.size));
    if (nodes.size() < expected && !run.opt().addUnreadyPodToSentinelForTest) {
      run.waiting("bootstrap waits for every redis pod to answer");
      run.requeue(HealPhase::Creating);
      return Next::Stop;
    }
    return promote(run, *withMostKeys(run, nodes, *choose(run, nodes)), HealPhase::Creating, "bootstrap");
  }
  // A replica still linked to its master: that master lives, only we cannot reach it —
  // unless that master answers us itself, as a replica (there is no master here): then
  // the link is to a chain or a loop of replicas (two failovers at once, each leader
  // re-pointing the other's promoted replica at its own), not to a live master.
  for (const auto* n : nodes) {
    if (!n->isReplica() || n->onPlaceholder() || !n->replication.masterLinkUp()) continue;
    const RedisNodeView* linked = view.redisByIp(n->replication.masterHost);
    if (linked != nullptr && linked->reachable) continue;
    run.waiting("master " + n->replication.masterHost + " unreachable from here but alive for " + n->pod.name +
               ", waiting");
    run.requeue(HealPhase::Recovering);
    return Next::Stop;
  }
  const SentinelMajority sm = sentinelMaster(view);
  const std::int32_t quorum = sentinelQuorum(run.rc().spec.sentinel.replicas);
  // Sentinel's own timings, which spec.sentinel.customConfig may have lengthened: by the
  // operator's defaults alone heal would promote as the sentinels flag the master down,
  // before their failover starts (customConfig down-after-milliseconds 9000 and a master
  // pod unavailable: promoted 8 ms after the third +sdown, re-monitoring every sentinel).
  const SentinelTimings& t = run.sentinelTimings();
  const std::int64_t patienceMs = 2 * t.failoverTimeoutMs + t.downAfterMs;
  // Sentinel promotes only a replica it knows, and it learns them from the master's INFO:
  // when the master died before the sentinels saw a live replica (say, both replicas were
  // re-syncing after a reset), no failover will ever come. Nor when every replica it knows
  // has replica-priority 0 (none finished its first sync with that master) and the master
  // is down for Sentinel too. While Sentinel still sees it up, it is only out of our reach:
  // wait, never promote a node that may lack the data.
  const bool upForSentinel = std::count_if(view.sentinels.begin(), view.sentinels.end(), [&](const auto& s) {
                               return s.reachable && s.monitoring && s.master.ip == sm.ip && !s.master.flags.down();
                             }) >= quorum;
  const RedisNodeView* named = view.redisByIp(sm.ip);
  const bool podGone = named == nullptr || named->pod.terminating;  // then it is not up, whatever Sentinel has seen yet
  if (sm.votes >= quorum && upForSentinel && !podGone) {
    run.waiting("master " + sm.ip + " unreachable from here but up for Sentinel, waiting");
    run.requeue(HealPhase::Recovering);
    return Next::Stop;
  }
  const bool sentinelKnowsAReplica = std::any_of(view.sentinels.begin(), view.sentinels.end(), [&](const auto& s) {
    if (!s.reachable || !s.monitoring || s.master.ip != sm.ip) return false;
    return std::any_of(s.replicas.begin(), s.replicas.end(), [&](const auto& r) {
      const RedisNodeView* n = view.redisByIp(r.ip);
      return n && candidate(run, *n) && n->isReplica() && !n->onPlaceholder() &&
             (n->replicaPriority != 0 || (upForSentinel && !podGone));
    });
  });
  if (sm.votes >= quorum && sentinelKnowsAReplica && masterGoneForMs(nodes) < patienceMs) {
    run.waiting("master " + sm.ip + " is gone; Sentinel is expected to fail over, waiting");
    run.requeue(HealPhase::Recovering);
    return Next::Stop;
  }
  std::vector<const RedisNodeView*> replicas;
  for (const auto* n : nodes)
    if (n->isReplica()) replicas.push_back(n);
  if (replicas.empty()) {
    run.requeue(HealPhase::Recovering);
    return Next::Stop;
  }
  const RedisNodeView* best = choose(run, replicas);
  // The best has not a byte yet (no sync finished since it started): promoting it would
  // make every node resync to nothing. While a pod that may hold the data still runs and
  // does not answer — the master Sentinel names, or any other (out of reach, or hung: the
  // kubelet's liveness probe restarts a hung process) — that data may come back; once
  // they answer, what they hold is all there is. (Found by kun-sim prop --seed 434: the
  // named master's pod was gone, the old master and a replica hung, and a new empty pod
  // was promoted.)
  if (best->offset() <= 0 && !run.opt().promoteOldestForTest) {
    const auto mayHoldData = [](const RedisNodeView& n) { return !n.reachable && n.pod.running && !n.pod.terminating; };
    const RedisNodeView* waitFor = !podGone && mayHoldData(*named) ? named : nullptr;
    for (const auto& n : view.redis)
      if (!waitFor && mayHoldData(n)) waitFor = &n;
    if (waitFor) {
      run.waiting((waitFor == named ? "master " + sm.ip : waitFor->pod.name) +
                  " out of reach and no replica holds data yet; its pod runs, waiting");
      run.requeue(HealPhase::Recovering);
      return Next::Stop;
    }
  }
  // Every pod that may hold data answers (or none can).
  return promote(run, *withMostKeys(run, replicas, *best), HealPhase::Recovering, "no master");
}

// `later` was promoted out of `earlier`'s replication stream: its offsets continue that
// history and `earlier`'s writes since are a branch. (Offsets of the two are not
// comparable: with no sentinel left to name the new master (found by kun-sim prop
// --seed 4010), the old one, which had kept counting, won by offset and the writes
// clients made to the one Sentinel promoted were lost.)
bool promotedOutOf(const RedisNodeView& later, const RedisNodeView& earlier) {
  const std::string& id2 = later.replication.masterReplid2;
  return !id2.empty() && id2 == earlier.replication.masterReplid;  // an unset one (zeros) matches none
}

Next severalMasters(HealRun& run, const std::vector<const RedisNodeView*>& masters) {
  const SentinelMajority sm = sentinelMaster(run.view());
  const RedisNodeView* keep = nullptr;
  for (const auto* m : masters)
    if (m->pod.ip == sm.ip && !m->pod.terminating) keep = m;
  if (!keep) {
    std::vector<const RedisNodeView*> latest;
    for (const auto* m : masters)
      if (std::none_of(masters.begin(), masters.end(), [&](const auto* o) { return promotedOutOf(*o, *m); }))
        latest.push_back(m);
    keep = bestByOffset(run, latest.empty() ? masters : latest);
  }
  run.phase(HealPhase::Recovering);
  run.masterIp = keep->pod.ip;
  run.masterMadeNow = true;
  for (const auto* m : masters) {
    if (m == keep) continue;
    if (!run.changeRedis(*m, {"REPLICAOF", keep->pod.ip, std::to_string(layout::kRedisPort)},
                         "second master, made a replica of " + keep->pod.ip).ok())
      return Next::Stop;
  }
  return Next::Continue;
}

}  // namespace

Next healMaster(HealRun& run) {
  const auto masters = run.view().masters();
  if (masters.size() == 1) {
    const RedisNodeView& seen = *masters.front();
    // Sentinel's majority names another master, one out of reach from here: most likely a
    // failover it has just made, the one master seen here being the old one (cut off from
    // the sentinels, not yet turned into a replica). Keeping the one seen would re-point
    // every sentinel and replica at it and undo that failover (found by kun-sim prop
    // --seed 231 with network faults): wait until that master answers, or its pod is gone.
    const SentinelMajority sm = sentinelMaster(run.view());
    const RedisNodeView* named = sm.ip == seen.pod.ip ? nullptr : run.view().redisByIp(sm.ip);
    if (named != nullptr && sm.votes >= sentinelQuorum(run.rc().spec.sentinel.replicas) && !named->reachable &&
        named->pod.running && !named->pod.terminating) {
      run.waiting("Sentinel names master " + sm.ip + ", out of reach from here (the only master seen is " +
                  seen.pod.name + "), waiting");
      run.requeue(HealPhase::Recovering);
      return Next::Stop;
    }
    run.masterIp = seen.pod.ip;
    return Next::Continue;
  }
  if (masters.empty()) return noMaster(run);
  return severalMasters(run, masters);
}

}  // namespace kun::rediscluster::healstep
