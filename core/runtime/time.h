#pragma once
// Time in the operator and the simulator: a monotonic TimePoint in microseconds since the
// loop started (virtual in a simulation), and Unix wall time for Kubernetes timestamps.
#include <chrono>
#include <cstdint>
#include <string>

namespace kun {

using Duration = std::chrono::microseconds;
using std::chrono::hours;
using std::chrono::microseconds;
using std::chrono::milliseconds;
using std::chrono::minutes;
using std::chrono::seconds;

// A tag clock: TimePoints of different loops are comparable only within one loop.
struct LoopClock {
  using rep = std::int64_t;
  using period = std::micro;
  using duration = Duration;
  using time_point = std::chrono::time_point<LoopClock, Duration>;
  static constexpr bool is_steady = true;
};
using TimePoint = LoopClock::time_point;

inline std::int64_t toMillis(Duration d) {
  return std::chrono::duration_cast<milliseconds>(d).count();
}
inline std::int64_t sinceStartMillis(TimePoint t) { return toMillis(t.time_since_epoch()); }

// "12.345s" — how logs and traces print a loop time.
std::string formatLoopTime(TimePoint t);
// RFC 3339 in UTC with second precision, as Kubernetes writes creationTimestamp.
std::string formatRfc3339(std::int64_t unixMicros);

}  // namespace kun
