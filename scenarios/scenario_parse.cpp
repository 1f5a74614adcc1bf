#include "scenarios/scenario_parse.h"

#include <limits>

#include <fmt/format.h>

#include "chaos/faults/duration_text.h"
#include "scenarios/cluster_manifest.h"
#include "scenarios/fault_yaml.h"
#include "scenarios/object_delete.h"
#include "scenarios/scenario_conditions.h"
#include "scenarios/yaml_fields.h"
#include "scenarios/yaml_json.h"

namespace kun::scenario {

namespace {

constexpr std::string_view kStepKinds = "apply, patch, fault, write, read, waitFor, assert, sleep or delete";

std::string conditionList() {
  std::string out;
  for (auto c : conditionNames()) out += (out.empty() ? "" : ", ") + std::string(c);
  return out;
}

// map[key], or a null node when the key is absent (yaml-cpp's own answer for an absent key
// is an invalid node, which throws when asked its type).
YAML::Node present(const YAML::Node& map, const std::string& key) {
  const YAML::Node n = map[key];
  return n.IsDefined() ? n : YAML::Node();
}

Result<std::string> conditionOf(const YAML::Node& n, const YamlPlace& where) {
  // A YAML::Node is a reference: assigning to one that aliases n would overwrite n, so
  // the condition node is chosen at construction.
  const YAML::Node cn = n.IsMap() ? n["condition"] : n;
  const YamlPlace place = n.IsMap() ? where.child("condition", cn) : where;
  if (!cn.IsDefined() || !cn.IsScalar()) return yamlError(place, "a condition (" + conditionList() + ")", describeNode(cn));
  if (!isCondition(cn.Scalar())) return yamlError(place, "one of " + conditionList(), describeNode(cn));
  return cn.Scalar();
}

Result<Step> parseStep(const YAML::Node& n, const YamlPlace& where) {
  if (!n.IsMap() || n.size() != 1)
    return yamlError(where, fmt::format("a mapping with one key: {}", kStepKinds), describeNode(n));
  const auto key = n.begin()->first.as<std::string>();
  const YAML::Node body = n.begin()->second;
  const YamlPlace at = where.child(key, n.begin()->first);
  Step s;
  s.line = at.line;
  if (key == "apply") {
    s.kind = StepKind::Apply;
    auto m = parseManifest(body, at);
    if (!m) return m.error();
    s.manifest = std::move(*m);
  } else if (key == "patch") {
    s.kind = StepKind::Patch;
    if (auto st = expectMap(body, at); !st) return st.error();
    if (auto st = onlyKeys(body, at, {"cluster", "patch"}); !st) return st.error();
    auto c = optString(body, "cluster", at);
    if (!c) return c.error();
    s.cluster = c->value_or("");
    if (!body["patch"].IsMap()) return yamlError(at.child("patch", body["patch"]), "a merge patch (a mapping)", describeNode(body["patch"]));
    s.patch = yamlToJson(body["patch"]);
  } else if (key == "fault") {
    s.kind = StepKind::Fault;
    auto f = parseFault(body, at, false);
    if (!f) return f.error();
    s.fault = std::move(*f);
  } else if (key == "write" || key == "read") {
    s.kind = key == "write" ? StepKind::Write : StepKind::Read;
    if (auto st = expectMap(body, at); !st) return st.error();
    const bool write = s.kind == StepKind::Write;
    if (auto st = onlyKeys(body, at, write ? std::vector<std::string_view>{"keys", "prefix", "every"}
                                           : std::vector<std::string_view>{"keys", "prefix"});
        !st)
      return st.error();
    auto k = required(optInt(body, "keys", at, 1, 1'000'000), at, "keys", "how many keys (1..1000000)");
    if (!k) return k.error();
    s.keys = static_cast<int>(*k);
    auto p = optString(body, "prefix", at);
    if (!p) return p.error();
    if (*p) s.prefix = **p;
    if (write) {
      auto every = optDuration(body, "every", at);
      if (!every) return every.error();
      s.duration = every->value_or(Duration::zero());
    }
  } else if (key == "waitFor") {
    s.kind = StepKind::WaitFor;
    if (auto st = expectMap(body, at); !st) return st.error();
    if (auto st = onlyKeys(body, at, {"condition", "timeout"}); !st) return st.error();
    auto c = conditionOf(body, at);
    if (!c) return c.error();
    s.condition = *c;
    auto t = required(optDuration(body, "timeout", at), at, "timeout", "a timeout such as 2m");
    if (!t) return t.error();
    if (*t <= Duration{0}) return yamlError(at.child("timeout", body["timeout"]), "a timeout > 0", describeNode(body["timeout"]));
    s.timeout = *t;
  } else if (key == "assert") {
    s.kind = StepKind::Assert;
    if (body.IsMap())
      if (auto st = onlyKeys(body, at, {"condition"}); !st) return st.error();
    auto c = conditionOf(body, at);
    if (!c) return c.error();
    s.condition = *c;
  } else if (key == "sleep") {
    s.kind = StepKind::Sleep;
    constexpr std::string_view what = "a duration > 0 such as 500ms, 30s, 2m or 1h";
    const auto d = body.IsScalar() ? chaos::parseDuration(body.Scalar()) : std::nullopt;
    if (!d || *d <= Duration{0}) return yamlError(at, what, describeNode(body));
    s.duration = *d;
  } else if (key == "delete") {
    s.kind = StepKind::Delete;
    if (auto st = expectMap(body, at); !st) return st.error();
    if (auto st = onlyKeys(body, at, {"kind", "name", "namespace", "propagation"}); !st) return st.error();
    auto kind = optString(body, "kind", at);
    if (!kind) return kind.error();
    if (*kind) {
      if (!resourceOfKind(**kind)) return yamlError(at.child("kind", body["kind"]), "one of " + deletableKinds(), describeNode(body["kind"]));
      s.objectKind = **kind;
    }
    auto name = optString(body, "name", at);
    if (!name) return name.error();
    s.objectName = name->value_or("");
    if (s.objectName.empty() && s.objectKind != "RedisCluster")
      return yamlError(at.child("name", YAML::Node()), "the name of the " + s.objectKind + " to delete", "nothing");
    auto ns = optString(body, "namespace", at);
    if (!ns) return ns.error();
    s.objectNamespace = ns->value_or("");
    auto prop = optString(body, "propagation", at);
    if (!prop) return prop.error();
    if (*prop) {
      auto p = deletePropagationFromName(**prop);
      if (!p) return yamlError(at.child("propagation", body["propagation"]), "background, foreground or orphan", describeNode(body["propagation"]));
      s.propagation = *p;
    }
  } else {
    return yamlError(at, std::string("a step: ") + std::string(kStepKinds), "\"" + key + "\"");
  }
  return s;
}

Result<Scenario> parseRoot(const YAML::Node& root, const std::string& file) {
  const YamlPlace top{file, "", 1};
  if (!root.IsMap()) return yamlError(top, "a mapping with name, manifests and steps", describeNode(root));
  if (auto s = onlyKeys(root, top, {"name", "description", "seed", "world", "manifests", "schedule", "steps"}); !s)
    return s.error();
  Scenario sc;
  sc.file = file;
  auto name = required(optString(root, "name", top), top, "name", "the scenario's name");
  if (!name) return name.error();
  sc.name = *name;
  auto desc = optString(root, "description", top);
  if (!desc) return desc.error();
  sc.description = desc->value_or("");
  auto seed = optSeed(root, "seed", top);
  if (!seed) return seed.error();
  sc.seed = *seed;

  if (const auto w = root["world"]; w.IsDefined()) {
    const auto place = top.child("world", w);
    if (auto s = expectMap(w, place); !s) return s.error();
    if (auto s = onlyKeys(w, place, {"nodes", "zones"}); !s) return s.error();
    auto nodes = optInt(w, "nodes", place, 1, 100);
    if (!nodes) return nodes.error();
    auto zones = optInt(w, "zones", place, 1, 26);
    if (!zones) return zones.error();
    sc.world.nodes = static_cast<int>(nodes->value_or(sc.world.nodes));
    sc.world.zones = static_cast<int>(zones->value_or(sc.world.zones));
  }

  const YAML::Node manifests = present(root, "manifests");
  const auto mplace = top.child("manifests", manifests);
  if (!manifests.IsSequence() || manifests.size() == 0)
    return yamlError(mplace, "a list of at least one RedisCluster manifest", describeNode(manifests));
  for (std::size_t i = 0; i < manifests.size(); ++i) {
    auto m = parseManifest(manifests[i], mplace.item(i, manifests[i]));
    if (!m) return m.error();
    sc.manifests.push_back(std::move(*m));
  }

  const YAML::Node scheduleNode = present(root, "schedule");
  auto schedule = parseSchedule(scheduleNode, top.child("schedule", scheduleNode));
  if (!schedule) return schedule.error();
  sc.schedule = std::move(*schedule);

  const YAML::Node steps = present(root, "steps");
  const auto splace = top.child("steps", steps);
  if (!steps.IsSequence()) return yamlError(splace, "a list of steps", describeNode(steps));
  for (std::size_t i = 0; i < steps.size(); ++i) {
    auto s = parseStep(steps[i], splace.item(i, steps[i]));
    if (!s) return s.error();
    sc.steps.push_back(std::move(*s));
  }
  return sc;
}

}  // namespace

Result<Scenario> parseScenario(std::string_view text, const std::string& fileName) {
  try {
    return parseRoot(YAML::Load(std::string(text)), fileName);
  } catch (const YAML::Exception& e) {
    return notYaml(e, fileName);
  }
}

Result<Scenario> readScenarioFile(const std::string& path) {
  auto text = readFileText(path);
  if (!text) return text.error();
  return parseScenario(*text, path);
}

}  // namespace kun::scenario
