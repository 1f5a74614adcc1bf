#include "core/operator/metrics_clients.h"

#include "core/redis/counting_redis_admin.h"

namespace kun {

void MetricsKubeClient::enter(std::string_view verb, const Resource& r, bool write) {
  if (write) metrics_.apiWrite(verb, r.groupResource());
}

Result<RedisReply> MetricsRedisAdmin::command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                              std::string_view password) {
  // Counted when sent, whatever the answer, as CountingRedisAdmin counts.
  if (isStateChanging(argv)) metrics_.redisStateChange(redisCommandName(argv));
  return inner_.command(to, argv, password);
}

}  // namespace kun
