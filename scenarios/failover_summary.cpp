#include "scenarios/failover_summary.h"

#include <algorithm>

namespace kun {

MetricSummary summarize(std::vector<std::optional<std::int64_t>> values) {
  std::vector<std::int64_t> v;
  for (const auto& x : values) {
    if (x) v.push_back(*x);
  }
  MetricSummary s;
  s.count = v.size();
  if (v.empty()) return s;
  std::sort(v.begin(), v.end());
  s.min = v.front();
  s.max = v.back();
  const std::size_t mid = v.size() / 2;
  s.median = v.size() % 2 == 1 ? static_cast<double>(v[mid])
                               : (static_cast<double>(v[mid - 1]) + static_cast<double>(v[mid])) / 2.0;
  return s;
}

}  // namespace kun
