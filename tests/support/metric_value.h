#pragma once
// Reading a prometheus-cpp registry in tests: the value of the series of `family` whose
// labels include `labels` (counter or gauge value, a histogram's sample count), summed over
// every series that matches; -1 when none does.
#include <map>
#include <string>

#include <prometheus/registry.h>

namespace kun::test {

inline double metricValue(const prometheus::Registry& reg, const std::string& family,
                          const std::map<std::string, std::string>& labels = {}) {
  double sum = -1;
  for (const auto& f : reg.Collect()) {
    if (f.name != family) continue;
    for (const auto& m : f.metric) {
      bool match = true;
      for (const auto& [k, v] : labels) {
        bool found = false;
        for (const auto& l : m.label) found = found || (l.name == k && l.value == v);
        match = match && found;
      }
      if (!match) continue;
      const double v = f.type == prometheus::MetricType::Counter ? m.counter.value
                       : f.type == prometheus::MetricType::Gauge ? m.gauge.value
                                                                 : static_cast<double>(m.histogram.sample_count);
      sum = (sum < 0 ? 0 : sum) + v;
    }
  }
  return sum;
}

}  // namespace kun::test
