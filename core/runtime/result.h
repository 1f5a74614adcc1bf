#pragma once
// Errors as values. Every seam (KubeClient, RedisAdmin, ...) returns Result<T>; no
// exception crosses a seam. The reason is what callers switch on.
#include <cassert>
#include <string>
#include <string_view>
#include <utility>
#include <variant>

namespace kun {

enum class Reason {
  NotFound,
  AlreadyExists,
  Conflict,
  Invalid,          // field says which
  Gone,             // watch resourceVersion too old
  Forbidden,
  Unauthorized,
  TooManyRequests,  // retryAfterSeconds may be set
  Unavailable,      // 503, connection refused, network cut
  Timeout,
  BadRequest,
  Auth,             // Redis NOAUTH / WRONGPASS
  Internal,
};

std::string_view reasonName(Reason r);
// The HTTP status code Kubernetes uses for this reason (404, 409, 422, 410, ...).
int httpStatusFor(Reason r);

struct Error {
  Reason reason = Reason::Internal;
  std::string message;
  std::string field;           // for Invalid: the offending field path, e.g. metadata.name
  int retryAfterSeconds = 0;   // for TooManyRequests
  std::string toString() const;
};

inline Error makeError(Reason r, std::string message, std::string field = {}) {
  return Error{r, std::move(message), std::move(field), 0};
}

template <class T>
class [[nodiscard]] Result {
 public:
  Result(T value) : v_(std::move(value)) {}
  Result(Error error) : v_(std::move(error)) {}

  bool ok() const { return v_.index() == 0; }
  explicit operator bool() const { return ok(); }

  T& value() & { assert(ok()); return std::get<0>(v_); }
  const T& value() const& { assert(ok()); return std::get<0>(v_); }
  T&& value() && { assert(ok()); return std::get<0>(std::move(v_)); }
  T* operator->() { return &value(); }
  const T* operator->() const { return &value(); }
  T& operator*() & { return value(); }
  const T& operator*() const& { return value(); }

  const Error& error() const { assert(!ok()); return std::get<1>(v_); }
  bool is(Reason r) const { return !ok() && error().reason == r; }

 private:
  std::variant<T, Error> v_;
};

template <>
class [[nodiscard]] Result<void> {
 public:
  Result() = default;
  Result(Error error) : err_(std::move(error)), ok_(false) {}
  bool ok() const { return ok_; }
  explicit operator bool() const { return ok_; }
  const Error& error() const { assert(!ok_); return err_; }
  bool is(Reason r) const { return !ok_ && err_.reason == r; }

 private:
  Error err_;
  bool ok_ = true;
};

using Status = Result<void>;

}  // namespace kun
