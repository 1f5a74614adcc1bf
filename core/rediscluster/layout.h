#pragma once
// The fixed parts of a RedisCluster's pods that the generator, the checks and the heals
// must agree on: ports, the Sentinel master name, container names, ConfigMap and Secret
// keys, volumes and where they are mounted. Values are KUN's unless marked "not in KUN".
#include <cstdint>
#include <string_view>

namespace kun::rediscluster::layout {

inline constexpr std::int32_t kRedisPort = 6379;
inline constexpr std::int32_t kSentinelPort = 26379;
inline constexpr std::int32_t kExporterPort = 9121;
inline constexpr std::string_view kRedisPortName = "redis";
inline constexpr std::string_view kSentinelPortName = "sentinel";
inline constexpr std::string_view kExporterPortName = "http-metrics";

// The name every sentinel monitors the master under.
inline constexpr std::string_view kMasterName = "mymaster";

inline constexpr std::string_view kRedisContainer = "redis";
inline constexpr std::string_view kSentinelContainer = "sentinel";
inline constexpr std::string_view kSentinelInitContainer = "sentinel-config-copy";
inline constexpr std::string_view kExporterContainer = "redis-exporter";

// Keys of the generated ConfigMaps and of the auth Secret.
inline constexpr std::string_view kRedisConfKey = "redis.conf";
inline constexpr std::string_view kRedisReadinessKey = "readiness.sh";  // not in KUN
inline constexpr std::string_view kRedisLivenessKey = "liveness.sh";    // not in KUN
inline constexpr std::string_view kSentinelConfKey = "sentinel.conf";
inline constexpr std::string_view kSentinelReadinessKey = "readiness.sh";
inline constexpr std::string_view kShutdownKey = "shutdown.sh";
inline constexpr std::string_view kAuthConfKey = "auth.conf";  // not in KUN
inline constexpr std::string_view kPasswordKey = "password";   // not in KUN
inline constexpr std::string_view kPreviousPasswordKey = "previous-password";  // during a change

// Redis pods.
inline constexpr std::string_view kRedisConfigVolume = "redis-config";  // not in KUN
inline constexpr std::string_view kRedisConfigPath = "/redis";
inline constexpr std::string_view kAuthVolume = "redis-auth";  // not in KUN
inline constexpr std::string_view kAuthPath = "/redis-auth";
inline constexpr std::string_view kShutdownVolume = "redis-shutdown-config";
inline constexpr std::string_view kShutdownPath = "/redis-shutdown";
inline constexpr std::string_view kDataPath = "/data";

// Sentinel pods: an init container copies sentinel.conf from the ConfigMap into an
// emptyDir, because Sentinel rewrites its config file and ConfigMap volumes are read-only.
inline constexpr std::string_view kSentinelConfigVolume = "sentinel-config";
inline constexpr std::string_view kSentinelConfigPath = "/redis";  // in the init container
inline constexpr std::string_view kSentinelWritableVolume = "sentinel-config-writable";
inline constexpr std::string_view kSentinelWritableInitPath = "/redis-writable";
inline constexpr std::string_view kSentinelWritablePath = "/redis";  // in the sentinel container
inline constexpr std::string_view kSentinelProbeVolume = "readiness-probe";
inline constexpr std::string_view kSentinelProbePath = "/redis-probe";

// redis-cli reads the password from this variable, so it is never an argument.
inline constexpr std::string_view kRedisCliAuthEnv = "REDISCLI_AUTH";
// The pod's IP (downward API), which the preStop hook compares with the master's address.
inline constexpr std::string_view kPodIpEnv = "POD_IP";  // not in KUN
// The redis_exporter's password variable (KUN sets it to the password in clear text; here
// it comes from the Secret).
inline constexpr std::string_view kExporterPasswordEnv = "REDIS_PASSWORD";

}  // namespace kun::rediscluster::layout
