#include "scenarios/scenario_runner.h"

#include <algorithm>
#include <chrono>
#include <set>

#include <fmt/format.h>

#include "chaos/faults/schedule_runner.h"
#include "core/api/object.h"
#include "core/rediscluster/conditions.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/sentinel_timings.h"
#include "core/runtime/sim_loop.h"
#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/redis_sim.h"
#include "scenarios/failover_attempts.h"
#include "scenarios/failover_readiness.h"
#include "scenarios/invariants.h"
#include "scenarios/key_client.h"
#include "scenarios/object_delete.h"
#include "scenarios/scenario_conditions.h"
#include "scenarios/scenario_world.h"
#include "scenarios/timeline_recorder.h"
#include "scenarios/view_verdicts.h"
#include "scenarios/write_durability.h"

namespace kun::scenario {

namespace {

using chaos::FaultKind;

// Faults under which real Sentinel can lose acknowledged writes (asynchronous replication
// cut short, or a split brain healed by discarding one side).
bool losesWrites(FaultKind k) {
  switch (k) {
    case FaultKind::PodKill:
    case FaultKind::PodFailure:
    case FaultKind::ContainerKill:
    case FaultKind::ProcessHang:
    case FaultKind::StatefulSetDelete:
    case FaultKind::NodeFailure:
    case FaultKind::ZoneFailure:
    case FaultKind::NetworkPartition:
    case FaultKind::NetworkLoss:
    case FaultKind::NetworkDelay:
    case FaultKind::SwizzleClog: return true;
    default: return false;
  }
}

// Of those, faults that can take every copy of a write at once (all the pods of the
// StatefulSet, or every pod of a node or zone), so even a write every node held may go.
bool losesReplicatedWrites(FaultKind k) {
  return k == FaultKind::StatefulSetDelete || k == FaultKind::NodeFailure || k == FaultKind::ZoneFailure;
}

// Deleting the sentinel StatefulSet takes no redis data with it: a write lost after it is
// another fault's or the operator's (found with kun-sim prop --seed 4010: the operator
// discarded the writes the master Sentinel had promoted took, and this deletion was blamed).
bool deletesOnlySentinels(const chaos::Fault& f, std::string_view cluster) {
  if (f.kind != FaultKind::StatefulSetDelete) return false;
  const std::string_view t = f.target.empty() ? chaos::defaultTarget(f.kind) : std::string_view(f.target);
  return t == "sentinel" || t == rediscluster::names::sentinel(cluster);
}

// An API outage the operator cannot see through: most lists and watches refused (a 409
// refuses writes only, and a low rate lets most calls through), so it has no caches to
// heal with.
bool blindsOperator(const chaos::Fault& f) {
  return f.kind == FaultKind::ApiErrors && f.code != 409 && 2 * f.rateNum >= f.rateDen;
}

// Faults during which (and for a while after which) two masters are Sentinel's documented
// behaviour: the old master is cut off or frozen and comes back still believing it leads.
bool splitsBrain(FaultKind k) {
  switch (k) {
    case FaultKind::ProcessHang:
    case FaultKind::PodFailure:
    case FaultKind::NodeFailure:
    case FaultKind::ZoneFailure:
    case FaultKind::NetworkPartition:
    case FaultKind::NetworkLoss:
    case FaultKind::NetworkDelay:
    case FaultKind::SwizzleClog: return true;
    default: return false;
  }
}

// Faults that leave replicas behind the master or make Sentinel fail it over: those that
// lose writes, but for a network delay too short for Sentinel to think the master down.
bool cutsOffMaster(const chaos::Fault& f, std::int64_t downAfterMs) {
  if (f.kind == FaultKind::NetworkDelay) return 2 * f.latency >= milliseconds(downAfterMs);
  return losesWrites(f.kind);
}

// How long a write the master acknowledged may take to reach a replica that keeps up: the
// simulated links' latency, many times over.
constexpr Duration kReplicationInFlight = milliseconds(50);

// How long a deleted pod may keep serving: Kubernetes' default terminationGracePeriodSeconds,
// which the operator's pods keep.
constexpr Duration kPodGracePeriod = seconds(30);

constexpr Duration kPoll = milliseconds(100);
const std::string kNoMaster;  // readiness_.sample's master when there is not one
constexpr Duration kSettle = seconds(5);

bool lasting(const chaos::Fault& f) { return chaos::hasDuration(f.kind) && f.duration > Duration::zero(); }

struct ClusterRef {
  std::string ns, name;
};

// A failover the Sentinels made (the master they name changed under a higher config
// epoch), as opposed to a change the operator made by re-monitoring.
struct SentinelFailover {
  TimePoint began;  // the attempt that won began (+try-failover)
  TimePoint at;     // the sampler saw the majority name the new master
  std::string from, to;
  bool requested = false;  // by SENTINEL FAILOVER, not on a master Sentinel held down
  // The node promoted had restarted after the attempt began (a container kill, a pod
  // failure's end): Sentinel does not check that the replica it selected is still the
  // process it selected, and without persistence it promoted an empty one.
  bool promotedRestarted = false;
};

struct ClusterSamples {
  std::vector<std::pair<TimePoint, bool>> healthChanges;  // (time, healthy) when it flips
  std::optional<TimePoint> twoMastersSince;
  std::string named;            // the master most sentinels name
  std::int64_t epoch = 0;       // the config epoch the majority named it under
  std::vector<SentinelFailover> failovers;
  ViewVerdicts verdicts;  // on the view last judged
};

class Runner {
 public:
  Runner(const Scenario& s, const RunOptions& o)
      : s_(s), o_(o), seed_(o.seed ? *o.seed : s.seed.value_or(1)), w_(worldOptions()) {}

  RunResult run();
  // run() but for a stall (SimStalled), which run() turns into a failed report.
  RunResult runToEnd();
  // Stops sampling and hands back the report as it stands.
  RunResult finish();

 private:
  ScenarioWorldOptions worldOptions() const {
    ScenarioWorldOptions wo;
    wo.seed = seed_;
    wo.world = s_.world;
    wo.heal = o_.heal;
    wo.verifyViewCache = o_.verifyViewCache;
    if (o_.trace) wo.traceEntries = std::size_t{1} << 30;  // all of them
    return wo;
  }
  // The file for messages, or the scenario's name when it was built in code.
  const std::string& where() const { return s_.file.empty() ? s_.name : s_.file; }
  std::int64_t ms(TimePoint t) const { return sinceStartMillis(t) - sinceStartMillis(start_); }
  void progress(const std::string& line) {
    if (o_.progress) o_.progress(fmt::format("[{:8.1f}s] {}", ms(w_.loop().now()) / 1000.0, line));
  }
  // The sampler marks invariants every sample: found by name, a key made only once.
  InvariantOutcome& outcome(std::string_view name) {
    auto it = report_.invariants.find(name);
    if (it == report_.invariants.end()) it = report_.invariants.emplace(std::string(name), InvariantOutcome{}).first;
    return it->second;
  }
  void violate(std::string_view name, const std::string& detail) {
    auto& inv = outcome(name);
    if (inv.state == InvariantOutcome::State::Violated) return;
    inv.state = InvariantOutcome::State::Violated;
    inv.atMs = ms(w_.loop().now());
    inv.detail = detail;
    const auto* info = findInvariant(name);
    report_.fail(info && info->phase == InvariantPhase::Safety ? FailureClass::Safety : FailureClass::Liveness,
                 fmt::format("{}: {}", name, detail));
    progress(fmt::format("VIOLATED {}: {}", name, detail));
  }
  void held(std::string_view name) {
    auto& inv = outcome(name);
    if (inv.state == InvariantOutcome::State::NotChecked) inv.state = InvariantOutcome::State::Held;
  }
  void check(std::string_view name, const std::optional<std::string>& v) {
    if (v) violate(name, *v);
    else held(name);
  }

  std::shared_ptr<const api::RedisCluster> cluster(const ClusterRef& c) { return w_.cluster(c.ns, c.name); }
  using ClusterPtr = std::shared_ptr<const api::RedisCluster>;
  using ViewPtr = std::shared_ptr<const rediscluster::ClusterView>;
  // The one health function, every answer of which is kept as a sample (recoveries are
  // measured from these). The reference lasts until c is judged again.
  const Verdicts& judge(const ClusterRef& c, const ClusterPtr& rc, const ViewPtr& view);
  const rediscluster::Health& healthOf(const ClusterRef& c, const ClusterPtr& rc, const ViewPtr& view) {
    return judge(c, rc, view).health;
  }
  const rediscluster::Health& healthOf(const ClusterRef& c, const ClusterPtr& rc) {
    return healthOf(c, rc, w_.observe(*rc));
  }
  bool allHealthy();
  // "RedisCluster NS/NAME: <the operator's message>" for the first cluster whose spec the
  // operator rejected (condition Failed, reason InvalidSpec); "" when none is.
  std::string rejectedSpec();
  // Runs the world until pred holds, looking every kPoll of virtual time (the conditions
  // observe the whole cluster: too dear to ask after every event); false at the timeout.
  bool waitUntil(const std::function<bool()>& pred, Duration timeout);
  bool evaluate(std::string_view condition, std::string& why);
  void sample();
  void noteFailover(ClusterSamples& cs, const Verdicts& v);
  void armSampler();
  bool runStep(const Step& st, StepOutcome& out);
  Status beginStepFault(const chaos::Fault& f, std::string& detail);
  // A fault began (ended unset) or ended: the timeline, and the split-brain window that
  // partitions, hangs and failures open until splitBrainBound after they end (an outage
  // that blinds the operator while it is open holds it open until the bound after that).
  void onFaultRecord(const chaos::FaultRecord& r);
  // Just before a fault is applied.
  void beforeFault(const chaos::Fault& f);
  bool faultsEnded() const;
  void liveness();
  // no-orphans for a deleted cluster: garbage collection (pods after their grace period)
  // has removed what it owned within `within`.
  void checkDeleted(const DeletedCluster& d, Duration within);
  // The liveness checks of one cluster on the world as it is now, by invariant name.
  std::vector<std::pair<std::string_view, std::optional<std::string>>> convergence(const ClusterRef& c);
  void classifyLosses(const std::vector<LostWrite>& lost);
  // Whether a fault that can part the master from its replicas or make Sentinel fail it
  // over was on (or had just ended) when the write was acknowledged, and began before the
  // failover attempt.
  bool cutOffByFault(const std::vector<chaos::FaultRecord>& faults, TimePoint write, TimePoint attempt) const;
  std::vector<chaos::FaultRecord> allFaults() const;
  void finishReport(std::chrono::steady_clock::time_point wallStart);
  std::chrono::steady_clock::time_point wallStart_;
  // The sentinels' timings the bounds are drawn from: the operator's own (HealOptions)
  // over every spec.sentinel.customConfig a cluster had in the run, the longest of each
  // (a sentinel may still wait by one the spec has since left; with a user's down-after
  // of 150 s a master that restarts empty heals in 181 s, past the 128 s bound the
  // operator's 1 s gives). Whether a network delay is long enough for Sentinel to hold the master down is
  // judged by the shortest down-after instead.
  std::int64_t downAfterMs() const { return longest_.downAfterMs; }
  std::int64_t failoverTimeoutMs() const { return longest_.failoverTimeoutMs; }
  void noteTimings(const api::RedisCluster& rc) {
    const auto t = rediscluster::effectiveSentinelTimings(rc.spec.sentinel.customConfig,
                                                          {o_.heal.downAfterMs, o_.heal.failoverTimeoutMs});
    longest_ = rediscluster::longer(longest_, t);
    shortestDownAfterMs_ = std::min(shortestDownAfterMs_, t.downAfterMs);
  }

  const Scenario& s_;
  const RunOptions& o_;
  rediscluster::SentinelTimings longest_{o_.heal.downAfterMs, o_.heal.failoverTimeoutMs};
  std::int64_t shortestDownAfterMs_ = o_.heal.downAfterMs;
  std::uint64_t seed_;
  ScenarioWorld w_;
  RunReport report_;
  TimePoint start_{};
  std::vector<ClusterRef> clusters_;  // the clusters there are (a delete step removes one)
  ClusterRef primary_;                // the first manifest's: faults, keys and patches aim at it
  std::vector<DeletedCluster> deleted_;
  std::map<std::string, ClusterSamples> samples_;  // by cluster name
  std::unique_ptr<KeyClient> keys_;
  std::unique_ptr<chaos::ScheduleRunner> schedule_;
  std::unique_ptr<TimelineRecorder> timeline_;
  std::vector<chaos::FaultRecord> stepFaults_;
  std::size_t stepFaultsActive_ = 0;
  std::optional<TimePoint> disruptionUntil_;  // split-brain window: end of the last such fault + bound
  int disruptionsActive_ = 0;
  // API outages that blind the operator (blindsOperator) on now, and whether the
  // split-brain window was open during them. A split brain Sentinel cannot end (its
  // sentinels deleted) is the operator's to end, and the operator is as blind as its API:
  // such an outage holds the window open until the bound after it ends (kun-sim prop
  // --seed 4010).
  int apiOutagesActive_ = 0;
  bool windowDuringOutage_ = false;
  bool splitWindowOpen(TimePoint now) const;
  void extendSplitWindow();
  TimerId sampler_ = 0;
  std::string firstMaster_;
  bool sampling_ = true;
  std::set<std::string> lostKeys_;  // key=value of each loss counted, so a loss counts once
  WriteDurability durability_;      // what every node held as each write-losing fault began
  FailoverAttempts tries_{w_.world().redis()};
  FailoverReadiness readiness_;     // failover-ready, for the primary cluster
};

const Verdicts& Runner::judge(const ClusterRef& c, const ClusterPtr& rc, const ViewPtr& view) {
  auto& cs = samples_[c.name];
  const Verdicts& v = cs.verdicts.of(rc, view);
  const bool healthy = v.health.healthy;
  // A fault's excuse for failover-ready lasts until what it held back has landed too: a
  // retransmission backed off through a loss brings, seconds after the loss ended, what it
  // carries (a hello with the config the sentinels had before the operator re-pointed
  // them, which undoes that: kun-sim prop --seed 2016 --minutes 1).
  if (c.name == primary_.name && c.ns == primary_.ns)
    readiness_.onHealth(w_.loop().now(), healthy && w_.world().net().delayed() == 0);
  auto& changes = cs.healthChanges;
  if (changes.empty() || changes.back().second != healthy) changes.push_back({w_.loop().now(), healthy});
  return v;
}

bool Runner::allHealthy() {
  bool all = true;
  for (const auto& c : clusters_) {
    auto rc = cluster(c);
    all = rc && healthOf(c, rc).healthy && all;
  }
  return all;
}

std::string Runner::rejectedSpec() {
  for (const auto& c : clusters_) {
    auto rc = cluster(c);
    if (!rc) continue;
    const auto* failed = api::findCondition(rc->status, rediscluster::conditions::kFailed);
    if (failed && failed->status == "True" && failed->reason == "InvalidSpec")
      return fmt::format("RedisCluster {}/{} rejected by the operator: {}", c.ns, c.name, failed->message);
  }
  return {};
}

bool Runner::waitUntil(const std::function<bool()>& pred, Duration timeout) {
  SimLoop& loop = w_.loop();
  const TimePoint deadline = loop.now() + timeout;
  while (!pred()) {
    if (loop.now() >= deadline) return false;
    loop.runUntil(std::min(deadline, loop.now() + kPoll));
  }
  return true;
}

bool Runner::faultsEnded() const {
  return stepFaultsActive_ == 0 && (!schedule_ || schedule_->finished());
}

bool Runner::evaluate(std::string_view condition, std::string& why) {
  if (condition == "faults-ended") return faultsEnded();
  const ClusterRef& c = clusters_.empty() ? primary_ : clusters_.front();
  auto rc = cluster(c);
  if (!rc) {
    why = "RedisCluster " + c.name + " is gone";
    return false;
  }
  if (condition == "converged") {
    for (const auto& other : clusters_)
      for (const auto& [name, v] : convergence(other))
        if (v) {
          why = fmt::format("{}: {}: {}", other.name, name, *v);
          return false;
        }
    return evaluate("healthy", why);
  }
  if (condition == "healthy") {
    for (const auto& other : clusters_) {
      auto orc = cluster(other);
      if (!orc) return false;
      const auto& h = healthOf(other, orc);
      if (!h.healthy) {
        why = other.name + ": " + (h.reasons.empty() ? "not healthy" : h.reasons.front());
        return false;
      }
    }
    return true;
  }
  const auto viewPtr = w_.observe(*rc);
  const auto& view = *viewPtr;
  if (condition == "pods-ready") {
    const auto p = w_.pods(*rc);
    if (static_cast<int>(p.redis.size()) != rc->spec.size ||
        static_cast<int>(p.sentinels.size()) != rc->spec.sentinel.replicas)
      return false;
    for (const auto* list : {&p.redis, &p.sentinels})
      for (const auto& pod : *list)
        if (!pod.running || !pod.ready || pod.terminating) return false;
    return true;
  }
  if (condition == "sentinels-agree" || condition == "master-elected") {
    if (view.sentinels.empty()) return false;
    auto v = checkSentinelsAgree(view);
    if (v) why = *v;
    return !v;
  }
  if (condition == "master-changed") {
    const auto& h = healthOf(c, rc, viewPtr);
    why = "the master is still " + firstMaster_;
    return !h.masterIP.empty() && h.masterIP != firstMaster_;
  }
  if (condition == "writes-readable") {
    std::vector<LostWrite> lost;
    if (!keys_->readAll(o_.writeTimeout, lost)) {
      why = "the master could not be read";
      return false;
    }
    classifyLosses(lost);
    why = fmt::format("{} acknowledged writes are missing", lost.size());
    return lost.empty();
  }
  why = "unknown condition";
  return false;
}

void Runner::sample() {
  if (!sampling_) return;
  const TimePoint now = w_.loop().now();
  for (const auto& c : clusters_) {
    auto rc = cluster(c);
    if (!rc) continue;
    noteTimings(*rc);
    const auto viewPtr = w_.observe(*rc);
    const Verdicts& verdicts = judge(c, rc, viewPtr);
    const auto& masters = verdicts.masters;
    auto& cs = samples_[c.name];
    noteFailover(cs, verdicts);
    if (c.name == primary_.name && c.ns == primary_.ns)
      check(inv::kFailoverReady, readiness_.sample(rc, viewPtr, masters.size() == 1 ? masters[0] : kNoMaster));
    held(inv::kSingleWritableMaster);  // unless violated, now or later
    if (masters.size() < 2) {
      cs.twoMastersSince.reset();
      continue;
    }
    if (!cs.twoMastersSince) cs.twoMastersSince = now;
    if (!splitWindowOpen(now) && now - *cs.twoMastersSince > splitBrainBound(downAfterMs()))
      violate(inv::kSingleWritableMaster,
              fmt::format("{}: {} and {} both accept writes as master since {} ms", c.name, masters[0], masters[1],
                          ms(*cs.twoMastersSince)));
  }
}

void Runner::noteFailover(ClusterSamples& cs, const Verdicts& v) {
  // The epoch is that of the sentinels naming each master (Verdicts::votes): a lone
  // sentinel that has seen the failover first (its peers not yet) must not use up the
  // epoch the majority later names the new master under.
  const TimePoint now = w_.loop().now();
  for (const auto& [ip, vote] : v.votes) {
    const auto [n, epoch] = vote;
    if (2 * n <= v.reachable || ip == cs.named) continue;
    if (!cs.named.empty() && epoch > cs.epoch) {
      const TimePoint since = cs.failovers.empty() ? start_ : cs.failovers.back().at;
      const auto attempt = tries_.find(cs.named, epoch, since);
      const TimePoint began = attempt ? attempt->at : now;
      const auto* promoted = w_.world().redis().redis({ip, rediscluster::layout::kRedisPort});
      const bool restarted = promoted && promoted->isMaster() && promoted->startedAt() > began;
      cs.failovers.push_back({began, now, cs.named, ip, attempt && attempt->requested, restarted});
    }
    cs.named = ip;
    cs.epoch = std::max(cs.epoch, epoch);
  }
}

void Runner::armSampler() {
  sampler_ = w_.loop().runAt(w_.loop().now() + o_.samplePeriod, [this] {
    sample();
    armSampler();
  });
}

Status Runner::beginStepFault(const chaos::Fault& f, std::string& detail) {
  chaos::FaultRecord rec;
  rec.fault = f;
  rec.began = w_.loop().now();
  beforeFault(f);
  auto b = w_.injector().begin(f);
  if (!b) {
    rec.detail = "skipped: " + b.error().message;
    detail = rec.detail;
    stepFaults_.push_back(rec);
    onFaultRecord(rec);
    // A target that is not there (no master mid-failover) is not an error of the scenario;
    // bad parameters are.
    return b.error().reason == Reason::Invalid ? Status(b.error()) : Status{};
  }
  rec.applied = true;
  rec.detail = b->detail;
  detail = b->detail;
  const std::size_t index = stepFaults_.size();
  stepFaults_.push_back(rec);
  onFaultRecord(rec);
  if (lasting(f)) {
    ++stepFaultsActive_;
    const auto id = b->id;
    w_.loop().runAt(w_.loop().now() + f.duration, [this, id, index] {
      (void)w_.injector().end(id);
      auto& r = stepFaults_[index];
      r.ended = w_.loop().now();
      --stepFaultsActive_;
      onFaultRecord(r);
    });
  } else {
    (void)w_.injector().end(b->id);
  }
  return {};
}

void Runner::beforeFault(const chaos::Fault& f) {
  if (losesWrites(f.kind) && keys_) durability_.snapshot(w_, *keys_, primary_.ns, primary_.name);
  if (auto rc = cluster(primary_)) {
    const auto view = w_.observe(*rc);
    const auto& masters = samples_[primary_.name].verdicts.of(rc, view).masters;
    readiness_.beforeFault(*rc, *view, masters.size() == 1 ? masters[0] : kNoMaster);
  }
}

void Runner::onFaultRecord(const chaos::FaultRecord& r) {
  if (timeline_) timeline_->onFault(r);
  readiness_.onFault(r);
  if (!r.applied) return;
  if (blindsOperator(r.fault) && lasting(r.fault)) {
    if (!r.ended) {
      if (apiOutagesActive_++ == 0) windowDuringOutage_ = splitWindowOpen(w_.loop().now());
      return;
    }
    --apiOutagesActive_;
    if (windowDuringOutage_) extendSplitWindow();
    if (apiOutagesActive_ == 0) windowDuringOutage_ = false;
    return;
  }
  if (!splitsBrain(r.fault.kind)) return;
  if (apiOutagesActive_ > 0) windowDuringOutage_ = true;
  if (!r.ended && lasting(r.fault)) {
    ++disruptionsActive_;
    return;
  }
  if (r.ended) --disruptionsActive_;
  extendSplitWindow();
}

bool Runner::splitWindowOpen(TimePoint now) const {
  return disruptionsActive_ > 0 || (apiOutagesActive_ > 0 && windowDuringOutage_) ||
         (disruptionUntil_ && now < *disruptionUntil_);
}

void Runner::extendSplitWindow() {
  const TimePoint until = w_.loop().now() + splitBrainBound(downAfterMs());
  if (!disruptionUntil_ || *disruptionUntil_ < until) disruptionUntil_ = until;
}

bool Runner::runStep(const Step& st, StepOutcome& out) {
  const ClusterRef& first = primary_;
  // A step the world refuses (an invalid manifest, patch or fault) is bad input.
  const auto refused = [&](std::string_view what, const Status& r) {
    if (r) return false;
    out.detail += ": " + r.error().toString();
    report_.fail(FailureClass::BadInput, fmt::format("{}:{}: {}: {}", where(), st.line, what, r.error().toString()));
    return true;
  };
  switch (st.kind) {
    case StepKind::Apply: {
      out.detail = "apply " + meta::name(st.manifest);
      if (st.manifest.value("kind", "") != "RedisCluster") return !refused("apply", w_.apply(st.manifest));
      const ClusterRef c{st.manifest["metadata"].value("namespace", "default"), meta::name(st.manifest)};
      // Made again after a delete step: the old one must be gone first, or its leftovers
      // would pass for the new one's.
      if (auto d = std::find_if(deleted_.begin(), deleted_.end(), [&](const auto& x) { return x.ns == c.ns && x.name == c.name; });
          d != deleted_.end()) {
        checkDeleted(*d, healBound(downAfterMs(), failoverTimeoutMs()));
        deleted_.erase(d);
      }
      if (refused("apply", w_.apply(st.manifest))) return false;
      if (std::none_of(clusters_.begin(), clusters_.end(), [&](const auto& x) { return x.ns == c.ns && x.name == c.name; }))
        clusters_.push_back(c);
      return true;
    }
    case StepKind::Patch: {
      const std::string name = st.cluster.empty() ? first.name : st.cluster;
      out.detail = "patch " + name;
      return !refused("patch", w_.patchCluster(first.ns, name, st.patch));
    }
    case StepKind::Fault: {
      std::string detail;
      auto r = beginStepFault(st.fault, detail);
      out.detail = chaos::describeFault(st.fault) + (r ? ": " + detail : "");
      return !refused("fault", r);
    }
    case StepKind::Write: {
      const int acked = keys_->write(st.prefix, st.keys, o_.writeTimeout, st.duration);
      out.detail = fmt::format("{} of {} writes to {}-* acknowledged", acked, st.keys, st.prefix);
      return true;
    }
    case StepKind::Read: {
      std::vector<LostWrite> lost;
      if (!keys_->read(st.prefix, st.keys, o_.writeTimeout, lost)) {
        out.detail = "the master could not be read";
        report_.fail(FailureClass::Liveness, fmt::format("{}:{}: read: {}", where(), st.line, out.detail));
        return false;
      }
      classifyLosses(lost);
      out.detail = fmt::format("read {}-*: {} acknowledged writes missing", st.prefix, lost.size());
      return true;
    }
    case StepKind::WaitFor: {
      std::string why;
      const bool ok = waitUntil([&] { return evaluate(st.condition, why); }, st.timeout);
      out.detail = ok ? st.condition : fmt::format("{} not reached in {} ms: {}", st.condition, toMillis(st.timeout), why);
      if (!ok) report_.fail(FailureClass::Liveness, fmt::format("{}:{}: waitFor {}", where(), st.line, out.detail));
      return ok;
    }
    case StepKind::Assert: {
      std::string why;
      const bool ok = evaluate(st.condition, why);
      out.detail = ok ? st.condition : st.condition + ": " + why;
      if (!ok) report_.fail(FailureClass::Assertion, fmt::format("{}:{}: assert {}", where(), st.line, out.detail));
      return ok;
    }
    case StepKind::Sleep:
      w_.world().runFor(st.duration);
      out.detail = fmt::format("{} ms", toMillis(st.duration));
      return true;
    case StepKind::Delete: {
      auto d = deleteObject(w_, st, first.ns, first.name);
      out.detail = d ? d->detail : "delete " + st.objectKind + " " + st.objectName;
      if (refused("delete", d ? Status{} : Status(d.error()))) return false;
      if (d->cluster) {
        // From here the cluster is judged by no-orphans, not by health.
        std::erase_if(clusters_, [&](const ClusterRef& c) { return c.ns == d->cluster->ns && c.name == d->cluster->name; });
        deleted_.push_back(*d->cluster);
        // Its data went with it, as asked, unless its volumes stay: then a cluster made
        // again under that name must find the writes on them.
        if (d->cluster->ns == primary_.ns && d->cluster->name == primary_.name) {
          if (!d->cluster->keepPvcs) keys_->forgetWrites();
          readiness_ = FailoverReadiness{};  // one made again bootstraps afresh
        }
      }
      return true;
    }
  }
  return true;
}

std::vector<chaos::FaultRecord> Runner::allFaults() const {
  std::vector<chaos::FaultRecord> all = stepFaults_;
  if (schedule_) all.insert(all.end(), schedule_->records().begin(), schedule_->records().end());
  std::stable_sort(all.begin(), all.end(), [](const auto& a, const auto& b) { return a.began < b.began; });
  return all;
}

bool Runner::cutOffByFault(const std::vector<chaos::FaultRecord>& faults, TimePoint write, TimePoint attempt) const {
  for (const auto& f : faults) {
    if (!f.applied || !cutsOffMaster(f.fault, shortestDownAfterMs_) || f.began > attempt || f.began > write) continue;
    if (write <= f.ended.value_or(f.began) + splitBrainBound(downAfterMs())) return true;
  }
  return false;
}

void Runner::classifyLosses(const std::vector<LostWrite>& lost) {
  const auto faults = allFaults();
  for (const auto& l : lost) {
    if (!lostKeys_.insert(l.key + "=" + l.write.value).second) continue;  // counted once
    std::string cause = "unexplained";
    for (const auto& f : faults)
      if (f.applied && f.began >= l.write.at && losesWrites(f.fault.kind) &&
          !deletesOnlySentinels(f.fault, primary_.name) &&
          (losesReplicatedWrites(f.fault.kind) || !durability_.everywhere(f.began, l.key, l.write.value))) {
        cause = std::string(chaos::faultKindName(f.fault.kind));
        break;
      }
    // A StatefulSet deletion takes its pods away gracefully: each keeps serving until it has
    // shut down (within the grace period), and no replica outlives them to take over what
    // one acknowledged meanwhile.
    if (cause == "unexplained")
      for (const auto& f : faults)
        if (f.applied && f.fault.kind == FaultKind::StatefulSetDelete && !deletesOnlySentinels(f.fault, primary_.name) &&
            f.began <= l.write.at &&
            l.write.at <= f.began + kPodGracePeriod && durability_.servedBy(f.began, l.write.master)) {
          cause = std::string(chaos::faultKindName(f.fault.kind));
          break;
        }
    // A Sentinel failover away from the node that acknowledged the write. Sentinel does not
    // pause clients, so what the old master took after the winning attempt began is
    // discarded when it becomes a replica — Sentinel's documented loss, even for a requested
    // failover — up to the split-brain bound after the switch (a sentinel that has not had
    // the new epoch's hello yet still names the old master, which answers as one until it is
    // converted). What it took before the attempt, the promoted replica had (replication in
    // flight aside) unless a fault cut it off from the master and Sentinel failed over on
    // its own (then what the master took from the fault on is Sentinel's loss too). A
    // failover asked for (by the operator, or the shutdown script of a pod the operator
    // deleted) while the replica was behind loses what it lacked: the operator's bug.
    // And a failover that promoted a replica restarted empty while it ran loses every write
    // from before (kun-sim prop --vary-cluster --seed 314: the replica selected was killed
    // and came back without data before SLAVEOF NO ONE reached it).
    if (cause == "unexplained")
      for (const auto& fo : samples_[primary_.name].failovers)
        if (fo.at + splitBrainBound(downAfterMs()) >= l.write.at &&
            (fo.promotedRestarted ||
             (fo.from == l.write.master && (l.write.at + kReplicationInFlight >= fo.began ||
                                            (!fo.requested && cutOffByFault(faults, l.write.at, fo.began)))))) {
          cause = "sentinel-failover";
          break;
        }
    ++report_.writesLost;
    ++report_.lostByCause[cause];
    if (cause == "unexplained")
      violate(inv::kNoUnexplainedWriteLoss,
              fmt::format("{} acknowledged by {} at {} ms is {} on the master, and no fault since explains it", l.key,
                          l.write.master, ms(l.write.at), l.found.empty() ? "missing" : "'" + l.found + "'"));
  }
}

std::vector<std::pair<std::string_view, std::optional<std::string>>> Runner::convergence(const ClusterRef& c) {
  std::vector<std::pair<std::string_view, std::optional<std::string>>> out;
  auto rc = cluster(c);
  if (!rc) return {{inv::kSpecMatches, "RedisCluster " + c.name + " is gone"}};
  const auto viewPtr = w_.observe(*rc);
  const auto& view = *viewPtr;
  const auto& h = healthOf(c, rc, viewPtr);
  out.push_back({inv::kReplicasFollowMaster, checkReplicasFollowMaster(view, h.masterIP)});
  out.push_back({inv::kSentinelsAgree, checkSentinelsAgree(view)});
  out.push_back({inv::kSentinelListsExact, checkSentinelListsExact(*rc, view)});
  out.push_back({inv::kConfigApplied, checkConfigApplied(w_, *rc, view)});
  out.push_back({inv::kSpecMatches, checkSpecMatches(w_, *rc)});
  out.push_back({inv::kStatusTruthful, checkStatusTruthful(*rc, h)});
  return out;
}

void Runner::checkDeleted(const DeletedCluster& d, Duration within) {
  const auto orphans = [&] { return checkNoOrphans(w_, d.ns, d.name, d.keepPvcs); };
  (void)waitUntil([&] { return !orphans(); }, within);
  check(inv::kNoOrphans, orphans());
}

void Runner::liveness() {
  // Every fault has ended: from here the cluster must heal and converge (health, then the
  // objects, the config and the status following it) within the bound.
  const Duration bound = healBound(downAfterMs(), failoverTimeoutMs());
  const TimePoint healedBy = w_.loop().now() + bound;
  progress("liveness: waiting for health");
  const bool healthy = waitUntil([&] { return allHealthy(); }, bound);
  if (!healthy) {
    std::string why;
    (void)evaluate("healthy", why);
    violate(inv::kEventualHealth, fmt::format("not healthy {} ms after the last fault: {}", toMillis(bound), why));
    return;
  }
  held(inv::kEventualHealth);
  // Also: the network has delivered what a loss held back. A backed-off retransmission
  // lands up to minutes late with what it carries (a dead sentinel's hello, re-adding it),
  // and the world is judged, and the quiet window opened, after that.
  const auto converged = [&] {
    if (w_.world().net().delayed() != 0) return false;
    for (const auto& c : clusters_)
      for (const auto& [name, v] : convergence(c))
        if (v) return false;
    return allHealthy();
  };
  (void)waitUntil(converged, std::max(healedBy - w_.loop().now(), Duration(seconds(30))));
  for (const auto& c : clusters_)
    for (const auto& [name, v] : convergence(c)) check(name, v);
  for (const auto& d : deleted_) checkDeleted(d, std::max(healedBy - w_.loop().now(), Duration(seconds(30))));
  // Quiet: a healthy cluster costs the operator nothing but reads. The window opens once the
  // operator has settled (no write for kSettle: its caches may lag the world it just fixed,
  // e.g. after delayed watches; no failed reconcile waiting for its backed-off retry, e.g. a
  // status write refused during an API fault; and its cache of the cluster is the stored
  // one, e.g. not a watch still backing off after an outage with an edit made meanwhile, or
  // with the cluster deleted meanwhile: kun-sim prop --seed 1996 --delete-cluster --minutes 1;
  // and its status says Healthy: the pass that finds it so writes that, and the harness's
  // samples may see it before the operator's next pass does: kun-sim prop --seed 3019
  // --faults api-errors,param-change,operator-restart --minutes 1); an operator that never
  // settles fails here too.
  std::uint64_t api = w_.operatorApiWrites(), redis = w_.operatorRedisWrites();
  TimePoint lastWrite = w_.loop().now();
  const auto reportedHealthy = [&](const ClusterRef& c) {
    const auto rc = w_.cluster(c.ns, c.name);
    return rc && rediscluster::conditionTrue(rc->status, rediscluster::conditions::kHealthy);
  };
  const auto unsettled = [&] {
    for (const auto& c : clusters_)
      if (w_.operatorRetrying(c.ns + "/" + c.name) || w_.operatorBehind(c.ns, c.name) || !reportedHealthy(c))
        return true;
    for (const auto& d : deleted_)
      if (w_.operatorBehind(d.ns, d.name)) return true;
    return false;
  };
  (void)waitUntil(
      [&] {
        if (w_.operatorApiWrites() != api || w_.operatorRedisWrites() != redis || unsettled()) {
          api = w_.operatorApiWrites();
          redis = w_.operatorRedisWrites();
          lastWrite = w_.loop().now();
        }
        return w_.loop().now() - lastWrite >= kSettle;
      },
      o_.quietWindow);
  const auto api0 = w_.operatorApiWrites();
  const auto apiByKind0 = w_.operatorApiWritesByKind();
  const auto redis0 = w_.operatorRedisWrites();
  progress(fmt::format("liveness: healthy; watching the operator for {} s", toMillis(o_.quietWindow) / 1000));
  w_.world().runFor(o_.quietWindow);
  const auto apiWrites = w_.operatorApiWrites() - api0;
  const auto redisWrites = w_.operatorRedisWrites() - redis0;
  if (apiWrites || redisWrites) {
    std::string which;  // "(patch events x2, update secrets x1)"
    for (const auto& [kind, n] : w_.operatorApiWritesByKind()) {
      const auto before = apiByKind0.find(kind);
      const auto in = n - (before == apiByKind0.end() ? 0 : before->second);
      if (in) which += fmt::format("{}{} x{}", which.empty() ? " (" : ", ", kind, in);
    }
    if (!which.empty()) which += ")";
    violate(inv::kOperatorQuiet, fmt::format("{} API writes{} and {} state-changing Redis commands in {} s of health",
                                             apiWrites, which, redisWrites, toMillis(o_.quietWindow) / 1000));
  }
  else held(inv::kOperatorQuiet);
  std::vector<LostWrite> lost;
  if (!keys_->readAll(o_.writeTimeout, lost)) {
    violate(inv::kEventualHealth, "the master could not be read at the end");
    return;
  }
  classifyLosses(lost);
  if (report_.invariants[std::string(inv::kNoUnexplainedWriteLoss)].state != InvariantOutcome::State::Violated)
    held(inv::kNoUnexplainedWriteLoss);
}

void Runner::finishReport(std::chrono::steady_clock::time_point wallStart) {
  report_.scenario = s_.name;
  report_.file = s_.file;
  report_.seed = seed_;
  report_.traceHash = w_.world().trace().hashHex();
  report_.virtualSeconds = ms(w_.loop().now()) / 1000.0;
  report_.simEvents = w_.loop().eventsRun();
  report_.wallSeconds =
      std::chrono::duration<double>(std::chrono::steady_clock::now() - wallStart).count();  // wall-clock ok: the report's wall_seconds
  report_.writesAcknowledged = keys_ ? static_cast<std::int64_t>(keys_->acknowledged()) : 0;
  report_.operatorApiWrites = static_cast<std::int64_t>(w_.operatorApiWrites());
  report_.operatorRedisWrites = static_cast<std::int64_t>(w_.operatorRedisWrites());
  report_.operatorRestarts = w_.operatorRestarts();
  report_.reproduce = fmt::format("{} --seed {}", o_.command.empty() ? "kun-sim run " + s_.file : o_.command, seed_);
  const auto& health = primary_.name.empty() ? ClusterSamples{} : samples_[primary_.name];
  for (const auto& f : allFaults()) {
    FaultOutcome out;
    out.kind = std::string(chaos::faultKindName(f.fault.kind));
    out.description = chaos::describeFault(f.fault);
    out.detail = f.detail;
    out.atMs = ms(f.began);
    if (f.ended) out.endMs = ms(*f.ended);
    out.applied = f.applied;
    report_.faults.push_back(out);
    if (!f.applied) continue;
    // Time to healthy: from the fault's end to the first healthy sample that follows an
    // unhealthy one (zero when the fault never made the cluster unhealthy).
    Recovery rec;
    rec.fault = out.description;
    const TimePoint from = f.ended.value_or(f.began);
    rec.fromMs = ms(from);
    bool sawUnhealthy = false;
    bool healthyAtFrom = false;
    for (const auto& [t, healthy] : health.healthChanges) {
      if (t <= from) {
        healthyAtFrom = healthy;
        continue;
      }
      if (!healthy) sawUnhealthy = true;
      else if (sawUnhealthy || !healthyAtFrom) {
        rec.healthyMs = ms(t) - rec.fromMs;
        break;
      }
    }
    if (!rec.healthyMs && healthyAtFrom && !sawUnhealthy) rec.healthyMs = 0;
    report_.recoveries.push_back(rec);
  }
  for (const auto& i : invariantCatalog()) (void)report_.invariants[std::string(i.name)];
}

RunResult Runner::run() {
  wallStart_ = std::chrono::steady_clock::now();  // wall-clock ok: measures the run, never read by it
  w_.loop().setStallLimit(o_.stallEvents);
  try {
    return runToEnd();
  } catch (const SimStalled& e) {
    report_.fail(FailureClass::Liveness, e.what());
    return finish();
  }
}

RunResult Runner::finish() {
  sampling_ = false;
  if (sampler_) w_.loop().cancel(sampler_);
  if (timeline_) timeline_->stop();
  finishReport(wallStart_);
  RunResult result;
  result.report = report_;
  result.viewCache = w_.viewCacheCheck();
  if (timeline_) result.timeline = timeline_->timeline(fmt::format("{} (seed {})", s_.name, seed_));
  if (o_.trace) result.trace = w_.world().trace().entries();
  return result;
}

RunResult Runner::runToEnd() {
  start_ = w_.loop().now();
  for (const auto& m : s_.manifests) {
    auto r = w_.apply(m);
    if (!r) {
      report_.fail(FailureClass::BadInput, fmt::format("{}: manifest {}: {}", s_.file, meta::name(m), r.error().toString()));
      return finish();
    }
    if (m.value("kind", "") == "RedisCluster")
      clusters_.push_back({m["metadata"].value("namespace", "default"), meta::name(m)});
  }
  if (clusters_.empty()) {
    report_.fail(FailureClass::BadInput, s_.file + ": manifests: expected at least one RedisCluster");
    return finish();
  }
  primary_ = clusters_.front();
  w_.setFaultCluster(primary_.ns, primary_.name);
  keys_ = std::make_unique<KeyClient>(w_, primary_.ns, primary_.name, [this] {
    auto rc = cluster(primary_);
    return rc ? rc->spec.password : std::string();
  });
  if (o_.timeline) {
    timeline_ = std::make_unique<TimelineRecorder>(w_.loop(), w_.targets(), w_.world().redis(), [this] {
      auto rc = cluster(primary_);
      return rc && w_.health(*rc).healthy;
    });
    timeline_->start();
  }
  armSampler();
  progress(fmt::format("{}: seed {}, waiting for the first health", s_.name, seed_));
  std::string rejected;  // a manifest the operator refused: the scenario is at fault, not it
  if (!waitUntil([&] { return allHealthy() || !(rejected = rejectedSpec()).empty(); }, o_.firstHealthTimeout) ||
      !rejected.empty()) {
    if (!rejected.empty()) {
      report_.fail(FailureClass::BadInput, fmt::format("{}: manifests: {}", where(), rejected));
      return finish();
    }
    std::string why;
    (void)evaluate("healthy", why);
    violate(inv::kEventualHealth, fmt::format("never healthy within {} s of creation: {}",
                                              toMillis(o_.firstHealthTimeout) / 1000, why));
    return finish();
  }
  if (auto rc = cluster(clusters_.front())) firstMaster_ = healthOf(clusters_.front(), rc).masterIP;
  progress("healthy; master " + firstMaster_);
  schedule_ = std::make_unique<chaos::ScheduleRunner>(w_.loop(), w_.injector(), s_.schedule);
  schedule_->setBeforeBegin([this](const chaos::Fault& f) { beforeFault(f); });
  schedule_->setListener([this](const chaos::FaultRecord& r) {
    onFaultRecord(r);
    progress(fmt::format("schedule: {}: {}", chaos::describeFault(r.fault), r.detail));
  });
  schedule_->start();
  for (std::size_t i = 0; i < s_.steps.size(); ++i) {
    const Step& st = s_.steps[i];
    StepOutcome out;
    out.line = st.line;
    out.kind = std::string(stepKindName(st.kind));
    out.atMs = ms(w_.loop().now());
    out.ok = runStep(st, out);
    progress(fmt::format("step {} (line {}) {}: {}", i + 1, st.line, out.kind, out.detail));
    report_.steps.push_back(out);
    if (!out.ok || report_.failure == FailureClass::BadInput) return finish();
  }
  // The schedule may outlast the steps.
  waitUntil([&] { return faultsEnded(); }, s_.schedule.lastEnd() + minutes(10));
  if (!faultsEnded()) {
    report_.fail(FailureClass::Crash, "faults did not end");
    return finish();
  }
  liveness();
  return finish();
}

}  // namespace

RunResult runScenario(const Scenario& s, const RunOptions& opts) {
  Runner r(s, opts);
  return r.run();
}

}  // namespace kun::scenario
