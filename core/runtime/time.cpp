#include "core/runtime/time.h"

#include <ctime>

#include <fmt/format.h>

namespace kun {

std::string formatLoopTime(TimePoint t) {
  const auto us = t.time_since_epoch().count();
  return fmt::format("{}.{:03}s", us / 1000000, (us / 1000) % 1000);
}

std::string formatRfc3339(std::int64_t unixMicros) {
  std::time_t secs = static_cast<std::time_t>(unixMicros / 1000000);
  std::tm tm{};
  gmtime_r(&secs, &tm);
  return fmt::format("{:04}-{:02}-{:02}T{:02}:{:02}:{:02}Z", tm.tm_year + 1900, tm.tm_mon + 1,
                     tm.tm_mday, tm.tm_hour, tm.tm_min, tm.tm_sec);
}

}  // namespace kun
