#include <gtest/gtest.h>

#include <memory>

#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun {
namespace {

TEST(Result, HoldsAValue) {
  Result<int> r = 7;
  ASSERT_TRUE(r.ok());
  EXPECT_TRUE(static_cast<bool>(r));
  EXPECT_EQ(*r, 7);
  EXPECT_EQ(r.value(), 7);
  EXPECT_FALSE(r.is(Reason::NotFound));
}

TEST(Result, HoldsAnError) {
  Result<std::string> r = makeError(Reason::Invalid, "bad name", "metadata.name");
  ASSERT_FALSE(r.ok());
  EXPECT_TRUE(r.is(Reason::Invalid));
  EXPECT_FALSE(r.is(Reason::Conflict));
  EXPECT_EQ(r.error().message, "bad name");
  EXPECT_EQ(r.error().field, "metadata.name");
  EXPECT_EQ(r.error().toString(), "Invalid (metadata.name): bad name");
}

TEST(Result, MovesOutMoveOnlyValues) {
  Result<std::unique_ptr<int>> r = std::make_unique<int>(3);
  std::unique_ptr<int> p = std::move(r).value();
  ASSERT_TRUE(p);
  EXPECT_EQ(*p, 3);
}

TEST(Result, ArrowReachesMembers) {
  Result<std::string> r = std::string("abc");
  EXPECT_EQ(r->size(), 3u);
}

TEST(Status, OkAndError) {
  Status ok;
  EXPECT_TRUE(ok.ok());
  Status bad = makeError(Reason::Gone, "too old");
  EXPECT_FALSE(bad.ok());
  EXPECT_TRUE(bad.is(Reason::Gone));
  EXPECT_EQ(bad.error().toString(), "Gone: too old");
}

TEST(Error, ToStringWithoutMessage) {
  EXPECT_EQ(makeError(Reason::NotFound, "").toString(), "NotFound");
  EXPECT_EQ(Error{}.toString(), "InternalError");
}

TEST(Reason, KubernetesNamesAndStatusCodes) {
  struct Row {
    Reason r;
    const char* name;
    int code;
  };
  for (const Row& row : {Row{Reason::NotFound, "NotFound", 404}, Row{Reason::AlreadyExists, "AlreadyExists", 409},
                         Row{Reason::Conflict, "Conflict", 409}, Row{Reason::Invalid, "Invalid", 422},
                         Row{Reason::Gone, "Gone", 410}, Row{Reason::Forbidden, "Forbidden", 403},
                         Row{Reason::Unauthorized, "Unauthorized", 401},
                         Row{Reason::TooManyRequests, "TooManyRequests", 429},
                         Row{Reason::Unavailable, "ServiceUnavailable", 503}, Row{Reason::Timeout, "Timeout", 504},
                         Row{Reason::BadRequest, "BadRequest", 400}, Row{Reason::Auth, "Auth", 401},
                         Row{Reason::Internal, "InternalError", 500}}) {
    EXPECT_EQ(reasonName(row.r), row.name);
    EXPECT_EQ(httpStatusFor(row.r), row.code) << row.name;
  }
}

TEST(Time, FormatLoopTime) {
  EXPECT_EQ(formatLoopTime(TimePoint{}), "0.000s");
  EXPECT_EQ(formatLoopTime(TimePoint(microseconds(12345678))), "12.345s");  // truncated, not rounded
  EXPECT_EQ(formatLoopTime(TimePoint(milliseconds(5))), "0.005s");
  EXPECT_EQ(formatLoopTime(TimePoint(hours(2))), "7200.000s");
}

TEST(Time, FormatRfc3339) {
  EXPECT_EQ(formatRfc3339(0), "1970-01-01T00:00:00Z");
  EXPECT_EQ(formatRfc3339(1767225600LL * 1000000), "2026-01-01T00:00:00Z");
  EXPECT_EQ(formatRfc3339(1767225600LL * 1000000 + 86399999999LL), "2026-01-01T23:59:59Z");  // seconds precision
  EXPECT_EQ(formatRfc3339(951782400LL * 1000000), "2000-02-29T00:00:00Z");  // leap day
}

TEST(Time, Millis) {
  EXPECT_EQ(toMillis(microseconds(1999)), 1);
  EXPECT_EQ(toMillis(seconds(3)), 3000);
  EXPECT_EQ(sinceStartMillis(TimePoint(seconds(2))), 2000);
}

}  // namespace
}  // namespace kun
