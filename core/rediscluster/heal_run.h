#pragma once
// Internal to heal: the state of one heal pass shared by its steps (heal_*.cpp), and the
// way they send commands, so every command is counted, every action recorded without
// secrets, and the first failure kept.
#include <algorithm>
#include <map>
#include <string>
#include <vector>

#include "core/rediscluster/heal.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/sentinel_timings.h"

namespace kun::rediscluster::healstep {

enum class Next { Continue, Stop };

class HealRun {
 public:
  explicit HealRun(HealContext& ctx);

  HealContext& ctx;
  HealReport report;
  // The master this pass works with: the one observed, or the one this pass made.
  std::string masterIp;
  bool masterMadeNow = false;    // promoted (or kept out of several) in this pass
  bool passwordChanged = false;  // some node was moved to the current password
  // Sentinels this pass sent SENTINEL RESET: what the view says they know is gone.
  std::vector<const SentinelNodeView*> forgotten;
  // Sentinels whose failover ran past healGuard's bound: it never ends by itself, and as
  // its leader it keeps announcing the replica it promoted (gone) as the master.
  std::vector<const SentinelNodeView*> stuck;
  bool forgot(const SentinelNodeView& s) const { return listed(forgotten, s); }
  bool isStuck(const SentinelNodeView& s) const { return listed(stuck, s); }

  const api::RedisCluster& rc() const { return ctx.cluster; }
  const ClusterView& view() const { return ctx.view; }
  const HealOptions& opt() const { return ctx.options; }
  // How long the sentinels wait (the cluster's customConfig over the operator's own
  // settings): heal's patience with Sentinel is measured by these, not by opt()'s.
  const SentinelTimings& sentinelTimings() const { return timings_; }
  const std::string& password() const;  // the current one ("" for none)
  // The password node n accepts now.
  const std::string& passwordOf(const RedisNodeView& n) const;
  void setPasswordOf(const RedisNodeView& n, PasswordIndex i) { passwordIndex_[n.pod.ip] = i; }

  // A state-changing command. `action` describes it for the report (never a secret). An
  // Error reply or a transport failure is recorded as the pass's status (the first one)
  // and returned as an error.
  Result<RedisReply> changeRedis(const RedisNodeView& n, const std::vector<std::string>& argv, std::string action);
  Result<RedisReply> changeSentinel(const SentinelNodeView& s, const std::vector<std::string>& argv,
                                    std::string action);
  // A read (counted nowhere); Error replies are returned as errors, not recorded.
  Result<RedisReply> readRedis(const RedisNodeView& n, const std::vector<std::string>& argv);

  void fail(Error e);
  void action(std::string text) { report.actions.push_back(std::move(text)); }
  // What the pass waits for (it also requeues): shown in the status, not announced as an action.
  void waiting(std::string text) { report.waits.push_back(std::move(text)); }
  // Something must be looked at again; the phase says what the cluster goes through
  // (the most significant one of a pass wins: Creating > Recovering > Scaling > Updating).
  void requeue(HealPhase p);
  void phase(HealPhase p);
  bool failed() const { return !report.status.ok(); }

 private:
  static bool listed(const std::vector<const SentinelNodeView*>& v, const SentinelNodeView& s) {
    return std::find(v.begin(), v.end(), &s) != v.end();
  }
  Result<RedisReply> send(const RedisEndpoint& to, const std::vector<std::string>& argv, std::string_view password,
                          std::string action);
  std::map<std::string, PasswordIndex> passwordIndex_;
  SentinelTimings timings_;
};

Next healGuard(HealRun& run);           // heal_guard.cpp
Next healPasswords(HealRun& run);       // heal_password.cpp
Next healMaster(HealRun& run);          // heal_master.cpp
Next healReplicas(HealRun& run);        // heal_replicas.cpp
Next healSentinels(HealRun& run);       // heal_sentinels.cpp
Next healConfig(HealRun& run);          // heal_config.cpp
Next healSentinelReset(HealRun& run);   // heal_sentinel_reset.cpp
Next healScaleDown(HealRun& run);       // heal_scale.cpp
Next healRolling(HealRun& run);         // heal_rolling.cpp

// Shared helpers.
bool isCurrentRedisIp(const ClusterView& v, const std::string& ip);
// Deletes n's pod (the StatefulSet makes it again) and ends the pass: an action, requeued
// in `phase`.
Next deletePod(HealRun& run, const RedisNodeView& n, const std::string& why, HealPhase phase = HealPhase::Updating);
// Whether the pod keeps its place after a scale-down to spec.size.
bool staysAfterScale(const api::RedisCluster& rc, const RedisNodeView& n);
// Whether a sentinel would promote the replica it lists as r, n being the node at r's
// address: in sync, up, priority not 0 as the sentinel last read it.
bool promotable(const RedisNodeView& n, const SentinelReplicaInfo& r);
// How many sentinels could lead a failover of run.masterIp now: each monitors it, is not
// in TILT, was not reset in this pass, knows enough other sentinels (pods of the cluster)
// to reach the quorum, and lists at least `atLeast` replicas other than `excluded` that
// it would promote. `skip` is left out.
std::int32_t sentinelsAbleToFailOver(const HealRun& run, const RedisNodeView* excluded, std::size_t atLeast,
                                     const SentinelNodeView* skip = nullptr);

}  // namespace kun::rediscluster::healstep
