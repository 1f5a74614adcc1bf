#pragma once
// How a RESP Error reply, or a reply of the wrong shape, becomes a kun::Error for callers
// that expected data (parsers, typed helpers). A raw RedisAdmin::command keeps Error
// replies as replies.
#include <string_view>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"

namespace kun {

// NOAUTH / WRONGPASS -> Auth; "ERR No such master" -> NotFound; others -> Internal.
Error errorFromReply(const RedisReply& reply);

// Invalid, naming what was expected: "ROLE: expected an array, got integer".
Error unexpectedReply(std::string_view what, std::string_view expected, const RedisReply& got);

std::string_view replyTypeName(RedisReply::Type t);

}  // namespace kun
