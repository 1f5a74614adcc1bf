#include "core/api/redis_cluster_types.h"

#include <fmt/format.h>

#include "core/api/json_fields.h"

namespace kun::api {

using jsonf::FieldReader;

namespace {

Object originalOf(const Object& o) { return o.is_object() ? o : Object(); }

RedisExporter readExporter(FieldReader& parent) {
  const std::string path = parent.pathOf("exporter");
  const Object& o = parent.sub("exporter");
  FieldReader r(o, path);
  RedisExporter e;
  e.enabled = r.boolean("enabled");
  e.image = r.str("image");
  e.imagePullPolicy = r.str("imagePullPolicy");
  e.original = originalOf(o);
  parent.merge(r.error());
  return e;
}

RedisStorage readStorage(FieldReader& parent) {
  const std::string path = parent.pathOf("storage");
  const Object& o = parent.sub("storage");
  FieldReader r(o, path);
  RedisStorage s;
  s.keepAfterDeletion = r.boolean("keepAfterDeletion");
  s.emptyDir = r.object("emptyDir");
  s.persistentVolumeClaim = r.object("persistentVolumeClaim");
  s.original = originalOf(o);
  parent.merge(r.error());
  return s;
}

SentinelSettings readSentinel(FieldReader& parent) {
  const std::string path = parent.pathOf("sentinel");
  const Object& o = parent.sub("sentinel");
  FieldReader r(o, path);
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
  s.original = originalOf(o);
  parent.merge(r.error());
  return s;
}

RedisClusterSpec readSpec(const Object& o, FieldReader& r) {
  RedisClusterSpec s;
  s.size = r.int32("size");
  s.resources = r.object("resources");
  s.image = r.str("image");
  s.imagePullPolicy = r.str("imagePullPolicy");
  s.imagePullSecrets = r.array("imagePullSecrets");
  s.command = r.strings("command");
  s.shutdownConfigMap = r.str("shutdownConfigMap");
  s.storage = readStorage(r);
  s.password = r.str("password");
  s.exporter = readExporter(r);
  s.affinity = r.object("affinity");
  s.securityContext = r.object("securityContext");
  s.tolerations = r.array("toleRations");
  s.nodeSelector = r.stringMap("nodeSelector");
  s.config = r.stringMap("config");
  s.annotations = r.stringMap("annotations");
  s.disablePersistence = r.boolean("disablePersistence");
  s.sentinel = readSentinel(r);
  s.original = originalOf(o);
  return s;
}

RedisClusterStatus readStatus(const Object& o, const std::string& path, FieldReader& r) {
  RedisClusterStatus s;
  Object conds = r.array("conditions");
  if (conds.is_array()) {
    for (std::size_t i = 0; i < conds.size(); ++i) {
      const std::string cpath = fmt::format("{}.conditions[{}]", path, i);
      const Object& c = conds[i];
      if (!c.is_object()) {
        r.merge(jsonf::notAnObject(cpath));
        break;
      }
      FieldReader cr(c, cpath);
      Condition cond;
      cond.type = cr.str("type");
      cond.status = cr.str("status");
      cond.lastUpdateTime = cr.str("lastUpdateTime");
      cond.lastTransitionTime = cr.str("lastTransitionTime");
      cond.reason = cr.str("reason");
      cond.message = cr.str("message");
      cond.original = c;
      r.merge(cr.error());
      s.conditions.push_back(std::move(cond));
    }
  }
  s.masterIP = r.str("masterIP");
  s.sentinelIP = r.str("sentinelIP");
  s.observedGeneration = r.int64("observedGeneration");
  s.original = originalOf(o);
  return s;
}

Object writeExporter(const RedisExporter& e) {
  Object out = e.original;
  jsonf::putBool(out, "enabled", e.enabled);
  jsonf::putStr(out, "image", e.image);
  jsonf::putStr(out, "imagePullPolicy", e.imagePullPolicy);
  return out;
}

Object writeStorage(const RedisStorage& s) {
  Object out = s.original;
  jsonf::putBool(out, "keepAfterDeletion", s.keepAfterDeletion);
  jsonf::putJson(out, "emptyDir", s.emptyDir);
  jsonf::putJson(out, "persistentVolumeClaim", s.persistentVolumeClaim);
  return out;
}

Object writeSentinel(const SentinelSettings& s) {
  Object out = s.original;
  jsonf::putStr(out, "image", s.image);
  jsonf::putStr(out, "imagePullPolicy", s.imagePullPolicy);
  jsonf::putJson(out, "imagePullSecrets", s.imagePullSecrets);
  jsonf::putInt(out, "replicas", s.replicas);
  jsonf::putJson(out, "resources", s.resources);
  jsonf::putStrings(out, "customConfig", s.customConfig);
  jsonf::putStrings(out, "command", s.command);
  jsonf::putJson(out, "affinity", s.affinity);
  jsonf::putJson(out, "securityContext", s.securityContext);
  jsonf::putJson(out, "tolerations", s.tolerations);
  jsonf::putStringMap(out, "nodeSelector", s.nodeSelector);
  jsonf::putStringMap(out, "annotations", s.annotations);
  return out;
}

}  // namespace

std::string RedisCluster::name() const {
  auto it = metadata.find("name");
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::string RedisCluster::namespaceOf() const {
  auto it = metadata.find("namespace");
  return it != metadata.end() && it->is_string() ? it->get<std::string>() : std::string();
}

std::int64_t RedisCluster::generation() const {
  auto it = metadata.find("generation");
  return it != metadata.end() && it->is_number_integer() ? it->get<std::int64_t>() : 0;
}

Result<RedisClusterSpec> parseRedisClusterSpec(const Object& spec) {
  if (!spec.is_null() && !spec.is_object()) return jsonf::notAnObject("spec");
  FieldReader r(spec, "spec");
  RedisClusterSpec s = readSpec(spec, r);
  if (!r.ok()) return *r.error();
  return s;
}

Result<RedisClusterStatus> parseRedisClusterStatus(const Object& status) {
  if (!status.is_null() && !status.is_object()) return jsonf::notAnObject("status");
  FieldReader r(status, "status");
  RedisClusterStatus s = readStatus(status, "status", r);
  if (!r.ok()) return *r.error();
  return s;
}

Result<RedisCluster> parseRedisCluster(const Object& o) {
  if (!o.is_object()) return jsonf::notAnObject("");
  FieldReader r(o, "");
  RedisCluster rc;
  rc.apiVersion = r.str("apiVersion");
  rc.kind = r.str("kind");
  Object md = r.object("metadata");
  rc.metadata = md.is_object() ? std::move(md) : Object::object();
  if (!r.ok()) return *r.error();
  auto spec = parseRedisClusterSpec(o.contains("spec") ? o.at("spec") : Object());
  if (!spec) return spec.error();
  auto status = parseRedisClusterStatus(o.contains("status") ? o.at("status") : Object());
  if (!status) return status.error();
  rc.spec = std::move(spec).value();
  rc.status = std::move(status).value();
  rc.original = o;
  return rc;
}

Object toObject(const Condition& c) {
  Object out = c.original;
  jsonf::putStr(out, "type", c.type);
  jsonf::putStr(out, "status", c.status);
  jsonf::putStr(out, "lastUpdateTime", c.lastUpdateTime);
  jsonf::putStr(out, "lastTransitionTime", c.lastTransitionTime);
  jsonf::putStr(out, "reason", c.reason);
  jsonf::putStr(out, "message", c.message);
  return out.is_null() ? Object::object() : out;
}

Object toObject(const RedisClusterSpec& s) {
  Object out = s.original.is_object() ? s.original : Object::object();
  jsonf::putInt(out, "size", s.size);
  jsonf::putJson(out, "resources", s.resources);
  jsonf::putStr(out, "image", s.image);
  jsonf::putStr(out, "imagePullPolicy", s.imagePullPolicy);
  jsonf::putJson(out, "imagePullSecrets", s.imagePullSecrets);
  jsonf::putStrings(out, "command", s.command);
  jsonf::putStr(out, "shutdownConfigMap", s.shutdownConfigMap);
  jsonf::putObject(out, "storage", writeStorage(s.storage));
  jsonf::putStr(out, "password", s.password);
  jsonf::putObject(out, "exporter", writeExporter(s.exporter));
  jsonf::putJson(out, "affinity", s.affinity);
  jsonf::putJson(out, "securityContext", s.securityContext);
  jsonf::putJson(out, "toleRations", s.tolerations);
  jsonf::putStringMap(out, "nodeSelector", s.nodeSelector);
  jsonf::putStringMap(out, "config", s.config);
  jsonf::putStringMap(out, "annotations", s.annotations);
  jsonf::putBool(out, "disablePersistence", s.disablePersistence);
  jsonf::putObject(out, "sentinel", writeSentinel(s.sentinel));
  return out;
}

Object toObject(const RedisClusterStatus& s) {
  Object out = s.original.is_object() ? s.original : Object::object();
  if (!s.conditions.empty() || (out.contains("conditions") && !out["conditions"].is_null())) {
    Object conds = Object::array();
    for (const auto& c : s.conditions) conds.push_back(toObject(c));
    out["conditions"] = std::move(conds);
  }
  jsonf::putStr(out, "masterIP", s.masterIP);
  jsonf::putStr(out, "sentinelIP", s.sentinelIP);
  jsonf::putInt(out, "observedGeneration", s.observedGeneration);
  return out;
}

Object toObject(const RedisCluster& rc) {
  Object out = rc.original.is_object() ? rc.original : Object::object();
  out["apiVersion"] = rc.apiVersion.empty() ? std::string(kApiVersion) : rc.apiVersion;
  out["kind"] = rc.kind.empty() ? std::string(kKind) : rc.kind;
  out["metadata"] = rc.metadata.is_object() ? rc.metadata : Object::object();
  out["spec"] = toObject(rc.spec);
  Object status = toObject(rc.status);
  jsonf::putObject(out, "status", std::move(status));
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
