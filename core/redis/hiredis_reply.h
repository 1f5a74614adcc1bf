#pragma once
// hiredis's redisReply -> kun::RedisReply, and raw RESP bytes -> replies through hiredis's
// own reader (used by the tests to read replies captured from real servers).
#include <string_view>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"

struct redisReply;

namespace kun {

RedisReply fromHiredis(const redisReply& r);

// Every complete reply in `bytes`, in order. Invalid if the bytes are not RESP or end in
// the middle of a reply.
Result<std::vector<RedisReply>> decodeResp(std::string_view bytes);

}  // namespace kun
