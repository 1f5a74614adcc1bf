#include "scenarios/fault_yaml.h"

#include <algorithm>
#include <tuple>

#include <fmt/format.h>

#include "chaos/faults/duration_text.h"
#include "scenarios/yaml_fields.h"
#include "scenarios/yaml_json.h"

namespace kun::scenario {

using chaos::Fault;
using chaos::FaultKind;

namespace {

// The fields a kind takes beyond kind/at.
std::vector<std::string_view> fieldsOf(FaultKind k) {
  std::vector<std::string_view> f;
  if (chaos::hasDuration(k)) f.push_back("duration");
  switch (k) {
    case FaultKind::NetworkPartition: f.insert(f.end(), {"mode", "from", "to"}); break;
    case FaultKind::NetworkDelay: f.insert(f.end(), {"target", "latency"}); break;
    case FaultKind::NetworkLoss: f.insert(f.end(), {"target", "rate"}); break;
    case FaultKind::ApiErrors: f.insert(f.end(), {"target", "code", "rate", "retryAfter"}); break;
    case FaultKind::ApiLatency: f.push_back("latency"); break;
    case FaultKind::WatchGone: f.push_back("count"); break;
    case FaultKind::SwizzleClog: f.push_back("count"); break;
    case FaultKind::ParamChange: f.insert(f.end(), {"param", "value", "valid"}); break;
    case FaultKind::WatchDrop:
    case FaultKind::OperatorRestart: break;
    default: f.push_back("target");
  }
  return f;
}

template <class T, class F>
Status take(Result<std::optional<T>> r, F&& assign) {
  if (!r) return r.error();
  if (*r) assign(**r);
  return {};
}

#define KUN_TRY(expr)            \
  do {                           \
    if (auto _s = (expr); !_s) return _s.error(); \
  } while (0)

}  // namespace

Result<Fault> parseFault(const YAML::Node& n, const YamlPlace& where, bool allowAt) {
  KUN_TRY(expectMap(n, where));
  auto kindName = required(optString(n, "kind", where), where, "kind", "a fault kind (" + chaos::faultKindList() + ")");
  if (!kindName) return kindName.error();
  const auto kind = chaos::faultKindFromName(*kindName);
  if (!kind)
    return yamlError(where.child("kind", n["kind"]), "one of " + chaos::faultKindList(), describeNode(n["kind"]));
  Fault f;
  f.kind = *kind;
  auto allowed = fieldsOf(f.kind);
  allowed.push_back("kind");
  if (allowAt) allowed.push_back("at");
  KUN_TRY(onlyKeys(n, where, allowed));

  if (allowAt) KUN_TRY(take(optDuration(n, "at", where), [&](Duration d) { f.at = d; }));
  KUN_TRY(take(optDuration(n, "duration", where), [&](Duration d) { f.duration = d; }));
  if (chaos::hasDuration(f.kind) && f.duration <= Duration{0})
    return yamlError(where.child("duration", n["duration"]), "a duration > 0 (" + std::string(*kindName) + " lasts)",
                     describeNode(n["duration"]));
  KUN_TRY(take(optString(n, "target", where), [&](std::string s) { f.target = std::move(s); }));
  KUN_TRY(take(optDuration(n, "latency", where), [&](Duration d) { f.latency = d; }));
  KUN_TRY(take(optRate(n, "rate", where), [&](auto r) { std::tie(f.rateNum, f.rateDen) = r; }));
  KUN_TRY(take(optInt(n, "retryAfter", where, 0, 3600), [&](auto v) { f.retryAfterSeconds = static_cast<int>(v); }));
  KUN_TRY(take(optInt(n, "count", where, 1, 1000), [&](auto v) { f.count = static_cast<int>(v); }));
  KUN_TRY(take(optBool(n, "valid", where), [&](bool v) { f.valid = v; }));
  if (n["code"].IsDefined()) {
    auto code = optInt(n, "code", where, 0, 999);
    if (!code) return code.error();
    if (**code != 500 && **code != 429 && **code != 409)
      return yamlError(where.child("code", n["code"]), "500, 429 or 409", describeNode(n["code"]));
    f.code = static_cast<int>(**code);
  }
  if (f.kind == FaultKind::NetworkPartition) {
    auto mode = required(optString(n, "mode", where), where, "mode",
                         "master-sentinels, split-sentinels, operator-redis or one-way");
    if (!mode) return mode.error();
    auto m = chaos::partitionModeFromName(*mode);
    if (!m)
      return yamlError(where.child("mode", n["mode"]), "master-sentinels, split-sentinels, operator-redis or one-way",
                       describeNode(n["mode"]));
    f.mode = *m;
    KUN_TRY(take(optString(n, "from", where), [&](std::string s) { f.from = std::move(s); }));
    KUN_TRY(take(optString(n, "to", where), [&](std::string s) { f.to = std::move(s); }));
    if (f.mode == chaos::PartitionMode::OneWay && (f.from.empty() || f.to.empty()))
      return yamlError(where.child(f.from.empty() ? "from" : "to", YAML::Node()),
                       "a target (master, replica, sentinel, sentinels, redises, operator or a pod name) for one-way",
                       "nothing");
    if (f.mode != chaos::PartitionMode::OneWay && (!f.from.empty() || !f.to.empty()))
      return yamlError(where.child("from", n["from"]), "no from/to except with mode one-way", "a value");
  }
  if (f.kind == FaultKind::ParamChange) {
    auto p = required(optString(n, "param", where), where, "param",
                      "config, size, password, persistence, image, resources or sentinel-config");
    if (!p) return p.error();
    auto param = chaos::paramFromName(*p);
    if (!param)
      return yamlError(where.child("param", n["param"]),
                       "config, size, password, persistence, image, resources or sentinel-config",
                       describeNode(n["param"]));
    f.param = *param;
    if (!n["value"].IsDefined()) return yamlError(where.child("value", YAML::Node()), "the new value", "nothing");
    f.value = yamlToJson(n["value"]);
  }
  if (auto v = chaos::validateFault(f); !v) {
    const auto& field = v.error().field;
    return yamlError(where.child(field, n[field]), v.error().message, describeNode(n[field]));
  }
  return f;
}

Result<chaos::FaultSchedule> parseSchedule(const YAML::Node& n, const YamlPlace& where) {
  chaos::FaultSchedule s;
  if (!n.IsDefined() || n.IsNull()) return s;
  if (!n.IsSequence()) return yamlError(where, "a list of faults", describeNode(n));
  for (std::size_t i = 0; i < n.size(); ++i) {
    auto place = where.item(i, n[i]);
    if (n[i].IsMap() && !n[i]["at"].IsDefined())
      return yamlError(place.child("at", YAML::Node()), "when the fault begins (e.g. at: 30s)", "nothing");
    auto f = parseFault(n[i], place, true);
    if (!f) return f.error();
    s.faults.push_back(std::move(*f));
  }
  s.sort();
  return s;
}

void emitFault(YAML::Emitter& out, const Fault& f, bool withAt) {
  using chaos::formatDuration;
  const auto fields = fieldsOf(f.kind);
  auto has = [&](std::string_view k) { return std::find(fields.begin(), fields.end(), k) != fields.end(); };
  out << YAML::Flow << YAML::BeginMap;
  out << YAML::Key << "kind" << YAML::Value << std::string(chaos::faultKindName(f.kind));
  if (withAt) out << YAML::Key << "at" << YAML::Value << formatDuration(f.at);
  if (has("duration")) out << YAML::Key << "duration" << YAML::Value << formatDuration(f.duration);
  auto text = [&](std::string_view key, const std::string& v) {
    out << YAML::Key << std::string(key) << YAML::Value;
    emitJson(out, Object(v));  // quoted when it would read back as a number or bool
  };
  if (has("target") && !f.target.empty()) text("target", f.target);
  if (has("mode")) {
    out << YAML::Key << "mode" << YAML::Value << std::string(chaos::partitionModeName(f.mode));
    if (f.mode == chaos::PartitionMode::OneWay)
    {
      text("from", f.from);
      text("to", f.to);
    }
  }
  if (has("latency")) out << YAML::Key << "latency" << YAML::Value << formatDuration(f.latency);
  if (has("code")) out << YAML::Key << "code" << YAML::Value << f.code;
  if (has("rate")) out << YAML::Key << "rate" << YAML::Value << fmt::format("{}/{}", f.rateNum, f.rateDen);
  if (has("retryAfter") && f.code == 429) out << YAML::Key << "retryAfter" << YAML::Value << f.retryAfterSeconds;
  if (has("count")) out << YAML::Key << "count" << YAML::Value << f.count;
  if (has("param")) {
    out << YAML::Key << "param" << YAML::Value << std::string(chaos::paramName(f.param));
    out << YAML::Key << "value" << YAML::Value;
    emitJson(out, f.value);
    out << YAML::Key << "valid" << YAML::Value << (f.valid ? "true" : "false");
  }
  out << YAML::EndMap;
}

}  // namespace kun::scenario
