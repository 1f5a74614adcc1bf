#pragma once
// The picture of a run: one row per Redis/Sentinel node with its role over time, a row for
// the cluster's health, the faults as bars in lanes below and failovers as vertical
// marks — a self-contained SVG, a pure function of the recorded samples (same data, same
// bytes), so a person can see what happened.
#include <map>
#include <string>
#include <vector>

#include "core/runtime/time.h"

namespace kun::scenario {

struct TimelineSample {
  TimePoint time;
  // node -> role: "master", "replica", "sentinel", "starting", "hung", "down" (others are
  // drawn as unknown). A node missing from a sample is drawn as absent.
  std::map<std::string, std::string> roles;
  bool healthy = false;
};

struct TimelineSpan {
  std::string label;  // "pod-kill master: deleted pod redis-cluster-a-0"
  TimePoint begin, end;  // begin == end: an instant
};

struct TimelineMark {
  TimePoint time;
  std::string label;  // "failover: 10.0.1.3 -> 10.0.2.4"
};

struct Timeline {
  std::string title;
  std::vector<TimelineSample> samples;  // in time order; each holds until the next
  std::vector<TimelineSpan> faults;
  std::vector<TimelineMark> failovers;
  TimePoint end;  // the end of the run (the last sample holds until here)
};

std::string renderTimelineSvg(const Timeline& t);

}  // namespace kun::scenario
