// measureFailoverTimingLocal: the failover-timing measurement against real redis-server and
// redis-sentinel processes on loopback (fakeapi/local). Every run starts fresh processes
// and tears them down, also when the run fails.
//
// Protocol of one run (the simulator follows the same one, see FIDELITY-REAL.md):
//  1. 1 master + 2 replicas + 3 sentinels (quorum 2), healthy and fully discovered.
//  2. Two clients write `SET key n` every writeIntervalMs with 250 ms timeouts: one asks
//     the sentinels (in order, first answer wins) for the master before every write, one is
//     pinned to the old master's address. After 1 s of writes, t0: the fault.
//  3. kill: SIGKILL the master; it is restarted (empty, as a new pod on emptyDir) as soon
//     as the first +switch-master is seen. hang:MS: SIGSTOP, SIGCONT after MS.
//  4. The run ends when the old master reports role:slave of the new master and every
//     sentinel has switched; or, if no +odown came, at fault end + down-after + 5 s; or
//     at observeMs.
//  5. Lost writes: acknowledged writes missing from the master the sentinels name at the end.
#include <chrono>
#include <cstdio>
#include <cstdlib>
#include <map>
#include <set>
#include <thread>

#include "core/redis/hiredis_admin_real.h"
#include "core/redis/info_parser.h"
#include "fakeapi/local/ack_writer_real.h"
#include "fakeapi/local/local_sentinel_cluster_real.h"
#include "fakeapi/local/sentinel_events_real.h"
#include "scenarios/failover_timing.h"
#include "scenarios/failover_timing_report.h"

namespace kun {

namespace {

using Steady = std::chrono::steady_clock;  // wall-clock ok: this measures real time
using local::AckWriter;
using local::LocalSentinelCluster;
using local::NodeRef;

constexpr std::chrono::milliseconds kClientTimeout{250};
constexpr std::chrono::milliseconds kWarmUp{1000};
constexpr std::chrono::milliseconds kTick{10};
constexpr std::int64_t kNoOdownGraceMs = 5000;

std::int64_t msBetween(Steady::time_point from, Steady::time_point to) {
  return std::chrono::duration_cast<std::chrono::milliseconds>(to - from).count();
}

HiredisOptions clientOptions() {
  HiredisOptions o;
  o.connectTimeout = kClientTimeout;
  o.commandTimeout = kClientTimeout;
  return o;
}

// The master most sentinels name now (ties: the first sentinel's answer).
std::optional<RedisEndpoint> agreedMaster(HiredisAdmin& admin, const LocalSentinelCluster& c) {
  std::map<RedisEndpoint, int> votes;
  std::optional<RedisEndpoint> first;
  for (const auto& s : c.sentinels()) {
    auto one = local::masterFromSentinels(admin, {s}, c.options().masterName);
    if (!one) continue;
    if (!first) first = one;
    ++votes[*one];
  }
  std::optional<RedisEndpoint> best = first;
  int bestVotes = best ? votes[*best] : 0;
  for (const auto& [ep, n] : votes) {
    if (n > bestVotes) {
      best = ep;
      bestVotes = n;
    }
  }
  return best;
}

bool isReplicaOf(HiredisAdmin& admin, const RedisEndpoint& node, const RedisEndpoint& master) {
  auto r = admin.command(node, {"INFO", "replication"});
  if (!r || r->type != RedisReply::Type::String) return false;
  auto info = parseReplicationInfo(r->str);
  return info && info->isReplica() && info->masterHost == master.host &&
         info->masterPort == master.port;
}

// One run; an Error if the processes could not be set up or read at the end.
Result<FailoverRun> oneRun(const FailoverTimingOptions& opts, int runIndex) {
  local::LocalClusterOptions co;
  co.downAfterMs = opts.downAfterMs;
  co.failoverTimeoutMs = opts.failoverTimeoutMs;
  co.parallelSyncs = opts.parallelSyncs;
  auto started = LocalSentinelCluster::start(co);
  if (!started) return started.error();
  LocalSentinelCluster& cluster = **started;
  const RedisEndpoint oldMaster = cluster.redis(0);
  const auto sentinels = cluster.sentinels();

  auto subscribed = local::SentinelEventLog::start(sentinels);
  if (!subscribed) return subscribed.error();
  local::SentinelEventLog& events = **subscribed;

  AckWriter follower(
      "s:",
      [&](HiredisAdmin& a) { return local::masterFromSentinels(a, sentinels, co.masterName); },
      std::chrono::milliseconds(opts.writeIntervalMs), clientOptions());
  AckWriter pinned(
      "p:", [&](HiredisAdmin&) { return std::optional<RedisEndpoint>(oldMaster); },
      std::chrono::milliseconds(opts.writeIntervalMs), clientOptions());
  follower.start();
  pinned.start();
  std::this_thread::sleep_for(kWarmUp);  // wall-clock ok

  const bool kill = opts.fault == FailoverTimingOptions::Fault::Kill;
  Status fault = kill ? cluster.kill(NodeRef::redis(0)) : cluster.hang(NodeRef::redis(0));
  const Steady::time_point t0 = Steady::now();  // wall-clock ok
  if (!fault) return fault.error();

  FailoverRun run;
  HiredisAdmin probe(clientOptions());
  bool back = false;  // the old master runs again (restarted or resumed)
  const std::int64_t faultEndMs = kill ? 0 : opts.hangMs;
  for (;;) {
    const std::int64_t el = msBetween(t0, Steady::now());  // wall-clock ok
    if (!run.odownMs) {
      auto od = events.eventsOf("+odown", t0);
      if (!od.empty()) run.odownMs = msBetween(t0, od.front().at);
    }
    auto switches = events.eventsOf("+switch-master", t0);
    std::optional<RedisEndpoint> newMaster;
    if (!switches.empty()) {
      run.firstSwitchMs = msBetween(t0, switches.front().at);
      run.lastSwitchMs = msBetween(t0, switches.back().at);
      newMaster = local::switchMasterTarget(switches.back().payload);
    }
    if (!kill && !back && el >= opts.hangMs) {
      if (Status s = cluster.resume(NodeRef::redis(0)); !s) return s.error();
      back = true;
    }
    if (kill && !back && !switches.empty()) {
      if (Status s = cluster.restart(NodeRef::redis(0)); !s) return s.error();
      back = true;
    }
    if (back && newMaster && *newMaster != oldMaster && !run.oldMasterReplicaMs &&
        isReplicaOf(probe, oldMaster, *newMaster)) {
      run.oldMasterReplicaMs = msBetween(t0, Steady::now());  // wall-clock ok
    }
    std::set<int> switchedSentinels;
    for (const auto& e : switches) switchedSentinels.insert(e.sentinel);
    const bool settled = run.oldMasterReplicaMs &&
                         static_cast<int>(switchedSentinels.size()) == cluster.sentinelCount();
    const bool noFailover = !run.odownMs && el > faultEndMs + opts.downAfterMs + kNoOdownGraceMs;
    if (settled || noFailover || el >= opts.observeMs) break;
    std::this_thread::sleep_for(kTick);  // wall-clock ok
  }
  follower.stop();
  pinned.stop();

  for (const auto& w : follower.acked()) {
    if (w.at >= t0 && w.node != oldMaster) {
      run.newMasterWritableMs = msBetween(t0, w.at);
      break;
    }
  }
  auto finalMaster = agreedMaster(probe, cluster);
  if (!finalMaster) return makeError(Reason::Unavailable, "no sentinel names a master at the end");
  auto lostF = local::countMissing(probe, *finalMaster, follower, follower.acked());
  if (!lostF) return lostF.error();
  auto lostP = local::countMissing(probe, *finalMaster, pinned, pinned.acked());
  if (!lostP) return lostP.error();
  run.lostAckedSentinelClient = *lostF;
  run.lostAckedPinnedClient = *lostP;

  // --events, or (as before it existed) KUN_LOCAL_EVENT_LOG
  const char* envLog = std::getenv("KUN_LOCAL_EVENT_LOG");
  const std::string log = !opts.eventLog.empty() ? opts.eventLog : envLog ? envLog : "";
  if (!log.empty()) {
    std::vector<FailoverTimelineEvent> timeline;
    for (const auto& e : events.events())
      timeline.push_back({msBetween(t0, e.at), e.sentinel, e.type, e.payload});
    if (!appendFailoverEventLine(log, failoverEventLine(runIndex, opts, run, timeline)))
      std::fprintf(stderr, "failover-timing: cannot append to '%s'\n", log.c_str());
  }
  return run;
}

std::string show(const std::optional<std::int64_t>& v) {
  return v ? std::to_string(*v) : std::string("-");
}

}  // namespace

std::vector<FailoverRun> measureFailoverTimingLocal(const FailoverTimingOptions& opts) {
  std::vector<FailoverRun> runs;
  for (int i = 0; i < opts.runs; ++i) {
    auto r = oneRun(opts, i);
    if (!r) {
      // The caller sees fewer runs than asked for and reports it; no process is left.
      std::fprintf(stderr, "local run %d/%d failed: %s\n", i + 1, opts.runs,
                   r.error().toString().c_str());
      break;
    }
    std::fprintf(stderr,
                 "local run %d/%d: odown %s, switch %s..%s, writable %s, old master replica %s, "
                 "lost %lld/%lld\n",
                 i + 1, opts.runs, show(r->odownMs).c_str(), show(r->firstSwitchMs).c_str(),
                 show(r->lastSwitchMs).c_str(), show(r->newMasterWritableMs).c_str(),
                 show(r->oldMasterReplicaMs).c_str(),
                 static_cast<long long>(r->lostAckedSentinelClient),
                 static_cast<long long>(r->lostAckedPinnedClient));
    runs.push_back(std::move(*r));
  }
  return runs;
}

}  // namespace kun
