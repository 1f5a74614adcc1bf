#include "core/redis/reply_error.h"

#include <string>

namespace kun {

std::string_view replyTypeName(RedisReply::Type t) {
  switch (t) {
    case RedisReply::Type::Status: return "status";
    case RedisReply::Type::Error: return "error";
    case RedisReply::Type::Integer: return "integer";
    case RedisReply::Type::String: return "string";
    case RedisReply::Type::Nil: return "nil";
    case RedisReply::Type::Array: return "array";
  }
  return "unknown";
}

Error errorFromReply(const RedisReply& reply) {
  const std::string code = reply.errorCode();
  if (code == "NOAUTH" || code == "WRONGPASS") return makeError(Reason::Auth, reply.str);
  if (reply.str.find("No such master") != std::string::npos) {
    return makeError(Reason::NotFound, reply.str);
  }
  return makeError(Reason::Internal, reply.str);
}

Error unexpectedReply(std::string_view what, std::string_view expected, const RedisReply& got) {
  if (got.isError()) return errorFromReply(got);
  return makeError(Reason::Invalid, std::string(what) + ": expected " + std::string(expected) +
                                        ", got " + std::string(replyTypeName(got.type)));
}

}  // namespace kun
