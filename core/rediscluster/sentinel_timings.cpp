#include "core/rediscluster/sentinel_timings.h"

#include <charconv>
#include <sstream>

#include "core/rediscluster/config_values.h"

namespace kun::rediscluster {

SentinelTimings effectiveSentinelTimings(const std::vector<std::string>& customConfig, SentinelTimings base) {
  for (const auto& line : customConfig) {
    std::istringstream in(line);
    std::string option, value, extra;
    if (!(in >> option >> value) || (in >> extra)) continue;
    std::int64_t v = 0;
    const auto [end, ec] = std::from_chars(value.data(), value.data() + value.size(), v);
    if (ec != std::errc() || end != value.data() + value.size() || v <= 0) continue;
    option = lowerCase(std::move(option));
    if (option == "down-after-milliseconds") base.downAfterMs = v;
    else if (option == "failover-timeout") base.failoverTimeoutMs = v;
  }
  return base;
}

}  // namespace kun::rediscluster
