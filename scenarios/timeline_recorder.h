#pragma once
// Records a run's timeline while it runs: every `period` of virtual time, each pod's role
// as its simulated process shows it (master, replica, sentinel, starting, hung, down), the
// verdict of the health function, and a failover mark whenever the master the Sentinels
// name changes; faults are added from the schedule runner's records. A sample equal to the
// previous one is not stored, so a long quiet run stays small.
//
// Pods are listed through the fake API, so a sample during injected API errors draws from
// the fault hook's stream (and may see no pods): a runner must record whether or not a
// timeline is asked for, so that --timeline never changes a run.
#include <functional>
#include <optional>
#include <string>
#include <vector>

#include "chaos/faults/fault_targets.h"
#include "chaos/faults/schedule_runner.h"
#include "core/runtime/event_loop.h"
#include "scenarios/timeline.h"

namespace kun::redissim {
class RedisSim;
}

namespace kun::scenario {

class TimelineRecorder {
 public:
  TimelineRecorder(EventLoop& loop, chaos::FaultTargets& targets, redissim::RedisSim& redis,
                   std::function<bool()> healthy, Duration period = milliseconds(500));
  ~TimelineRecorder();
  TimelineRecorder(const TimelineRecorder&) = delete;
  TimelineRecorder& operator=(const TimelineRecorder&) = delete;

  void start();  // samples now, then every period
  void stop();
  void sampleNow();
  // A fault's begin (and later its end) as the schedule runner reports it.
  void onFault(const chaos::FaultRecord& r);

  Timeline timeline(std::string title) const;

 private:
  void tick();

  EventLoop& loop_;
  chaos::FaultTargets& targets_;
  redissim::RedisSim& redis_;
  std::function<bool()> healthy_;
  Duration period_;
  std::optional<TimerId> timer_;
  std::vector<TimelineSample> samples_;
  std::vector<TimelineMark> failovers_;
  std::vector<TimelineSpan> faults_;
  std::vector<std::size_t> openFaults_;  // index in faults_ of lasting faults not yet ended
  std::string lastMasterIp_;
};

}  // namespace kun::scenario
