#include "core/redis/redis_admin.h"

namespace kun {

std::string RedisReply::errorCode() const {
  if (type != Type::Error) return {};
  auto sp = str.find(' ');
  return str.substr(0, sp);
}

}  // namespace kun
