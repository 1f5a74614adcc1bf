#include "chaos/faults/fault_schedule.h"

#include <algorithm>

namespace kun::chaos {

namespace {

Duration ms(std::int64_t n) { return milliseconds(n); }

Duration drawMs(Random& rng, Duration lo, Duration hi) {
  return ms(rng.between(toMillis(lo), std::max(toMillis(lo), toMillis(hi))));
}

template <class T>
const T& oneOf(Random& rng, const std::vector<T>& v) {
  return v[static_cast<std::size_t>(rng.below(v.size()))];
}

// A valid or an invalid value of a parameter (invalid as validateRedisCluster sees it).
void drawParam(Random& rng, Fault& f, bool valid) {
  f.param = oneOf(rng, allParams());
  f.valid = valid;
  const auto n = rng.between(1, 9);
  switch (f.param) {
    case Param::Config:
      // Values Redis keeps as given (hz above 500 would read back as 500).
      if (!valid) {
        f.value = Object{{"port", "7000"}};  // managed by the operator
      } else {
        const std::string key = oneOf<std::string>(rng, {"maxmemory", "hz", "timeout"});
        f.value = Object{{key, key == "maxmemory" ? std::to_string(n * 100) + "mb" : std::to_string(n * 50)}};
      }
      break;
    case Param::Size: f.value = valid ? 3 + n % 3 : 1; break;  // the minimum is 3
    case Param::Password: f.value = valid ? "pw-" + std::to_string(n) : "bad\npassword"; break;
    case Param::Persistence: f.value = valid ? Object(n % 2 == 0) : Object("sometimes"); break;
    case Param::Image: f.value = valid ? oneOf<std::string>(rng, {"redis:7.0", "redis:7.2"}) : "Not An Image"; break;
    case Param::Resources:
      f.value = valid ? Object{{"requests", {{"cpu", std::to_string(n * 100) + "m"}, {"memory", "128Mi"}}}}
                      : Object{{"requests", {{"cpu", "lots"}}}};
      break;
    case Param::SentinelConfig:
      f.value = valid ? Object::array({"down-after-milliseconds " + std::to_string(n * 1000)})
                      : Object::array({"no-such-option 1"});
      break;
  }
}

}  // namespace

void FaultSchedule::sort() {
  std::stable_sort(faults.begin(), faults.end(), [](const Fault& a, const Fault& b) { return a.at < b.at; });
}

Duration FaultSchedule::lastEnd() const {
  Duration out{0};
  for (const auto& f : faults) out = std::max(out, f.at + f.duration);
  return out;
}

Fault generateFault(Random& rng, FaultKind k, Duration at, const ScheduleOptions& opts) {
  Fault f;
  f.kind = k;
  f.at = at;
  if (hasDuration(k)) f.duration = drawMs(rng, opts.minDuration, opts.maxDuration);
  const std::vector<std::string> pods{"master", "replica", "sentinel"};
  switch (k) {
    case FaultKind::PodKill:
    case FaultKind::PodFailure:
    case FaultKind::ContainerKill:
    case FaultKind::ProcessHang:
      f.target = oneOf(rng, pods);
      break;
    case FaultKind::StatefulSetDelete:
    case FaultKind::ConfigMapDelete:
    case FaultKind::ServiceDelete:
      f.target = oneOf<std::string>(rng, {"redis", "sentinel"});
      break;
    case FaultKind::NodeFailure: f.target = oneOf<std::string>(rng, {"master-node", "any"}); break;
    case FaultKind::ZoneFailure: f.target = oneOf<std::string>(rng, {"master-zone", "any"}); break;
    case FaultKind::NetworkPartition:
      f.mode = oneOf<PartitionMode>(rng, {PartitionMode::MasterSentinels, PartitionMode::SplitSentinels,
                                          PartitionMode::OperatorRedis, PartitionMode::OneWay});
      if (f.mode == PartitionMode::OneWay) {
        f.from = oneOf<std::string>(rng, {"master", "sentinels"});
        f.to = f.from == "master" ? "sentinels" : "master";
      }
      break;
    case FaultKind::NetworkDelay:
      f.target = oneOf(rng, pods);
      f.latency = ms(rng.between(10, 2000));
      break;
    case FaultKind::NetworkLoss:
      f.target = oneOf(rng, pods);
      f.rateNum = static_cast<std::uint64_t>(rng.between(1, 5));
      f.rateDen = 10;
      break;
    case FaultKind::SwizzleClog: f.count = static_cast<int>(rng.between(1, 6)); break;
    case FaultKind::ApiErrors:
      f.code = oneOf<int>(rng, {500, 429, 409});
      if (f.code == 429) f.retryAfterSeconds = static_cast<int>(rng.between(1, 5));
      f.rateNum = static_cast<std::uint64_t>(rng.between(1, 10));
      f.rateDen = 10;
      break;
    case FaultKind::ApiLatency: f.latency = ms(rng.between(100, 5000)); break;
    case FaultKind::WatchGone: f.count = static_cast<int>(rng.between(1, 3)); break;
    case FaultKind::ParamChange:
      drawParam(rng, f, !(opts.invalidDen > 0 && rng.chance(1, opts.invalidDen)));
      break;
    case FaultKind::WatchDrop:
    case FaultKind::OperatorRestart:
      break;
  }
  return f;
}

FaultSchedule generateSchedule(Random rng, const ScheduleOptions& opts) {
  std::vector<FaultKind> kinds(opts.kinds.begin(), opts.kinds.end());
  if (kinds.empty()) kinds = allFaultKinds();
  FaultSchedule s;
  const auto n = rng.between(std::max(0, opts.minFaults), std::max(opts.minFaults, opts.maxFaults));
  for (std::int64_t i = 0; i < n; ++i) {
    const FaultKind k = oneOf(rng, kinds);
    const Duration at = ms(static_cast<std::int64_t>(rng.below(static_cast<std::uint64_t>(std::max<std::int64_t>(1, toMillis(opts.horizon))))));
    s.faults.push_back(generateFault(rng, k, at, opts));
  }
  s.sort();
  return s;
}

Result<std::set<FaultKind>> parseFaultKinds(std::string_view list) {
  std::set<FaultKind> out;
  if (list.empty() || list == "all") return out;
  std::size_t p = 0;
  while (p <= list.size()) {
    auto q = list.find(',', p);
    if (q == std::string_view::npos) q = list.size();
    const auto name = list.substr(p, q - p);
    if (!name.empty()) {
      auto k = faultKindFromName(name);
      if (!k)
        return makeError(Reason::Invalid,
                         "unknown fault kind \"" + std::string(name) + "\" (expected one of: " + faultKindList() + ")",
                         "faults");
      out.insert(*k);
    }
    p = q + 1;
  }
  return out;
}

}  // namespace kun::chaos
