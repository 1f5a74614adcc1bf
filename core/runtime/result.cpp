#include "core/runtime/result.h"

namespace kun {

std::string_view reasonName(Reason r) {
  switch (r) {
    case Reason::NotFound: return "NotFound";
    case Reason::AlreadyExists: return "AlreadyExists";
    case Reason::Conflict: return "Conflict";
    case Reason::Invalid: return "Invalid";
    case Reason::Gone: return "Gone";
    case Reason::Forbidden: return "Forbidden";
    case Reason::Unauthorized: return "Unauthorized";
    case Reason::TooManyRequests: return "TooManyRequests";
    case Reason::Unavailable: return "ServiceUnavailable";
    case Reason::Timeout: return "Timeout";
    case Reason::BadRequest: return "BadRequest";
    case Reason::Auth: return "Auth";
    case Reason::Internal: return "InternalError";
  }
  return "Unknown";
}

int httpStatusFor(Reason r) {
  switch (r) {
    case Reason::NotFound: return 404;
    case Reason::AlreadyExists: return 409;
    case Reason::Conflict: return 409;
    case Reason::Invalid: return 422;
    case Reason::Gone: return 410;
    case Reason::Forbidden: return 403;
    case Reason::Unauthorized: return 401;
    case Reason::TooManyRequests: return 429;
    case Reason::Unavailable: return 503;
    case Reason::Timeout: return 504;
    case Reason::BadRequest: return 400;
    case Reason::Auth: return 401;
    case Reason::Internal: return 500;
  }
  return 500;
}

std::string Error::toString() const {
  std::string s(reasonName(reason));
  if (!field.empty()) s += " (" + field + ")";
  if (!message.empty()) s += ": " + message;
  return s;
}

}  // namespace kun
