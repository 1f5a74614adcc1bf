#include "core/rediscluster/reconciler.h"

#include <algorithm>
#include <utility>

#include <fmt/format.h>

#include "core/api/object_ptr.h"
#include "core/api/redis_cluster_defaults.h"
#include "core/api/redis_cluster_status_write.h"
#include "core/api/redis_cluster_validation.h"
#include "core/kube/selector.h"
#include "core/rediscluster/cluster_phase.h"
#include "core/rediscluster/ensure.h"
#include "core/rediscluster/labels.h"
#include "core/rediscluster/names.h"
#include "core/rediscluster/passwords.h"
#include "core/rediscluster/status.h"

namespace kun::rediscluster {

namespace {

std::pair<std::string, std::string> splitKey(const std::string& key) {
  const auto slash = key.find('/');
  if (slash == std::string::npos) return {"", key};
  return {key.substr(0, slash), key.substr(slash + 1)};
}

// Errors that a later pass resolves by itself (a stale cache, a busy or unreachable API
// server): a Warning Event and a retry, but not condition Failed.
bool transient(Reason r) {
  switch (r) {
    case Reason::Conflict:
    case Reason::AlreadyExists:
    case Reason::NotFound:
    case Reason::Unavailable:
    case Reason::Timeout:
    case Reason::TooManyRequests:
      return true;
    default:
      return false;
  }
}

// A new list of pods and their PodInfo (in list order) replaces the kept ones; returns the
// PodInfo in ordinal order. A pod object also in the kept list keeps its PodInfo (a
// function of the object alone): one pod changing re-reads that pod only.
std::vector<PodInfo> podInfos(std::vector<ObjectPtr> pods, std::vector<ObjectPtr>& keptPods,
                              std::vector<PodInfo>& keptInfos) {
  std::vector<PodInfo> infos;
  infos.reserve(pods.size());
  for (const auto& p : pods) {
    const auto at = std::find(keptPods.begin(), keptPods.end(), p);
    infos.push_back(at != keptPods.end() ? keptInfos[static_cast<std::size_t>(at - keptPods.begin())] : podInfoFrom(*p));
  }
  keptPods = std::move(pods);
  keptInfos = std::move(infos);
  std::vector<PodInfo> out = keptInfos;
  // The cache sorts by name, which puts -10 before -2.
  std::stable_sort(out.begin(), out.end(), [](const PodInfo& a, const PodInfo& b) { return a.ordinal < b.ordinal; });
  return out;
}

std::string stringAt(const Object& o, std::initializer_list<const char*> path) {
  const Object* at = &o;
  for (const char* k : path) {
    auto it = at->find(k);
    if (it == at->end()) return {};
    at = &*it;
  }
  return at->is_string() ? at->get<std::string>() : std::string();
}

void bump(std::atomic<std::uint64_t>& counter, std::uint64_t n = 1) { counter.fetch_add(n, std::memory_order_relaxed); }

}  // namespace

Reconciler::Reconciler(ReconcilerSeams seams, const ClusterInformers& caches, ReconcilerOptions opts, RedisSteps steps)
    : seams_(std::move(seams)), caches_(caches), opts_(std::move(opts)), steps_(std::move(steps)) {}

void Reconciler::event(const Object& involved, EventType type, std::string_view reason, std::string_view message,
                       const std::vector<std::string>& secrets) {
  const std::string text = redact(message, secrets);
  // In the run's trace too: what the operator tells the user is how a run is read back.
  if (seams_.trace)
    seams_.trace->record(seams_.loop.now(), "reconciler",
                         fmt::format("{}: event {} {}: {}", meta::key(involved), eventTypeName(type), reason, text));
  seams_.events.record(involved, type, reason, text);
}

ReconcilerStats Reconciler::stats() const {
  auto get = [](const std::atomic<std::uint64_t>& c) { return c.load(std::memory_order_relaxed); };
  return ReconcilerStats{get(stats_.reconciles),   get(stats_.invalid),     get(stats_.statusWrites),
                         get(stats_.objectWrites), get(stats_.healActions), get(stats_.failures)};
}

std::size_t Reconciler::clustersRemembered() const {
  std::lock_guard lock(statesMu_);
  return states_.size();
}

Result<bool> Reconciler::writeStatus(const api::RedisCluster& stored, const api::RedisClusterStatus& next) {
  auto wrote = writeStatusIfChanged(seams_.kube, stored, next);
  if (wrote && *wrote) bump(stats_.statusWrites);
  if (!wrote && seams_.trace)
    seams_.trace->record(seams_.loop.now(), "reconciler",
                         meta::key(*stored.original) + ": status not written: " + wrote.error().toString());
  return wrote;
}

bool Reconciler::goneFromServer(const Object& stored) {
  auto got = seams_.kube.get(res::redisclusters, meta::namespaceOf(stored), meta::name(stored));
  if (got) return meta::uid(*got) != meta::uid(stored);
  return got.error().reason == Reason::NotFound;
}

// Only the map is locked: the entry returned is the caller's (the key's reconcile) until
// that same reconcile forgets it. A name that now belongs to another cluster (another uid)
// starts afresh: nothing remembered of the old one applies.
Reconciler::ClusterState& Reconciler::stateOf(const std::string& key, const std::string& uid) {
  std::string stale;
  ClusterState* state = nullptr;
  {
    std::lock_guard lock(statesMu_);
    auto [it, fresh] = states_.try_emplace(key);
    if (!fresh && it->second.uid != uid) {
      stale = std::move(it->second.uid);
      states_.erase(it);
      it = states_.try_emplace(key).first;
      fresh = true;
    }
    if (fresh) it->second.uid = uid;
    state = &it->second;
  }
  if (!stale.empty()) desired_.forget(stale);
  return *state;
}

void Reconciler::forget(const std::string& key) {
  std::string uid;
  {
    std::lock_guard lock(statesMu_);
    auto it = states_.find(key);
    if (it == states_.end()) return;
    uid = std::move(it->second.uid);
    states_.erase(it);
  }
  desired_.forget(uid);
}

ReconcileResult Reconciler::reconcile(const std::string& key) {
  bump(stats_.reconciles);
  const auto [ns, name] = splitKey(key);
  ObjectPtr stored = caches_.clusters().get(ns, name);
  if (!stored) {
    forget(key);
    reportHealth(key, std::nullopt);
    return ReconcileResult::done();  // deleted: garbage collection removes what it owned
  }
  if (!manages(opts_.scope, *stored) || meta::isDeleting(*stored)) {
    reportHealth(key, std::nullopt);  // not this operator's (any more), or going away
    return ReconcileResult::done();
  }
  ClusterState& state = stateOf(key, meta::uid(*stored));

  ClusterMemo& memo = state.memo;
  const bool accepted = memo.stored != nullptr;  // memo.parsed holds a spec in force
  if (memo.stored != stored) {
    const ObjectPtr before = std::exchange(memo.stored, nullptr);
    // The operator's own status write: the spec that parsed and validated is the same.
    if (before && api::onlyStatusWritten(*before, *stored)) {
      if (auto status = api::parseStoredStatus(stored)) {
        api::takeStatusWrite(memo.defaulted, *status, stored);
        api::takeStatusWrite(memo.parsed, std::move(*status), stored);
        memo.stored = stored;
      }
    }
  }
  if (memo.stored != stored) {
    auto parsed = api::parseRedisCluster(stored);
    std::string problem;
    if (!parsed) {
      problem = api::formatFieldError(parsed.error());
    } else if (const std::vector<Error> problems = api::validateRedisCluster(*parsed); !problems.empty()) {
      problem = api::formatFieldErrors(problems);
    }
    if (!problem.empty()) {
      const std::string text = noteInvalid(*stored, state, parsed ? &*parsed : nullptr, problem);
      // Accepted before (by this process, or by one before it: status.acceptedSpec): the
      // cluster keeps being healed under the spec last accepted (a typo in an edit must
      // not switch failover handling off), its status written to the current object,
      // observedGeneration staying at the accepted generation. Never accepted: nothing to
      // run it by.
      // The accepted spec's password is the auth Secret's: until that cache is synced it is
      // not known, and a spec adopted without it would change every node's password to none.
      if (!accepted && !caches_.live().synced(res::secrets))
        return ReconcileResult::failed(
            makeError(Reason::Unavailable, "the cache of secrets is not synced yet: the password in force is not known"));
      if (!accepted && !adoptAcceptedSpec(*stored, memo)) return rejectInvalid(*stored, parsed ? &*parsed : nullptr, text);
      auto status = api::parseStoredStatus(stored);
      if (!status) return rejectInvalid(*stored, parsed ? &*parsed : nullptr, text);
      api::takeStatusWrite(memo.defaulted, *status, stored);
      api::takeStatusWrite(memo.parsed, std::move(*status), stored);
      memo.stored = stored;
    } else {
      state.rejected.reset();
      memo.defaulted = api::withDefaults(*parsed);
      memo.parsed = std::move(*parsed);
      memo.stored = stored;
    }
  }
  return reconcileValid(*stored, state);
}

api::Original Reconciler::acceptedSpecOf(const api::RedisCluster& accepted, ClusterMemo& memo) const {
  if (!accepted.spec.original) return nullptr;
  if (memo.acceptedSpec.first != accepted.spec.original) {
    Object spec = *accepted.spec.original;
    if (spec.is_object()) spec.erase("password");  // status is read more widely than spec
    memo.acceptedSpec = {accepted.spec.original, std::make_shared<const Object>(std::move(spec))};
  }
  return memo.acceptedSpec.second;
}

bool Reconciler::adoptAcceptedSpec(const Object& stored, ClusterMemo& memo) const {
  auto status = stored.find("status");
  if (status == stored.end() || !status->is_object()) return false;
  auto spec = status->find("acceptedSpec");
  auto generation = status->find("observedGeneration");
  if (spec == status->end() || !spec->is_object() || generation == status->end() || !generation->is_number_integer())
    return false;
  Object then = stored;
  then["spec"] = *spec;
  then["metadata"]["generation"] = *generation;
  // The password is not in the status (acceptedSpecOf): the auth Secret holds the one in force.
  const std::string& password = authPasswords(meta::namespaceOf(stored), meta::name(stored), memo).current;
  if (!password.empty()) then["spec"]["password"] = password;
  auto parsed = api::parseRedisCluster(then);
  if (!parsed || !api::validateRedisCluster(*parsed).empty()) return false;
  memo.defaulted = api::withDefaults(*parsed);
  memo.parsed = std::move(*parsed);
  return true;
}

std::string Reconciler::noteInvalid(const Object& stored, ClusterState& state, const api::RedisCluster* parsed,
                                    const std::string& message) {
  bump(stats_.invalid);
  // The password may be what is wrong (a newline in it): never echo it.
  std::vector<std::string> secrets;
  if (parsed) secrets.push_back(parsed->spec.password);
  if (auto spec = stored.find("spec"); spec != stored.end() && spec->is_object()) {
    auto pw = spec->find("password");
    if (pw != spec->end() && pw->is_string()) secrets.push_back(pw->get<std::string>());
  }
  std::string text = redact(message, secrets);
  seams_.log.warn("invalid RedisCluster spec; not applied", {{"cluster", meta::key(stored)}, {"problems", text}});
  std::pair<std::int64_t, std::string> rejected{meta::generation(stored), text};
  if (state.rejected != rejected) {
    // Told already by an operator before a restart: the status says so.
    const auto st = stored.find("status");
    const auto status = st != stored.end() ? api::parseRedisClusterStatus(*st)
                                           : Result<api::RedisClusterStatus>(api::RedisClusterStatus{});
    const auto* failed = status ? api::findCondition(*status, conditions::kFailed) : nullptr;
    const bool told = failed && failed->status == "True" && failed->reason == "InvalidSpec" && failed->message == text;
    if (!told) event(stored, EventType::Warning, "InvalidSpec", text, secrets);
    state.rejected = std::move(rejected);
  }
  return text;
}

ReconcileResult Reconciler::rejectInvalid(const Object& stored, const api::RedisCluster* parsed,
                                          const std::string& text) {
  reportHealth(meta::key(stored), false);

  // The status is written from the stored object even when the spec did not parse.
  api::RedisCluster current;
  if (parsed) {
    current = *parsed;
  } else {
    current.metadata = stored.value("metadata", Object::object());
    current.original = shareObject(stored);
    if (auto st = stored.find("status"); st != stored.end() && st->is_object())
      if (auto s = api::parseRedisClusterStatus(*st)) current.status = *s;
  }
  StatusReport report;
  report.failed = true;
  report.failedReason = "InvalidSpec";
  report.failedMessage = text;
  report.observedGeneration = meta::generation(stored);
  const auto next = nextStatus(current.status, report, formatRfc3339(seams_.loop.wallMicros()));
  auto wrote = writeStatus(current, next);
  if (!wrote) return ReconcileResult::failed(wrote.error());
  return ReconcileResult::done();  // the next spec change queues it again
}

const ClusterPods& Reconciler::podsOf(const std::string& ns, const std::string& name, ClusterMemo& memo) const {
  if (memo.redisSelector.empty()) {
    memo.redisSelector = LabelSelector::fromMap(selectorLabels(name, Component::Redis));
    memo.sentinelSelector = LabelSelector::fromMap(selectorLabels(name, Component::Sentinel));
  }
  const std::uint64_t changes = caches_.pods().changes();
  if (memo.podCacheChanges == changes) return memo.pods;  // the lists would be the same
  memo.podCacheChanges = changes;
  // The same pod objects as last time: the same PodInfo.
  auto redis = caches_.pods().list(ns, memo.redisSelector);
  if (redis != memo.redisPods) memo.pods.redis = podInfos(std::move(redis), memo.redisPods, memo.redisInfos);
  auto sentinels = caches_.pods().list(ns, memo.sentinelSelector);
  if (sentinels != memo.sentinelPods)
    memo.pods.sentinels = podInfos(std::move(sentinels), memo.sentinelPods, memo.sentinelInfos);
  return memo.pods;
}

const std::string& Reconciler::sentinelServiceIP(const std::string& ns, const std::string& name,
                                                 ClusterMemo& memo) const {
  const std::uint64_t changes = caches_.services().changes();  // before reading
  if (memo.sentinelServiceIP && memo.sentinelServiceIP->first == changes) return memo.sentinelServiceIP->second;
  std::string ip;
  if (ObjectPtr svc = caches_.services().get(ns, names::sentinel(name))) {
    ip = stringAt(*svc, {"spec", "clusterIP"});
    if (ip == "None") ip.clear();
  }
  memo.sentinelServiceIP.emplace(changes, std::move(ip));
  return memo.sentinelServiceIP->second;
}

std::int32_t Reconciler::liveReplicas(const std::string& ns, const std::string& stsName) const {
  ObjectPtr sts = caches_.statefulsets().get(ns, stsName);
  if (!sts) return -1;
  auto spec = sts->find("spec");
  if (spec == sts->end()) return -1;
  auto r = spec->find("replicas");
  return r != spec->end() && r->is_number_integer() ? r->get<std::int32_t>() : 1;
}

const ClusterMemo::StatefulSetFacts& Reconciler::statefulSetFacts(const std::string& ns, const std::string& name,
                                                                  ClusterMemo& memo) const {
  const std::uint64_t changes = caches_.statefulsets().changes();  // before reading
  if (memo.statefulsets && memo.statefulsets->changes == changes) return *memo.statefulsets;
  memo.statefulsets = ClusterMemo::StatefulSetFacts{changes, rolloutOf(ns, name), liveReplicas(ns, names::redis(name)),
                                                    liveReplicas(ns, names::sentinel(name))};
  return *memo.statefulsets;
}

const SecretPasswords& Reconciler::authPasswords(const std::string& ns, const std::string& name,
                                                 ClusterMemo& memo) const {
  ObjectPtr secret = authSecret(caches_.live(), ns, name);
  if (secret != memo.authPasswords.secret) memo.authPasswords = passwordsIn(std::move(secret));
  return memo.authPasswords;
}

RolloutView Reconciler::rolloutOf(const std::string& ns, const std::string& name) const {
  auto one = [&](const std::string& stsName, std::string& revision, bool& observed) {
    ObjectPtr sts = caches_.statefulsets().get(ns, stsName);
    if (!sts) return;
    revision = stringAt(*sts, {"status", "updateRevision"});
    std::int64_t seen = -1;
    if (auto st = sts->find("status"); st != sts->end() && st->is_object())
      if (auto g = st->find("observedGeneration"); g != st->end() && g->is_number_integer()) seen = g->get<std::int64_t>();
    observed = seen >= meta::generation(*sts);
  };
  RolloutView r;
  one(names::redis(name), r.redisUpdateRevision, r.redisObserved);
  one(names::sentinel(name), r.sentinelUpdateRevision, r.sentinelObserved);
  return r;
}

HealReport Reconciler::healRedis(const Object& stored, const api::RedisCluster& rc, const ClusterView& view,
                                 const std::vector<std::string>& passwords, const std::string& ns, const std::string& name,
                                 ClusterState& state, ClusterMemo& memo, bool objectsEnsured) {
  // The redis StatefulSet's update revision, as rolloutOf reads it (read again: Ensure may
  // have written since).
  HealContext ctx{seams_.redis, seams_.kube, rc, view, passwords,
                  statefulSetFacts(ns, name, memo).rollout.redisUpdateRevision, opts_.heal,
                  &state.configChecks, seams_.loop.now(), &state.failoverSeen, &state.authPassOwed, objectsEnsured};
  ctx.authPassResent = &state.authPassResent;
  HealReport healed = steps_.heal(ctx);
  bump(stats_.healActions, healed.actions.size());
  for (const auto& a : healed.actions) {
    event(stored, EventType::Normal, "Healed", a, passwords);
    if (seams_.trace) seams_.trace->record(seams_.loop.now(), "reconciler", meta::key(stored) + ": " + redact(a, passwords));
  }
  for (const auto& w : healed.waits) {
    if (std::find(memo.waits.begin(), memo.waits.end(), w) != memo.waits.end()) continue;  // still waiting
    event(stored, EventType::Normal, "Waiting", w, passwords);
    if (seams_.trace) seams_.trace->record(seams_.loop.now(), "reconciler", meta::key(stored) + ": " + redact(w, passwords));
  }
  memo.waits = healed.waits;
  return healed;
}

ReconcileResult Reconciler::reconcileValid(const Object& stored, ClusterState& state) {
  // A failed write (Ensure, the status) backs off as any failure, unless Redis is being
  // healed: two masters left by a partition must not wait out a back-off grown through a
  // long API outage (kun-sim prop --seed 611); the pass comes back at the heal's pace. A
  // server's Retry-After still rules.
  const auto failedWhileHealing = [this](const Error& e, bool healing) {
    if (healing && e.retryAfterSeconds <= 0) return ReconcileResult::requeueAfter(opts_.heal.requeueAfter);
    return ReconcileResult::failed(e);
  };
  ClusterMemo& memo = state.memo;
  const api::RedisCluster& parsed = memo.parsed;
  const api::RedisCluster& rc = memo.defaulted;
  const std::string ns = rc.namespaceOf();
  const std::string name = rc.name();

  Passwords& pw = state.passwords;
  if (pw.current != rc.spec.password) {
    pw.previous = pw.current;
    pw.current = rc.spec.password;
  }
  const std::vector<std::string> passwords = candidatePasswords(rc, authPasswords(ns, name, memo), pw.previous);

  // A pod cache that has not listed yet (an operator restarted while the API server fails)
  // holds no pods: judged from it, a healthy cluster has "no redis pod answering", and that
  // would be written into its status. Nothing can be healed without the pods either.
  if (!caches_.pods().synced())
    return ReconcileResult::failed(makeError(Reason::Unavailable, "the cache of pods is not synced yet"));
  const ClusterPods& pods = podsOf(ns, name, memo);
  ClusterView view = steps_.observe(seams_.redis, pods, passwords);
  view.rollout = statefulSetFacts(ns, name, memo).rollout;

  GenerateOptions gen;
  gen.pdbVersion = opts_.pdbVersion;
  gen.previousPassword = passwordToKeep(rc, view, authPasswords(ns, name, memo), passwords);
  const std::int32_t keep = steps_.replicasToKeep(rc, view);
  if (keep != rc.spec.size) gen.redisReplicas = keep;
  const auto desired = desired_.get(parsed, gen);

  Ensurer ensurer(seams_.kube, caches_.live());
  const EnsureOutcome ensured = ensurer.ensure(desired, memo.ensure);
  bump(stats_.objectWrites, static_cast<std::uint64_t>(ensured.report.writes()));
  for (const auto& a : ensured.report.actions) {
    event(stored, EventType::Normal, a.rfind("create", 0) == 0 ? "Created" : "Updated", a, passwords);
    if (seams_.trace) seams_.trace->record(seams_.loop.now(), "reconciler", meta::key(stored) + ": " + a);
  }
  if (!ensured.ok()) {
    bump(stats_.failures);
    const Error& e = ensured.status.error();
    event(stored, EventType::Warning, "EnsureFailed", e.message, passwords);
    seams_.log.warn("ensure failed", {{"cluster", meta::key(stored)}, {"error", redact(e.toString(), passwords)}});
    // Redis needs no API server: two masters after a partition, a replica of a dead
    // address, must not wait out an API outage or a refused object. Healed, then retried
    // for the objects.
    const HealReport healing = healRedis(stored, rc, view, passwords, ns, name, state, memo, false);
    if (!transient(e.reason)) {
      StatusReport report;
      report.failed = true;
      report.failedReason = "EnsureFailed";
      report.failedMessage = redact(e.message, passwords);
      report.observedGeneration = rc.generation();
      // The spec being applied is in force (it validated), whatever refused its objects:
      // written with its generation, so that an operator after this one, finding the
      // spec invalid by then, keeps to it rather than to the one before (kun-sim prop
      // --seed 2257 --minutes 1: a size change never written as accepted was undone).
      auto next = nextStatus(parsed.status, report, memo.statusTime.at(seams_.loop.wallMicros()));
      next.acceptedSpec = acceptedSpecOf(parsed, memo);
      (void)writeStatus(parsed, next);
    }
    return failedWhileHealing(e, healing.requeueAfter.has_value() || !healing.actions.empty());
  }

  const HealReport healed = healRedis(stored, rc, view, passwords, ns, name, state, memo, true);
  const Health health = steps_.assess(rc, view);

  const auto& sts = statefulSetFacts(ns, name, memo);
  const PhaseDecision phase = decidePhase(PhaseInput{rc, health, healed, ensured.report.updated, ensured.report.created,
                                                     sts.redisReplicas, sts.sentinelReplicas});
  StatusReport report;
  report.phase = phase.phase;
  report.reason = phase.reason;
  report.message = redact(phase.message, passwords);
  if (!healed.status.ok()) {
    report.failed = true;
    report.failedReason = "HealFailed";
    report.failedMessage = redact(healed.status.error().message, passwords);
  } else if (state.rejected) {
    report.failed = true;
    report.failedReason = "InvalidSpec";
    report.failedMessage = state.rejected->second;  // redacted by noteInvalid
  }
  if (!health.masterIP.empty()) report.masterIP = health.masterIP;
  if (const std::string& ip = sentinelServiceIP(ns, name, memo); !ip.empty()) report.sentinelIP = ip;
  report.observedGeneration = rc.generation();

  const bool wasHealthy = conditionTrue(parsed.status, conditions::kHealthy);
  Result<bool> wrote = false;
  if (memo.statusUnchangedFor != memo.stored || !(memo.statusReport == report)) {
    memo.statusUnchangedFor = nullptr;
    auto next = nextStatus(parsed.status, report, memo.statusTime.at(seams_.loop.wallMicros()));
    next.acceptedSpec = acceptedSpecOf(parsed, memo);
    wrote = writeStatus(parsed, next);
    // Unchanged, or written: either way this report needs no write over this cached
    // object again. Written, the cache normally brings the object back at once (a new
    // one); while its watch is broken it does not, and writing the same report over the
    // stale object again would only meet a conflict, pass after pass (kun-sim prop --seed
    // 436).
    if (wrote) {
      memo.statusUnchangedFor = memo.stored;
      memo.statusReport = report;
    }
  }
  const bool isHealthy = phase.phase == ClusterPhase::Healthy;
  reportHealth(meta::key(stored), isHealthy);
  // A transition is announced once the status saying so is written: a write refused for a
  // stale cache is retried, and each retry would announce it again.
  const bool written = wrote && *wrote;  // not when found unchanged, or already written
  if (written && isHealthy && !wasHealthy) event(stored, EventType::Normal, "Healthy", report.message, passwords);
  if (written && !isHealthy && wasHealthy) event(stored, EventType::Warning, "Unhealthy", report.message, passwords);

  if (!healed.status.ok()) {
    bump(stats_.failures);
    event(stored, EventType::Warning, "HealFailed", healed.status.error().message, passwords);
    return ReconcileResult::failed(healed.status.error());
  }
  // Gone from the API server while the cache still holds it (its watch broken, the relist
  // not done yet): nothing is left to heal or report, and a pass at the heal's pace would
  // only write into nothing until the cache catches up (kun-sim prop --seed 1996
  // --delete-cluster --minutes 1). The server is asked: a CRD without the status
  // subresource answers a status write NotFound too.
  if (!wrote && wrote.error().reason == Reason::NotFound && goneFromServer(stored)) return ReconcileResult::done();
  if (!wrote) return failedWhileHealing(wrote.error(), !isHealthy || healed.requeueAfter.has_value());
  if (healed.requeueAfter) return ReconcileResult::requeueAfter(*healed.requeueAfter);
  if (!isHealthy) return ReconcileResult::requeueAfter(opts_.heal.requeueAfter);
  return ReconcileResult::requeueAfter(opts_.healthyRecheck);
}

}  // namespace kun::rediscluster
