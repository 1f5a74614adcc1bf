// The auth Secret: the one object that holds the password. redis.conf includes auth.conf
// from it; probes, the preStop hook and the exporter read `password` from it. It exists
// even without a password, so that setting, changing or removing the password changes
// this Secret alone: no pod template changes and no pod restarts (the operator applies
// the new password at runtime, masterauth before requirepass). While it does, the old
// password stays here too (previous-password), the one record that survives an operator
// restart; nothing reads it but the operator.
#include "core/rediscluster/base64.h"
#include "core/rediscluster/config_files.h"
#include "core/rediscluster/generate.h"
#include "core/rediscluster/generate_common.h"
#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"

namespace kun::rediscluster {

Object authSecret(const api::RedisCluster& rc, const GenerateOptions& opts) {
  Object data{{std::string(layout::kAuthConfKey), base64Encode(renderAuthConf(rc.spec.password))}};
  if (!rc.spec.password.empty())
    data[std::string(layout::kPasswordKey)] = base64Encode(rc.spec.password);
  if (!opts.previousPassword.empty() && opts.previousPassword != rc.spec.password)
    data[std::string(layout::kPreviousPasswordKey)] = base64Encode(opts.previousPassword);
  return Object{{"apiVersion", "v1"},
                {"kind", "Secret"},
                {"metadata", detail::objectMeta(rc, names::auth(rc.name()), Component::Redis)},
                {"type", "Opaque"},
                {"data", std::move(data)}};
}

}  // namespace kun::rediscluster
