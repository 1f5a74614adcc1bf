#pragma once
// Redis configuration values as Redis compares them: memory units in bytes, yes/no and
// enum values in lower case, whitespace collapsed, so "100mb" in a spec equals Redis'
// "104857600". The reconciler (heal_config) and the harness (config-applied) use the same
// rule, so they agree on what "applied" means.
#include <string>
#include <string_view>

namespace kun::rediscluster {

std::string lowerCase(std::string s);
std::string normalizedConfigValue(const std::string& value);
bool sameConfigValue(const std::string& a, const std::string& b);
// Redis 7 calls slave-* replica-*; CONFIG GET may answer under either name. "" when the
// key has no other spelling.
std::string otherConfigSpelling(const std::string& key);
// replica-priority or slave-priority, in any case: what the operator holds at 0 on a node
// until it has the data (renderRedisConf, healConfig).
bool isReplicaPriority(std::string_view key);

}  // namespace kun::rediscluster
