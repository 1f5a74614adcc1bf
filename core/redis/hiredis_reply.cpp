#include "core/redis/hiredis_reply.h"

#include <hiredis/hiredis.h>

#include <memory>

namespace kun {

RedisReply fromHiredis(const redisReply& r) {
  switch (r.type) {
    case REDIS_REPLY_STATUS: return RedisReply::status(std::string(r.str, r.len));
    case REDIS_REPLY_ERROR: return RedisReply::error(std::string(r.str, r.len));
    case REDIS_REPLY_INTEGER: return RedisReply::integerReply(r.integer);
    case REDIS_REPLY_STRING: return RedisReply::bulk(std::string(r.str, r.len));
    case REDIS_REPLY_ARRAY: {
      std::vector<RedisReply> e;
      e.reserve(r.elements);
      for (size_t i = 0; i < r.elements; ++i) e.push_back(fromHiredis(*r.element[i]));
      return RedisReply::array(std::move(e));
    }
    case REDIS_REPLY_NIL:
    default: return RedisReply::nil();
  }
}

Result<std::vector<RedisReply>> decodeResp(std::string_view bytes) {
  std::unique_ptr<redisReader, decltype(&redisReaderFree)> reader(redisReaderCreate(),
                                                                  &redisReaderFree);
  if (!reader) return makeError(Reason::Internal, "out of memory creating a RESP reader");
  if (redisReaderFeed(reader.get(), bytes.data(), bytes.size()) != REDIS_OK) {
    return makeError(Reason::Invalid, "RESP: " + std::string(reader->errstr));
  }
  std::vector<RedisReply> out;
  for (;;) {
    void* raw = nullptr;
    if (redisReaderGetReply(reader.get(), &raw) != REDIS_OK) {
      return makeError(Reason::Invalid, "RESP: " + std::string(reader->errstr));
    }
    if (raw == nullptr) break;
    out.push_back(fromHiredis(*static_cast<redisReply*>(raw)));
    freeReplyObject(raw);
  }
  // Input that stopped inside a reply leaves bytes unread or a reply under construction
  // (a fresh, empty read task has type -1).
  const bool midReply = reader->ridx > 0 || (reader->ridx == 0 && reader->rstack[0].type >= 0);
  if (reader->pos < reader->len || midReply) {
    return makeError(Reason::Invalid, "RESP: input ends in the middle of a reply");
  }
  return out;
}

}  // namespace kun
