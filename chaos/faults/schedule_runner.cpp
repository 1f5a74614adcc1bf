#include "chaos/faults/schedule_runner.h"

namespace kun::chaos {

ScheduleRunner::ScheduleRunner(EventLoop& loop, FaultInjector& injector, FaultSchedule schedule)
    : loop_(loop), injector_(injector), schedule_(std::move(schedule)) {
  schedule_.sort();
}

ScheduleRunner::~ScheduleRunner() { stop(); }

void ScheduleRunner::start(std::optional<TimePoint> origin) {
  origin_ = origin.value_or(loop_.now());
  for (std::size_t i = 0; i < schedule_.faults.size(); ++i)
    timers_.push_back(loop_.runAt(origin_ + schedule_.faults[i].at, [this, i] { fire(i); }));
}

void ScheduleRunner::stop() {
  for (auto t : timers_) loop_.cancel(t);
  timers_.clear();
  injector_.endAll();
}

void ScheduleRunner::fire(std::size_t index) {
  const Fault& f = schedule_.faults[index];
  ++begun_;
  FaultRecord rec{f, loop_.now(), std::nullopt, {}, false};
  if (beforeBegin_) beforeBegin_(f);
  auto r = injector_.begin(f);
  if (!r) {
    rec.detail = "skipped: " + r.error().message;
    records_.push_back(rec);
    if (listener_) listener_(rec);
    return;
  }
  rec.applied = true;
  rec.detail = r->detail;
  const std::size_t at = records_.size();
  records_.push_back(rec);
  if (listener_) listener_(rec);
  const auto id = r->id;
  if (!hasDuration(f.kind)) {
    (void)injector_.end(id);
    return;
  }
  ++pendingEnds_;
  timers_.push_back(loop_.runAfter(f.duration, [this, id, at] {
    (void)injector_.end(id);
    --pendingEnds_;
    records_[at].ended = loop_.now();
    if (listener_) listener_(records_[at]);
  }));
}

bool ScheduleRunner::finished() const { return begun_ == schedule_.faults.size() && pendingEnds_ == 0; }

}  // namespace kun::chaos
