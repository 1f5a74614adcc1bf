#pragma once
// A 429's Retry-After is the server saying when to come back; client-go's REST client
// waits it out itself before a caller sees the error. So callers that retry (the work
// queue, informers) wait exactly that, without growing their own back-off.
#include <optional>

#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun {

inline std::optional<Duration> serverRetryAfter(const Error& e) {
  if (e.reason != Reason::TooManyRequests || e.retryAfterSeconds <= 0) return std::nullopt;
  return seconds(e.retryAfterSeconds);
}

}  // namespace kun
