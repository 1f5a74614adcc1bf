#include "core/rediscluster/heal_run.h"

#include <algorithm>

#include "core/redis/reply_error.h"
#include "core/rediscluster/config_files.h"
#include "core/rediscluster/layout.h"

namespace kun::rediscluster::healstep {

namespace {

int phaseRank(HealPhase p) {
  switch (p) {
    case HealPhase::Creating: return 4;
    case HealPhase::Recovering: return 3;
    case HealPhase::Scaling: return 2;
    case HealPhase::Updating: return 1;
    case HealPhase::None: return 0;
  }
  return 0;
}

}  // namespace

HealRun::HealRun(HealContext& c)
    : ctx(c),
      timings_(effectiveSentinelTimings(c.cluster.spec.sentinel.customConfig,
                                        {c.options.downAfterMs, c.options.failoverTimeoutMs})) {
  for (const auto& n : c.view.redis)
    if (n.reachable) passwordIndex_[n.pod.ip] = n.password;
}

const std::string& HealRun::password() const {
  static const std::string kNone;
  return ctx.passwords.empty() ? kNone : ctx.passwords.front();
}

const std::string& HealRun::passwordOf(const RedisNodeView& n) const {
  auto it = passwordIndex_.find(n.pod.ip);
  if (it == passwordIndex_.end() || it->second < 0 || it->second >= static_cast<int>(ctx.passwords.size()))
    return password();
  return ctx.passwords[static_cast<std::size_t>(it->second)];
}

Result<RedisReply> HealRun::send(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                 std::string_view pw, std::string text) {
  ++report.stateChangingCommands;
  auto reply = ctx.redis.command(to, argv, pw);
  if (!reply.ok()) {
    Error e = reply.error();
    e.message = text + ": " + e.message;
    fail(e);
    return e;
  }
  if (reply->isError()) {
    Error e = errorFromReply(*reply);
    e.message = text + ": " + e.message;
    fail(e);
    return e;
  }
  action(std::move(text));
  return reply;
}

Result<RedisReply> HealRun::changeRedis(const RedisNodeView& n, const std::vector<std::string>& argv,
                                        std::string text) {
  return send({n.pod.ip, layout::kRedisPort}, argv, passwordOf(n), n.pod.name + ": " + text);
}

Result<RedisReply> HealRun::changeSentinel(const SentinelNodeView& s, const std::vector<std::string>& argv,
                                           std::string text) {
  return send({s.pod.ip, layout::kSentinelPort}, argv, {}, s.pod.name + ": " + text);
}

Result<RedisReply> HealRun::readRedis(const RedisNodeView& n, const std::vector<std::string>& argv) {
  auto reply = ctx.redis.command({n.pod.ip, layout::kRedisPort}, argv, passwordOf(n));
  if (!reply.ok()) return reply.error();
  if (reply->isError()) return errorFromReply(*reply);
  return reply;
}

void HealRun::fail(Error e) {
  if (report.status.ok()) report.status = std::move(e);
}

void HealRun::phase(HealPhase p) {
  if (phaseRank(p) > phaseRank(report.phase)) report.phase = p;
}

void HealRun::requeue(HealPhase p) {
  phase(p);
  report.requeueAfter = opt().requeueAfter;
}

bool isCurrentRedisIp(const ClusterView& v, const std::string& ip) { return v.redisByIp(ip) != nullptr; }

bool staysAfterScale(const api::RedisCluster& rc, const RedisNodeView& n) {
  return n.pod.ordinal >= 0 && n.pod.ordinal < rc.spec.size;
}

bool promotable(const RedisNodeView& n, const SentinelReplicaInfo& r) {
  return n.inSync() && r.slavePriority != 0 && !r.flags.down() && !r.flags.disconnected;
}

std::int32_t sentinelsAbleToFailOver(const HealRun& run, const RedisNodeView* excluded, std::size_t atLeast,
                                     const SentinelNodeView* skip) {
  const auto& view = run.view();
  const PodIps sentinelIps = podIps(view.sentinels);
  const auto peersNeeded = static_cast<std::ptrdiff_t>(sentinelQuorum(run.rc().spec.sentinel.replicas) - 1);
  std::int32_t able = 0;
  for (const auto& s : view.sentinels) {
    if (&s == skip || !s.reachable || !s.monitoring || s.tilt || s.master.ip != run.masterIp || run.forgot(s)) continue;
    const auto peers = std::count_if(s.peers.begin(), s.peers.end(), [&](const auto& p) { return hasIp(sentinelIps, p.ip); });
    const auto known = std::count_if(s.replicas.begin(), s.replicas.end(), [&](const auto& r) {
      const RedisNodeView* n = view.redisByIp(r.ip);
      return n && n != excluded && promotable(*n, r);
    });
    if (peers >= peersNeeded && static_cast<std::size_t>(known) >= atLeast) ++able;
  }
  return able;
}

Next deletePod(HealRun& run, const RedisNodeView& n, const std::string& why, HealPhase phase) {
  DeleteOptions opts;
  if (!n.pod.uid.empty()) opts.preconditionUid = n.pod.uid;
  auto st = run.ctx.kube.remove(res::pods, run.rc().namespaceOf(), n.pod.name, opts);
  if (!st.ok() && !st.is(Reason::NotFound)) {
    run.fail(makeError(st.error().reason, "delete pod " + n.pod.name + ": " + st.error().message));
    return Next::Stop;
  }
  ++run.report.podsDeleted;
  run.action("delete pod " + n.pod.name + " (" + why + ")");
  run.requeue(phase);
  return Next::Stop;
}

}  // namespace kun::rediscluster::healstep
