#include "core/redis/per_thread_redis_admin.h"

namespace kun {

RedisAdmin& PerThreadRedisAdmin::mine() {
  const std::thread::id self = std::this_thread::get_id();
  std::lock_guard lock(mu_);
  auto& slot = byThread_[self];
  if (!slot) slot = make_();
  return *slot;
}

Result<RedisReply> PerThreadRedisAdmin::command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                                                std::string_view password) {
  return mine().command(to, argv, password);
}

std::size_t PerThreadRedisAdmin::instances() const {
  std::lock_guard lock(mu_);
  return byThread_.size();
}

}  // namespace kun
