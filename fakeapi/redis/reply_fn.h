#pragma once
// What a client runs when the reply to its request arrives: a move-only callable taking
// the reply, with room for its captures inside the object. It was a std::function, which
// keeps 16 bytes inline: Sentinel's reply handler (the instance's id, the link generation
// and what to do with the reply) went to the heap on every command it sent.
#include "core/redis/redis_admin.h"
#include "core/runtime/task.h"

namespace kun::redissim {

using ReplyFn = InlineFunction<void(RedisReply&&), 64>;

}  // namespace kun::redissim
