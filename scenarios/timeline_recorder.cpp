#include "scenarios/timeline_recorder.h"

#include "fakeapi/redis/redis_sim.h"

namespace kun::scenario {

namespace {

std::string roleOf(const redissim::SimProcess* p, bool sentinel) {
  using State = redissim::SimProcess::State;
  if (!p) return "down";
  switch (p->state()) {
    case State::Down: return "down";
    case State::Starting: return "starting";
    case State::Hung: return "hung";
    case State::Running: break;
  }
  if (sentinel) return "sentinel";
  return static_cast<const redissim::RedisNode*>(p)->isMaster() ? "master" : "replica";
}

}  // namespace

TimelineRecorder::TimelineRecorder(EventLoop& loop, chaos::FaultTargets& targets, redissim::RedisSim& redis,
                                   std::function<bool()> healthy, Duration period)
    : loop_(loop), targets_(targets), redis_(redis), healthy_(std::move(healthy)), period_(period) {}

TimelineRecorder::~TimelineRecorder() { stop(); }

void TimelineRecorder::start() {
  stop();
  tick();
}

void TimelineRecorder::stop() {
  if (timer_) loop_.cancel(*timer_);
  timer_.reset();
}

void TimelineRecorder::tick() {
  sampleNow();
  timer_ = loop_.runAfter(period_, [this] { tick(); });
}

void TimelineRecorder::sampleNow() {
  TimelineSample s;
  s.time = loop_.now();
  for (const auto& p : targets_.redisPods())
    s.roles[p.name] = p.ip.empty() ? "starting" : roleOf(redis_.redis({p.ip, 6379}), false);
  for (const auto& p : targets_.sentinelPods())
    s.roles[p.name] = p.ip.empty() ? "starting" : roleOf(redis_.sentinel({p.ip, 26379}), true);
  s.healthy = healthy_ ? healthy_() : false;
  if (auto m = targets_.master(); m && m->ip != lastMasterIp_) {
    if (!lastMasterIp_.empty()) failovers_.push_back({s.time, "master " + lastMasterIp_ + " -> " + m->ip + " (" + m->name + ")"});
    lastMasterIp_ = m->ip;
  }
  if (!samples_.empty() && samples_.back().roles == s.roles && samples_.back().healthy == s.healthy) return;
  samples_.push_back(std::move(s));
}

void TimelineRecorder::onFault(const chaos::FaultRecord& r) {
  const std::string label = std::string(chaos::faultKindName(r.fault.kind)) + ": " + r.detail;
  if (!r.ended) {
    faults_.push_back({label, r.began, r.began});
    if (r.applied && chaos::hasDuration(r.fault.kind)) openFaults_.push_back(faults_.size() - 1);
    return;
  }
  for (auto it = openFaults_.begin(); it != openFaults_.end(); ++it) {
    auto& span = faults_[*it];
    if (span.begin == r.began && span.label == label) {
      span.end = *r.ended;
      openFaults_.erase(it);
      return;
    }
  }
}

Timeline TimelineRecorder::timeline(std::string title) const {
  Timeline t;
  t.title = std::move(title);
  t.samples = samples_;
  t.failovers = failovers_;
  t.faults = faults_;
  t.end = loop_.now();
  // Faults still running at the end are drawn up to the end.
  for (auto i : openFaults_) t.faults[i].end = t.end;
  return t;
}

}  // namespace kun::scenario
