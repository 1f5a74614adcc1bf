#include "scenarios/scenario_write.h"

#include <fmt/format.h>
#include <yaml-cpp/yaml.h>

#include "chaos/faults/duration_text.h"
#include "scenarios/fault_yaml.h"
#include "scenarios/yaml_json.h"

namespace kun::scenario {

namespace {

void emitStep(YAML::Emitter& out, const Step& s) {
  using chaos::formatDuration;
  out << YAML::BeginMap << YAML::Key << std::string(stepKindName(s.kind)) << YAML::Value;
  switch (s.kind) {
    case StepKind::Apply: emitJson(out, s.manifest); break;
    case StepKind::Patch:
      out << YAML::BeginMap;
      if (!s.cluster.empty()) {
        out << YAML::Key << "cluster" << YAML::Value;
        emitJson(out, Object(s.cluster));
      }
      out << YAML::Key << "patch" << YAML::Value;
      emitJson(out, s.patch);
      out << YAML::EndMap;
      break;
    case StepKind::Fault: emitFault(out, s.fault, false); break;
    case StepKind::Write:
    case StepKind::Read:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "keys" << YAML::Value << s.keys << YAML::Key << "prefix"
          << YAML::Value;
      emitJson(out, Object(s.prefix));
      if (s.kind == StepKind::Write && s.duration > Duration::zero())
        out << YAML::Key << "every" << YAML::Value << formatDuration(s.duration);
      out << YAML::EndMap;
      break;
    case StepKind::WaitFor:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "condition" << YAML::Value << s.condition << YAML::Key
          << "timeout" << YAML::Value << formatDuration(s.timeout) << YAML::EndMap;
      break;
    case StepKind::Assert:
      out << YAML::Flow << YAML::BeginMap << YAML::Key << "condition" << YAML::Value << s.condition << YAML::EndMap;
      break;
    case StepKind::Sleep: out << formatDuration(s.duration); break;
    case StepKind::Delete:
      // Only what differs from the defaults, so `delete: {}` reads back as itself.
      out << YAML::Flow << YAML::BeginMap;
      if (s.objectKind != "RedisCluster") out << YAML::Key << "kind" << YAML::Value << s.objectKind;
      if (!s.objectNamespace.empty()) {
        out << YAML::Key << "namespace" << YAML::Value;
        emitJson(out, Object(s.objectNamespace));
      }
      if (!s.objectName.empty()) {
        out << YAML::Key << "name" << YAML::Value;
        emitJson(out, Object(s.objectName));
      }
      if (s.propagation != DeletePropagation::Background)
        out << YAML::Key << "propagation" << YAML::Value << std::string(deletePropagationName(s.propagation));
      out << YAML::EndMap;
      break;
  }
  out << YAML::EndMap;
}

}  // namespace

std::string writeScenario(const Scenario& s) {
  YAML::Emitter out;
  out << YAML::BeginMap;
  out << YAML::Key << "name" << YAML::Value;
  emitJson(out, Object(s.name));
  if (!s.description.empty()) {
    out << YAML::Key << "description" << YAML::Value;
    emitJson(out, Object(s.description));
  }
  if (s.seed) out << YAML::Key << "seed" << YAML::Value << *s.seed;
  if (s.world != WorldSpec{})
    out << YAML::Key << "world" << YAML::Value << YAML::Flow << YAML::BeginMap << YAML::Key << "nodes" << YAML::Value
        << s.world.nodes << YAML::Key << "zones" << YAML::Value << s.world.zones << YAML::EndMap;
  out << YAML::Key << "manifests" << YAML::Value << YAML::BeginSeq;
  for (const auto& m : s.manifests) emitJson(out, m);
  out << YAML::EndSeq;
  if (!s.schedule.faults.empty()) {
    out << YAML::Key << "schedule" << YAML::Value << YAML::BeginSeq;
    for (const auto& f : s.schedule.faults) emitFault(out, f, true);
    out << YAML::EndSeq;
  }
  out << YAML::Key << "steps" << YAML::Value << YAML::BeginSeq;
  for (const auto& st : s.steps) emitStep(out, st);
  out << YAML::EndSeq << YAML::EndMap;
  return std::string(out.c_str()) + "\n";
}

Scenario scenarioFromSchedule(std::string name, std::vector<Object> manifests, chaos::FaultSchedule schedule,
                              std::uint64_t seed, Duration settleTimeout, bool deleteAtEnd) {
  Scenario s;
  s.name = std::move(name);
  s.description = fmt::format("{} fault(s) generated with seed {}", schedule.faults.size(), seed);
  s.seed = seed;
  s.manifests = std::move(manifests);
  s.schedule = std::move(schedule);
  s.schedule.sort();
  // Writes while the first faults play, then more once the cluster healed; both are read
  // back at the end (and every acknowledged write once more by the runner).
  Step during;
  during.kind = StepKind::Write;
  during.keys = 50;
  during.prefix = "during";
  Step after = during;
  after.prefix = "after";
  Step readDuring;
  readDuring.kind = StepKind::Read;
  readDuring.keys = 50;
  readDuring.prefix = "during";
  Step readAfter = readDuring;
  readAfter.prefix = "after";
  Step ended;
  ended.kind = StepKind::WaitFor;
  ended.condition = "faults-ended";
  ended.timeout = s.schedule.lastEnd() + minutes(1);
  Step healthy;
  healthy.kind = StepKind::WaitFor;
  healthy.condition = "healthy";
  healthy.timeout = settleTimeout;
  s.steps = {during, ended, healthy, after, readDuring, readAfter};
  if (deleteAtEnd) {
    Step del;
    del.kind = StepKind::Delete;
    s.steps.push_back(del);
  }
  return s;
}

}  // namespace kun::scenario
