#pragma once
// min / median / max of one failover-timing metric over runs. Runs where the event did not
// happen (nullopt) are left out; with none left, every statistic is nullopt. The median of
// an even count is the mean of the two middle values.
#include <cstddef>
#include <cstdint>
#include <optional>
#include <vector>

namespace kun {

struct MetricSummary {
  std::optional<std::int64_t> min;
  std::optional<double> median;
  std::optional<std::int64_t> max;
  std::size_t count = 0;  // runs in which it happened
};

MetricSummary summarize(std::vector<std::optional<std::int64_t>> values);

}  // namespace kun
