#include "chaos/faults/fault.h"

#include <algorithm>
#include <array>
#include <utility>

#include <fmt/format.h>

#include "chaos/faults/duration_text.h"

namespace kun::chaos {

namespace {

struct KindInfo {
  FaultKind kind;
  std::string_view name;
  bool lasts;
  std::string_view target;
};

// One row per kind: its name, whether it has a duration, its default target.
constexpr std::array<KindInfo, 19> kKinds{{
    {FaultKind::PodKill, "pod-kill", false, "master"},
    {FaultKind::PodFailure, "pod-failure", true, "master"},
    {FaultKind::ContainerKill, "container-kill", false, "master"},
    {FaultKind::ProcessHang, "process-hang", true, "master"},
    {FaultKind::StatefulSetDelete, "statefulset-delete", false, "redis"},
    {FaultKind::ServiceDelete, "service-delete", false, "sentinel"},
    {FaultKind::ConfigMapDelete, "configmap-delete", false, "redis"},
    {FaultKind::NodeFailure, "node-failure", true, "master-node"},
    {FaultKind::ZoneFailure, "zone-failure", true, "master-zone"},
    {FaultKind::NetworkPartition, "network-partition", true, ""},
    {FaultKind::NetworkDelay, "network-delay", true, "master"},
    {FaultKind::NetworkLoss, "network-loss", true, "master"},
    {FaultKind::SwizzleClog, "swizzle-clog", true, "any"},
    {FaultKind::ApiErrors, "api-errors", true, ""},
    {FaultKind::ApiLatency, "api-latency", true, ""},
    {FaultKind::WatchDrop, "watch-drop", false, ""},
    {FaultKind::WatchGone, "watch-gone", false, ""},
    {FaultKind::OperatorRestart, "operator-restart", false, ""},
    {FaultKind::ParamChange, "param-change", false, ""},
}};

const KindInfo& info(FaultKind k) {
  return *std::find_if(kKinds.begin(), kKinds.end(), [k](const KindInfo& i) { return i.kind == k; });
}

constexpr std::array<std::pair<PartitionMode, std::string_view>, 4> kModes{{
    {PartitionMode::MasterSentinels, "master-sentinels"},
    {PartitionMode::SplitSentinels, "split-sentinels"},
    {PartitionMode::OperatorRedis, "operator-redis"},
    {PartitionMode::OneWay, "one-way"},
}};

constexpr std::array<std::pair<Param, std::string_view>, 7> kParams{{
    {Param::Config, "config"},
    {Param::Size, "size"},
    {Param::Password, "password"},
    {Param::Persistence, "persistence"},
    {Param::Image, "image"},
    {Param::Resources, "resources"},
    {Param::SentinelConfig, "sentinel-config"},
}};

template <class Table, class Key>
std::string_view nameIn(const Table& t, Key k) {
  for (const auto& [key, name] : t)
    if (key == k) return name;
  return "?";
}

template <class Key, class Table>
std::optional<Key> keyIn(const Table& t, std::string_view name) {
  for (const auto& [key, n] : t)
    if (n == name) return key;
  return std::nullopt;
}

Error invalid(std::string field, std::string message) {
  return makeError(Reason::Invalid, std::move(message), std::move(field));
}

}  // namespace

std::string_view faultKindName(FaultKind k) { return info(k).name; }

std::optional<FaultKind> faultKindFromName(std::string_view name) {
  for (const auto& i : kKinds)
    if (i.name == name) return i.kind;
  return std::nullopt;
}

const std::vector<FaultKind>& allFaultKinds() {
  static const std::vector<FaultKind> all = [] {
    std::vector<FaultKind> v;
    for (const auto& i : kKinds) v.push_back(i.kind);
    return v;
  }();
  return all;
}

std::string faultKindList() {
  std::string out;
  for (const auto& i : kKinds) out += (out.empty() ? "" : ", ") + std::string(i.name);
  return out;
}

std::string_view partitionModeName(PartitionMode m) { return nameIn(kModes, m); }
std::optional<PartitionMode> partitionModeFromName(std::string_view name) {
  return keyIn<PartitionMode>(kModes, name);
}
std::string_view paramName(Param p) { return nameIn(kParams, p); }
std::optional<Param> paramFromName(std::string_view name) { return keyIn<Param>(kParams, name); }

const std::vector<Param>& allParams() {
  static const std::vector<Param> all = [] {
    std::vector<Param> v;
    for (const auto& [p, n] : kParams) v.push_back(p);
    return v;
  }();
  return all;
}

bool hasDuration(FaultKind k) { return info(k).lasts; }

bool needsOperator(FaultKind k) { return k == FaultKind::OperatorRestart || k == FaultKind::ParamChange; }

std::string_view defaultTarget(FaultKind k) { return info(k).target; }

Status validateFault(const Fault& f) {
  if (f.at < Duration{0}) return invalid("at", "a fault cannot start before the run");
  if (hasDuration(f.kind) && f.duration <= Duration{0})
    return invalid("duration", fmt::format("{} needs a duration > 0", faultKindName(f.kind)));
  if (!hasDuration(f.kind) && f.duration != Duration{0})
    return invalid("duration", fmt::format("{} is instantaneous: no duration", faultKindName(f.kind)));
  const bool rated = f.kind == FaultKind::ApiErrors || f.kind == FaultKind::NetworkLoss;
  if (rated && (f.rateDen == 0 || f.rateNum == 0 || f.rateNum > f.rateDen))
    return invalid("rate", "a rate num/den with 0 < num <= den");
  switch (f.kind) {
    case FaultKind::ApiErrors:
      if (f.code != 500 && f.code != 429 && f.code != 409)
        return invalid("code", "one of 500, 429, 409");
      if (f.retryAfterSeconds < 0) return invalid("retryAfter", "seconds >= 0");
      break;
    case FaultKind::NetworkDelay:
    case FaultKind::ApiLatency:
      if (f.latency <= Duration{0}) return invalid("latency", "a latency > 0");
      break;
    case FaultKind::WatchGone:
    case FaultKind::SwizzleClog:
      if (f.count < 1) return invalid("count", "a count >= 1");
      break;
    case FaultKind::NetworkPartition:
      if (f.mode == PartitionMode::OneWay && (f.from.empty() || f.to.empty()))
        return invalid(f.from.empty() ? "from" : "to", "one-way needs from and to");
      break;
    default:
      break;
  }
  return {};
}

std::string describeFault(const Fault& f) {
  std::string out(faultKindName(f.kind));
  const std::string target = f.target.empty() ? std::string(defaultTarget(f.kind)) : f.target;
  switch (f.kind) {
    case FaultKind::NetworkPartition:
      out += " " + std::string(partitionModeName(f.mode));
      if (f.mode == PartitionMode::OneWay) out += " " + f.from + "->" + f.to;
      break;
    case FaultKind::NetworkDelay:
      out += fmt::format(" {} +{}", target, formatDuration(f.latency));
      break;
    case FaultKind::ApiLatency:
      out += " +" + formatDuration(f.latency);
      break;
    case FaultKind::NetworkLoss:
      out += fmt::format(" {} {}/{}", target, f.rateNum, f.rateDen);
      break;
    case FaultKind::ApiErrors:
      out += fmt::format(" {} {}/{}", f.code, f.rateNum, f.rateDen);
      if (f.code == 429) out += fmt::format(" retry-after {}s", f.retryAfterSeconds);
      break;
    case FaultKind::WatchGone:
      out += fmt::format(" x{}", f.count);
      break;
    case FaultKind::SwizzleClog:
      out += fmt::format(" {} links", f.count);
      break;
    case FaultKind::ParamChange:
      out += fmt::format(" {}={}{}", paramName(f.param), f.value.dump(), f.valid ? "" : " (invalid)");
      break;
    default:
      if (!target.empty()) out += " " + target;
  }
  out += " at " + formatDuration(f.at);
  if (f.duration > Duration{0}) out += " for " + formatDuration(f.duration);
  return out;
}

}  // namespace kun::chaos
