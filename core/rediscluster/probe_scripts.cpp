#include "core/rediscluster/probe_scripts.h"

#include <fmt/format.h>

#include "core/rediscluster/layout.h"
#include "core/rediscluster/names.h"

namespace kun::rediscluster {

namespace {

// Sets REDISCLI_AUTH from the Secret file when there is a password.
std::string loadPassword() {
  return fmt::format(
      "if [ -r {dir}/{key} ]; then\n"
      "  {env}=\"$(cat {dir}/{key})\"\n"
      "  export {env}\n"
      "fi\n",
      fmt::arg("dir", layout::kAuthPath), fmt::arg("key", layout::kPasswordKey),
      fmt::arg("env", layout::kRedisCliAuthEnv));
}

}  // namespace

std::string redisReadinessScript() {
  return "#!/bin/sh\n"
         "# Ready = usable: not loading, and master or an in-sync replica.\n" +
         loadPassword() +
         fmt::format("info=\"$(redis-cli -h 127.0.0.1 -p {} info 2>/dev/null)\" || exit 1\n",
                     layout::kRedisPort) +
         "has() { printf '%s\\n' \"$info\" | grep -q \"^$1\"; }\n"
         "has 'loading:0' || exit 1\n"
         "has 'role:master' && exit 0\n"
         "has 'role:slave' || exit 1\n"
         "has 'master_link_status:up' || exit 1\n"
         "has 'master_sync_in_progress:0' || exit 1\n"
         "exit 0\n";
}

std::string redisLivenessScript() {
  return fmt::format(
      "#!/bin/sh\n"
      "# Alive = the server answers, whatever the answer.\n"
      "unset {env}\n"
      "reply=\"$(redis-cli -h 127.0.0.1 -p {port} ping 2>/dev/null)\" || exit 1\n"
      "[ -n \"$reply\" ]\n",
      fmt::arg("env", layout::kRedisCliAuthEnv), fmt::arg("port", layout::kRedisPort));
}

std::string sentinelReadinessScript() {
  return fmt::format(
      "#!/bin/sh\n"
      "# Ready = monitors the real master (not the 127.0.0.1 placeholder) and knows a replica.\n"
      "unset {env}\n"
      "info=\"$(redis-cli -h 127.0.0.1 -p {port} info sentinel 2>/dev/null)\" || exit 1\n"
      "line=\"$(printf '%s\\n' \"$info\" | grep '^master0:')\" || exit 1\n"
      "case \"$line\" in *address=127.0.0.1:{rport},*) exit 1 ;; esac\n"
      "replicas=\"$(printf '%s\\n' \"$line\" | sed -n 's/.*slaves=\\([0-9]*\\).*/\\1/p')\"\n"
      "[ \"${{replicas:-0}}\" -ge 1 ]\n",
      fmt::arg("env", layout::kRedisCliAuthEnv), fmt::arg("port", layout::kSentinelPort),
      fmt::arg("rport", layout::kRedisPort));
}

std::string shutdownScript(std::string_view cluster, bool persistence) {
  std::string s = "#!/bin/sh\n"
                  "# preStop: move the master role away before this pod stops.\n";
  s += loadPassword();
  // Sentinels have no password: keep the redis password away from them.
  s += fmt::format(
      "sentinel() {{ (unset {env}; redis-cli -h {host} -p {sport} \"$@\"); }}\n"
      "master() {{ sentinel --csv SENTINEL get-master-addr-by-name {m} 2>/dev/null | tr ',' ' ' | tr -d '\"' "
      "| cut -d' ' -f1; }}\n"
      "if [ -n \"${pod_ip}\" ] && [ \"$(master)\" = \"${pod_ip}\" ]; then\n"
      "  sentinel SENTINEL failover {m}\n"
      "  i=0\n"
      "  while [ $i -lt 10 ] && [ \"$(master)\" = \"${pod_ip}\" ]; do\n"
      "    sleep 1\n"
      "    i=$((i + 1))\n"
      "  done\n"
      "fi\n",
      fmt::arg("env", layout::kRedisCliAuthEnv), fmt::arg("host", names::sentinel(cluster)),
      fmt::arg("sport", layout::kSentinelPort), fmt::arg("m", layout::kMasterName),
      fmt::arg("pod_ip", layout::kPodIpEnv));
  if (persistence) s += fmt::format("redis-cli -h 127.0.0.1 -p {} SAVE\n", layout::kRedisPort);
  return s;
}

}  // namespace kun::rediscluster
