// Every sentinel monitors the master under layout::kMasterName, with the cluster's
// settings. A sentinel that monitors nothing (new pod, fresh sentinel.conf on the
// placeholder), another address (a dead or reused pod IP) or a failover stuck past
// healGuard's bound gets REMOVE + MONITOR, then
// SENTINEL SET of everything MONITOR resets to Sentinel's defaults: down-after,
// failover-timeout, parallel-syncs, auth-pass and spec.sentinel.customConfig. A sentinel
// that monitors the right address gets SET only for the settings SENTINEL MASTER shows
// and that differ, so a healthy cluster costs nothing.
#include <iterator>
#include <map>
#include <sstream>

#include "core/rediscluster/config_files.h"
#include "core/rediscluster/heal_run.h"

namespace kun::rediscluster::healstep {

namespace {

using Settings = std::vector<std::pair<std::string, std::vector<std::string>>>;  // option -> values

// In the order written; customConfig after the operator's own, so the user's value wins.
Settings desiredSettings(const HealRun& run) {
  Settings s;
  auto put = [&](const std::string& option, std::vector<std::string> values) {
    for (auto& [o, v] : s)
      if (o == option) {
        v = std::move(values);
        return;
      }
    s.emplace_back(option, std::move(values));
  };
  put("down-after-milliseconds", {std::to_string(run.opt().downAfterMs)});
  put("failover-timeout", {std::to_string(run.opt().failoverTimeoutMs)});
  put("parallel-syncs", {std::to_string(run.opt().parallelSyncs)});
  for (const auto& line : run.rc().spec.sentinel.customConfig) {
    std::istringstream in(line);
    std::string option, tok;
    in >> option;
    std::vector<std::string> values;
    while (in >> tok) values.push_back(tok);
    if (!option.empty() && !values.empty()) put(option, std::move(values));
  }
  return s;
}

std::vector<std::string> setCommand() { return {"SENTINEL", "SET", std::string(layout::kMasterName)}; }

Next monitor(HealRun& run, const SentinelNodeView& s, const Settings& settings) {
  const std::string name(layout::kMasterName);
  if (s.monitoring && !run.changeSentinel(s, {"SENTINEL", "REMOVE", name}, "SENTINEL REMOVE (was " + s.master.ip + ")").ok())
    return Next::Stop;
  const std::string quorum = std::to_string(sentinelQuorum(run.rc().spec.sentinel.replicas));
  if (!run.changeSentinel(s, {"SENTINEL", "MONITOR", name, run.masterIp, std::to_string(layout::kRedisPort), quorum},
                          "SENTINEL MONITOR " + run.masterIp)
           .ok())
    return Next::Stop;
  auto argv = setCommand();
  std::string what;
  for (const auto& [option, values] : settings) {
    argv.push_back(option);
    argv.insert(argv.end(), values.begin(), values.end());
    what += " " + option;
  }
  argv.insert(argv.end(), {"auth-pass", run.password()});
  if (!run.changeSentinel(s, argv, "SENTINEL SET" + what + " auth-pass ***").ok()) return Next::Stop;
  return Next::Continue;
}

// Only what SENTINEL MASTER reports can be compared; the rest was set with MONITOR.
Next adjust(HealRun& run, const SentinelNodeView& s, const Settings& settings, bool reauth) {
  std::vector<std::string> argv;  // the options to set; the command is built only when there are some
  std::string what;
  const std::string quorum = std::to_string(sentinelQuorum(run.rc().spec.sentinel.replicas));
  auto differs = [&](const std::string& option, const std::string& want) {
    const auto have = s.master.fields.find(option);
    return have && *have != want;
  };
  if (differs("quorum", quorum)) {
    argv.insert(argv.end(), {"quorum", quorum});
    what += " quorum " + quorum;
  }
  for (const auto& [option, values] : settings) {
    if (values.size() != 1 || !differs(option, values.front())) continue;
    argv.insert(argv.end(), {option, values.front()});
    what += " " + option + " " + values.front();
  }
  if (reauth) {
    argv.insert(argv.end(), {"auth-pass", run.password()});
    what += " auth-pass ***";
  }
  if (what.empty()) return Next::Continue;
  auto command = setCommand();
  command.insert(command.end(), std::make_move_iterator(argv.begin()), std::make_move_iterator(argv.end()));
  run.phase(HealPhase::Updating);
  if (!run.changeSentinel(s, command, "SENTINEL SET" + what).ok()) return Next::Stop;
  return Next::Continue;
}

}  // namespace

Next healSentinels(HealRun& run) {
  if (run.masterIp.empty()) return Next::Continue;
  const RedisNodeView* master = run.view().redisByIp(run.masterIp);
  // Clients ask Sentinel for the master: name only one that is Ready (or that this pass
  // just made master, having answered as one).
  if (master && !master->pod.ready && !run.masterMadeNow && !run.opt().addUnreadyPodToSentinelForTest) {
    run.waiting(master->pod.name + ": master not Ready yet, sentinels wait");
    run.requeue(HealPhase::Recovering);
    return Next::Continue;
  }
  const Settings settings = desiredSettings(run);
  for (const auto& s : run.view().sentinels) {
    if (!s.reachable || s.pod.terminating) continue;
    Next next;
    if (!s.monitoring || s.master.ip != run.masterIp || s.master.port != layout::kRedisPort || run.isStuck(s)) {
      run.phase(HealPhase::Recovering);
      next = monitor(run, s, settings);
    } else {
      // A sentinel that sees the master, or a replica, down although it answers us may
      // hold an old auth-pass (a password change it missed, by an operator restarted
      // since): give it the current one. And one known to have missed a change while it
      // did not answer.
      const bool owed = run.ctx.authPassOwed && run.ctx.authPassOwed->count(s.pod.uid) > 0;
      const auto answersUs = [&](const std::string& ip) {
        const RedisNodeView* n = run.view().redisByIp(ip);
        return n != nullptr && n->reachable;
      };
      // Given for such a sign at most once per authPassResend: a node cut off from the
      // sentinels (a partition) is down for them too, and each time drops their connections.
      bool sign = !run.passwordChanged && ((master && master->reachable && s.master.flags.down()) ||
                                           std::any_of(s.replicas.begin(), s.replicas.end(), [&](const auto& r) {
                                             return r.flags.down() && answersUs(r.ip);
                                           }));
      if (sign && run.ctx.authPassResent) {
        const auto at = run.ctx.authPassResent->find(s.pod.uid);
        sign = at == run.ctx.authPassResent->end() || run.ctx.now - at->second >= run.opt().authPassResend;
      }
      next = adjust(run, s, settings, owed || sign);
      if (sign && next != Next::Stop && run.ctx.authPassResent) (*run.ctx.authPassResent)[s.pod.uid] = run.ctx.now;
    }
    if (next == Next::Stop) return Next::Stop;
    if (run.ctx.authPassOwed) run.ctx.authPassOwed->erase(s.pod.uid);  // monitor and adjust both set auth-pass
  }
  return Next::Continue;
}

}  // namespace kun::rediscluster::healstep
