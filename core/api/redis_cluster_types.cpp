#include "core/api/redis_cluster_types.h"

#include <array>


#include "core/api/json_fields.h"
#include "core/api/object_ptr.h"
#include "core/api/redis_cluster_status_write.h"

namespace kun::api {

using jsonf::FieldReader;

namespace {

// The JSON keys each level models; everything else is carried over from `original`.
constexpr std::array<std::string_view, 3> kExporterKeys{"enabled", "image", "imagePullPolicy"};
constexpr std::array<std::string_view, 3> kStorageKeys{"keepAfterDeletion", "emptyDir",
                                                       "persistentVolumeClaim"};
constexpr std::array<std::string_view, 12> kSentinelKeys{
    "image",   "imagePullPolicy", "imagePullSecrets", "replicas",    "resources",    "customConfig",
    "command", "affinity",        "securityContext",  "tolerations", "nodeSelector", "annotations"};
constexpr std::array<std::string_view, 18> kSpecKeys{
    "size",         "resources",       "image",       "imagePullPolicy",  "imagePullSecrets",
    "command",      "shutdownConfigMap", "storage",   "password",         "exporter",
    "affinity",     "securityContext", "toleRations", "nodeSelector",     "config",
    "annotations",  "disablePersistence", "sentinel"};
constexpr std::array<std::string_view, 6> kConditionKeys{
    "type", "status", "lastUpdateTime", "lastTransitionTime", "reason", "message"};
constexpr std::array<std::string_view, 5> kStatusKeys{"conditions", "masterIP", "sentinelIP",
                                                      "observedGeneration", "acceptedSpec"};
constexpr std::array<std::string_view, 5> kTopKeys{"apiVersion", "kind", "metadata", "spec",
                                                   "status"};

// A pointer to node that keeps the whole parsed object alive; null unless node is an object.
Original alias(const Original& root, const Object& node) {
  if (!root || !node.is_object()) return nullptr;
  return Original(root, &node);
}

const Object* ptr(const Original& o) { return o.get(); }

RedisExporter readExporter(FieldReader& parent, const Original& root) {
  const Object& o = parent.sub("exporter");
  FieldReader r(o, parent.pathOf("exporter"));
  RedisExporter e;
  e.enabled = r.boolean("enabled");
  e.image = r.str("image");
  e.imagePullPolicy = r.str("imagePullPolicy");
  e.original = alias(root, o);
  parent.merge(r.error());
  return e;
}

RedisStorage readStorage(FieldReader& parent, const Original& root) {
  const Object& o = parent.sub("storage");
  FieldReader r(o, parent.pathOf("storage"));
  RedisStorage s;
  s.keepAfterDeletion = r.boolean("keepAfterDeletion");
  s.emptyDir = r.object("emptyDir");
  s.persistentVolumeClaim = r.object("persistentVolumeClaim");
  s.original = alias(root, o);
  parent.merge(r.error());
  return s;
}

SentinelSettings readSentinel(FieldReader& parent, const Original& root) {
  const Object& o = parent.sub("sentinel");
  FieldReader r(o, parent.pathOf("sentinel"));
  SentinelSettings s;
  s.image = r.str("image");
  s.imagePullPolicy = r.str("imagePullPolicy");
  s.imagePullSecrets = r.array("imagePullSecrets");
  s.replicas = r.int32("replicas");
  s.resources = r.object("resources");
  s.customConfig = r.strings("customConfig");
  s.command = r.strings("command");
  s.affinity = r.object("affinity");
  s.securityContext = r.object("securityContext");
  s.tolerations = r.array("tolerations");
  s.nodeSelector = r.stringMap("nodeSelector");
  s.annotations = r.stringMap("annotations");
  s.original = alias(root, o);
  parent.merge(r.error());
  return s;
}

// `spec` is a node inside *root (or root itself), so originals can alias it.
Result<RedisClusterSpec> readSpec(const Object& spec, const Original& root) {
  if (!spec.is_null() && !spec.is_object()) return jsonf::notAnObject("spec");
  FieldReader r(spec, "spec");
  RedisClusterSpec s;
  s.size = r.int32("size");
  s.resources = r.object("resources");
  s.image = r.str("image");
  s.imagePullPolicy = r.str("imagePullPolicy");
  s.imagePullSecrets = r.array("imagePullSecrets");
  s.command = r.strings("command");
  s.shutdownConfigMap = r.str("shutdownConfigMap");
  s.storage = readStorage(r, root);
  s.password = r.str("password");
  s.exporter = readExporter(r, root);
  s.affinity = r.object("affinity");
  s.securityContext = r.object("securityContext");
  s.tolerations = r.array("toleRations");
  s.nodeSelector = r.stringMap("nodeSelector");
  s.config = r.stringMap("config");
  s.annotations = r.stringMap("annotations");
  s.disablePersistence = r.boolean("disablePersistence");
  s.sentinel = readSentinel(r, root);
  s.original = alias(root, spec);
  if (!r.ok()) return *r.error();
  return s;
}

Result<RedisClusterStatus> readStatus(const Object& status, const Original& root) {
  if (!status.is_null() && !status.is_object()) return jsonf::notAnObject("status");
  FieldReader r(status, "status");
  RedisClusterStatus s;
  const Object& conds = r.list("conditions");
  if (conds.is_array()) {
    s.conditions.reserve(conds.size());
    for (std::size_t i = 0; i < conds.size(); ++i) {
      // Appended, not formatted: every stored status is read back after each status write.
      const std::string cpath = "status.conditions[" + std::to_string(i) + "]";
      const Object& c = conds[i];
      if (!c.is_object()) return jsonf::notAnObject(cpath);
      FieldReader cr(c, cpath);
      Condition cond;
      cond.type = cr.str("type");
      cond.status = cr.str("status");
      cond.lastUpdateTime = cr.str("lastUpdateTime");
      cond.lastTransitionTime = cr.str("lastTransitionTime");
      cond.reason = cr.str("reason");
      cond.message = cr.str("message");
      cond.original = alias(root, c);
      if (!cr.ok()) return *cr.error();
      s.conditions.push_back(std::move(cond));
    }
  }
  s.masterIP = r.str("masterIP");
  s.sentinelIP = r.str("sentinelIP");
  s.observedGeneration = r.int64("observedGeneration");
  if (const Object* spec = memberOf(status, "acceptedSpec"); spec && spec->is_object()) s.acceptedSpec = alias(root, *spec);
  s.original = alias(root, status);
  if (!r.ok()) return *r.error();
  return s;
}

const Object& member(const Object& o, std::string_view key) {
  static const Object null;
  const Object* v = memberOf(o, key);  // a walk of a small object, as FieldReader::find
  return v ? *v : null;
}

Object writeExporter(const RedisExporter& e) {
  const Object* orig = ptr(e.original);
  Object out = jsonf::carryOver(orig, kExporterKeys);
  jsonf::putBool(out, orig, "enabled", e.enabled);
  jsonf::putStr(out, orig, "image", e.image);
  jsonf::putStr(out, orig, "imagePullPolicy", e.imagePullPolicy);
  return out;
}

Object writeStorage(const RedisStorage& s) {
  const Object* orig = ptr(s.original);
  Object out = jsonf::carryOver(orig, kStorageKeys);
  jsonf::putBool(out, orig, "keepAfterDeletion", s.keepAfterDeletion);
  jsonf::putJson(out, "emptyDir", s.emptyDir);
  jsonf::putJson(out, "persistentVolumeClaim", s.persistentVolumeClaim);
  return out;
}

Object writeSentinel(const SentinelSettings& s) {
  const Object* orig = ptr(s.original);
  Object out = jsonf::carryOver(orig, kSentinelKeys);
  jsonf::putStr(out, orig, "image", s.image);
  jsonf::putStr(out, orig, "imagePullPolicy", s.imagePullPolicy);
  jsonf::putJson(out, "imagePullSecrets", s.imagePullSecrets);
  jsonf::putInt(out, orig, "replicas", s.replicas);
  jsonf::putJson(out, "resources", s.resources);
  jsonf::putStrings(out, orig, "customConfig", s.customConfig);
  jsonf::putStrings(out, orig, "command", s.command);
  jsonf::putJson(out, "affinity", s.affinity);
  jsonf::putJson(out, "securityContext", s.securityContext);
  jsonf::putJson(out, "tolerations", s.tolerations);
  jsonf::putStringMap(out, orig, "nodeSelector", s.nodeSelector);
  jsonf::putStringMap(out, orig, "annotations", s.annotations);
  return out;
}

}  // namespace

// metadata's members by memberOf's walk, as the readers: asked on every reconcile.
std::string RedisCluster::name() const {
  const Object* v = memberOf(metadata, "name");
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::string RedisCluster::namespaceOf() const {
  const Object* v = memberOf(metadata, "namespace");
  return v && v->is_string() ? v->get<std::string>() : std::string();
}

std::int64_t RedisCluster::generation() const {
  const Object* v = memberOf(metadata, "generation");
  return v && v->is_number_integer() ? v->get<std::int64_t>() : 0;
}

Result<RedisClusterSpec> parseRedisClusterSpec(const Object& spec) {
  auto root = shareObject(spec);
  return readSpec(*root, root);
}

Result<RedisClusterStatus> parseRedisClusterStatus(const Object& status) {
  auto root = shareObject(status);
  return readStatus(*root, root);
}

Result<RedisCluster> parseRedisCluster(const Object& o) {
  if (!o.is_object()) return jsonf::notAnObject("");
  return parseRedisCluster(shareObject(o));
}

Result<RedisCluster> parseRedisCluster(std::shared_ptr<const Object> root) {
  if (!root || !root->is_object()) return jsonf::notAnObject("");
  const Object& o = *root;
  FieldReader r(o, "");
  RedisCluster rc;
  rc.apiVersion = r.str("apiVersion");
  rc.kind = r.str("kind");
  Object md = r.object("metadata");
  rc.metadata = md.is_object() ? std::move(md) : Object::object();
  if (!r.ok()) return *r.error();
  auto spec = readSpec(member(o, "spec"), root);
  if (!spec) return spec.error();
  auto status = readStatus(member(o, "status"), root);
  if (!status) return status.error();
  rc.spec = std::move(spec).value();
  rc.status = std::move(status).value();
  rc.original = std::move(root);
  return rc;
}

Result<RedisClusterStatus> parseStoredStatus(std::shared_ptr<const Object> root) {
  if (!root || !root->is_object()) return jsonf::notAnObject("");
  return readStatus(member(*root, "status"), root);
}

Object toObject(const Condition& c) {
  const Object* orig = ptr(c.original);
  // Most conditions are as they were read: copied whole, not rebuilt member by member.
  if (orig && conditionReadsBack(c, *orig)) return *orig;
  Object out = jsonf::carryOver(orig, kConditionKeys);
  jsonf::putStr(out, orig, "type", c.type);
  jsonf::putStr(out, orig, "status", c.status);
  jsonf::putStr(out, orig, "lastUpdateTime", c.lastUpdateTime);
  jsonf::putStr(out, orig, "lastTransitionTime", c.lastTransitionTime);
  jsonf::putStr(out, orig, "reason", c.reason);
  jsonf::putStr(out, orig, "message", c.message);
  return out;
}

Object toObject(const RedisClusterSpec& s) {
  const Object* orig = ptr(s.original);
  Object out = jsonf::carryOver(orig, kSpecKeys);
  jsonf::putInt(out, orig, "size", s.size);
  jsonf::putJson(out, "resources", s.resources);
  jsonf::putStr(out, orig, "image", s.image);
  jsonf::putStr(out, orig, "imagePullPolicy", s.imagePullPolicy);
  jsonf::putJson(out, "imagePullSecrets", s.imagePullSecrets);
  jsonf::putStrings(out, orig, "command", s.command);
  jsonf::putStr(out, orig, "shutdownConfigMap", s.shutdownConfigMap);
  jsonf::putObject(out, orig, "storage", writeStorage(s.storage));
  jsonf::putStr(out, orig, "password", s.password);
  jsonf::putObject(out, orig, "exporter", writeExporter(s.exporter));
  jsonf::putJson(out, "affinity", s.affinity);
  jsonf::putJson(out, "securityContext", s.securityContext);
  jsonf::putJson(out, "toleRations", s.tolerations);
  jsonf::putStringMap(out, orig, "nodeSelector", s.nodeSelector);
  jsonf::putStringMap(out, orig, "config", s.config);
  jsonf::putStringMap(out, orig, "annotations", s.annotations);
  jsonf::putBool(out, orig, "disablePersistence", s.disablePersistence);
  jsonf::putObject(out, orig, "sentinel", writeSentinel(s.sentinel));
  return out;
}

Object toObject(const RedisClusterStatus& s) {
  const Object* orig = ptr(s.original);
  Object out = jsonf::carryOver(orig, kStatusKeys);
  const bool hadConditions = orig && !member(*orig, "conditions").is_null();
  if (!s.conditions.empty() || hadConditions) {
    Object conds = Object::array();
    for (const auto& c : s.conditions) conds.push_back(toObject(c));
    out["conditions"] = std::move(conds);
  }
  jsonf::putStr(out, orig, "masterIP", s.masterIP);
  jsonf::putStr(out, orig, "sentinelIP", s.sentinelIP);
  jsonf::putInt(out, orig, "observedGeneration", s.observedGeneration);
  if (s.acceptedSpec) out["acceptedSpec"] = *s.acceptedSpec;
  return out;
}

Object toObject(const RedisCluster& rc) {
  const Object* orig = ptr(rc.original);
  Object out = jsonf::carryOver(orig, kTopKeys);
  out["apiVersion"] = rc.apiVersion.empty() ? std::string(kApiVersion) : rc.apiVersion;
  out["kind"] = rc.kind.empty() ? std::string(kKind) : rc.kind;
  out["metadata"] = rc.metadata.is_object() ? rc.metadata : Object::object();
  out["spec"] = toObject(rc.spec);
  jsonf::putObject(out, orig, "status", toObject(rc.status));
  return out;
}

const Condition* findCondition(const RedisClusterStatus& s, std::string_view type) {
  for (const auto& c : s.conditions)
    if (c.type == type) return &c;
  return nullptr;
}

Condition* findCondition(RedisClusterStatus& s, std::string_view type) {
  for (auto& c : s.conditions)
    if (c.type == type) return &c;
  return nullptr;
}

}  // namespace kun::api
