#include "core/controller/leader_election.h"

#include <fmt/format.h>

#include "core/kube/resource.h"
#include "core/runtime/time.h"

namespace kun {

namespace {

std::string stringField(const Object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::int64_t intField(const Object& o, const char* key) {
  auto it = o.find(key);
  return it != o.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

std::int64_t wholeSeconds(Duration d) { return std::chrono::duration_cast<seconds>(d).count(); }

}  // namespace

LeaseRecord leaseRecordOf(const Object& lease) {
  LeaseRecord r;
  auto spec = lease.find("spec");
  if (spec == lease.end() || !spec->is_object()) return r;
  r.holderIdentity = stringField(*spec, "holderIdentity");
  r.leaseDurationSeconds = intField(*spec, "leaseDurationSeconds");
  r.acquireTime = stringField(*spec, "acquireTime");
  r.renewTime = stringField(*spec, "renewTime");
  r.leaseTransitions = intField(*spec, "leaseTransitions");
  return r;
}

Object leaseSpecOf(const LeaseRecord& r) {
  Object spec = Object::object();
  if (!r.holderIdentity.empty()) spec["holderIdentity"] = r.holderIdentity;
  spec["leaseDurationSeconds"] = r.leaseDurationSeconds;
  if (!r.acquireTime.empty()) spec["acquireTime"] = r.acquireTime;
  if (!r.renewTime.empty()) spec["renewTime"] = r.renewTime;
  spec["leaseTransitions"] = r.leaseTransitions;
  return spec;
}

Status validateLeaderElectionOptions(const LeaderElectionOptions& o) {
  if (o.identity.empty()) return makeError(Reason::Invalid, "leader election needs an identity", "identity");
  if (o.leaseName.empty()) return makeError(Reason::Invalid, "leader election needs a lease name", "leaseName");
  if (o.retryPeriod <= Duration::zero())
    return makeError(Reason::Invalid, "retryPeriod must be positive", "retryPeriod");
  if (o.renewDeadline <= o.retryPeriod)
    return makeError(Reason::Invalid, "renewDeadline must be longer than retryPeriod", "renewDeadline");
  if (o.leaseDuration <= o.renewDeadline)
    return makeError(Reason::Invalid, "leaseDuration must be longer than renewDeadline", "leaseDuration");
  if (wholeSeconds(o.leaseDuration) < 1)
    return makeError(Reason::Invalid, "leaseDuration must be at least 1s", "leaseDuration");
  return {};
}

LeaderElector::LeaderElector(KubeClient& client, EventLoop& loop, LeaderElectionOptions opts, Logger log,
                             Random* random, Trace* trace)
    : client_(client), loop_(loop), opts_(std::move(opts)), log_(std::move(log)), random_(random), trace_(trace) {}

LeaderElector::~LeaderElector() {
  loop_.cancel(attemptTimer_);
  loop_.cancel(deadlineTimer_);
}

void LeaderElector::start() {
  if (running_) return;
  running_ = true;
  scheduleAttempt(Duration::zero());
}

void LeaderElector::stop() {
  if (!running_) return;
  running_ = false;
  loop_.cancel(attemptTimer_);
  attemptTimer_ = 0;
  if (!leading_) return;
  const bool stillHeld = isLeader();
  loseLeadership("stopped");
  if (!stillHeld) return;  // lapsed: someone may hold it already; never write it then
  auto got = client_.get(res::leases, opts_.leaseNamespace, opts_.leaseName);
  if (!got) return;
  Object lease = std::move(got).value();
  LeaseRecord r = leaseRecordOf(lease);
  if (r.holderIdentity != opts_.identity) return;
  r.holderIdentity.clear();
  r.leaseDurationSeconds = 1;
  r.renewTime = r.acquireTime = nowMicroTime();
  lease["spec"] = leaseSpecOf(r);
  if (client_.update(res::leases, lease)) note("released");
}

bool LeaderElector::isLeader() const {
  return leading_.load() && loop_.now() < lastRenew_.load() + opts_.renewDeadline;
}

std::string LeaderElector::nowMicroTime() const {
  // MicroTime: RFC 3339 with six fractional digits.
  const std::int64_t us = loop_.wallMicros();
  std::string s = formatRfc3339(us - us % 1000000);
  s.insert(s.size() - 1, fmt::format(".{:06d}", us % 1000000));
  return s;
}

void LeaderElector::note(std::string_view text) {
  const std::string line = fmt::format("lease {}/{} {}: {}", opts_.leaseNamespace, opts_.leaseName, opts_.identity, text);
  log_.info(line);
  if (trace_) trace_->record(loop_.now(), "leader-election", line);
}

void LeaderElector::observe(const LeaseRecord& r) {
  if (r == observed_) return;
  const bool holderChanged = r.holderIdentity != observed_.holderIdentity;
  observed_ = r;
  observedTime_ = loop_.now();
  if (holderChanged && opts_.onNewLeader) opts_.onNewLeader(r.holderIdentity);
}

bool LeaderElector::tryAcquireOrRenew() {
  ++attempts_;
  LeaseRecord mine;
  mine.holderIdentity = opts_.identity;
  mine.leaseDurationSeconds = wholeSeconds(opts_.leaseDuration);
  mine.renewTime = nowMicroTime();

  auto got = client_.get(res::leases, opts_.leaseNamespace, opts_.leaseName);
  if (!got) {
    if (!got.is(Reason::NotFound)) {
      log_.warn("cannot read the lease", {{"error", got.error().toString()}});
      return false;
    }
    mine.acquireTime = mine.renewTime;
    Object lease = {{"apiVersion", res::leases.apiVersion()},
                    {"kind", res::leases.kind},
                    {"metadata", {{"name", opts_.leaseName}, {"namespace", opts_.leaseNamespace}}},
                    {"spec", leaseSpecOf(mine)}};
    auto made = client_.create(res::leases, lease);
    if (!made) return false;  // another candidate created it first: observe it next time
    observe(mine);
    return true;
  }
  Object lease = std::move(got).value();
  const LeaseRecord current = leaseRecordOf(lease);
  observe(current);
  const bool held = !current.holderIdentity.empty();
  if (held && current.holderIdentity != opts_.identity) {
    const Duration duration = seconds(current.leaseDurationSeconds);
    if (loop_.now() < observedTime_ + duration) return false;  // not expired as seen from here
  }
  if (current.holderIdentity == opts_.identity) {
    mine.acquireTime = current.acquireTime;
    mine.leaseTransitions = current.leaseTransitions;
  } else {
    mine.acquireTime = mine.renewTime;
    mine.leaseTransitions = current.leaseTransitions + 1;
  }
  lease["spec"] = leaseSpecOf(mine);
  // The stored resourceVersion makes this conditional: a competing write wins, we retry.
  auto written = client_.update(res::leases, lease);
  if (!written) return false;
  observe(mine);
  return true;
}

void LeaderElector::scheduleAttempt(Duration d) {
  loop_.cancel(attemptTimer_);
  attemptTimer_ = loop_.runAfter(d, [this] {
    attemptTimer_ = 0;
    attempt();
  });
}

void LeaderElector::attempt() {
  if (!running_) return;
  const bool ok = tryAcquireOrRenew();
  if (ok) {
    const TimePoint renewed = loop_.now();
    lastRenew_.store(renewed);
    if (!leading_) becomeLeader();
    loop_.cancel(deadlineTimer_);
    deadlineTimer_ = loop_.runAt(renewed + opts_.renewDeadline, [this] {
      deadlineTimer_ = 0;
      if (leading_) loseLeadership("no renewal within renewDeadline");
    });
    scheduleAttempt(opts_.retryPeriod);
    return;
  }
  if (leading_ && observed_.holderIdentity != opts_.identity && !observed_.holderIdentity.empty())
    loseLeadership("the lease is held by " + observed_.holderIdentity);
  Duration wait = opts_.retryPeriod;
  if (!leading_ && random_) wait += random_->durationBetween(Duration::zero(), opts_.retryPeriod / 5);
  scheduleAttempt(wait);
}

void LeaderElector::becomeLeader() {
  leading_ = true;
  ++transitions_;
  note("started leading");
  if (opts_.onStartedLeading) opts_.onStartedLeading();
}

void LeaderElector::loseLeadership(std::string_view why) {
  leading_ = false;
  loop_.cancel(deadlineTimer_);
  deadlineTimer_ = 0;
  note(fmt::format("stopped leading ({})", why));
  if (opts_.onStoppedLeading) opts_.onStoppedLeading();
}

}  // namespace kun
