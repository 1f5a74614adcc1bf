// Rfc3339Text keeps the text of the last second asked: whatever it answers must be what
// formatRfc3339 answers for the same instant, across seconds, back in time and at 0.
#include <gtest/gtest.h>

#include "core/kube/time_text.h"
#include "core/runtime/time.h"

namespace kun {
namespace {

TEST(Rfc3339Text, AnswersWhatFormatRfc3339Answers) {
  Rfc3339Text text;
  const std::int64_t base = 1'700'000'000'000'000;
  for (const std::int64_t at : {base, base + 1, base + 999'999, base + 1'000'000, base + 1'500'000, base,
                                std::int64_t{0}, std::int64_t{999'999}, base + 61'000'000, base + 61'000'001})
    EXPECT_EQ(text.at(at), formatRfc3339(at)) << at;
}

// Within a day only the time of day is rewritten: every second of a day and across its
// midnights, forward and back, must still read as formatRfc3339 says.
TEST(Rfc3339Text, RewritesTheTimeOfDayAsFormatRfc3339Would) {
  Rfc3339Text text;
  const std::int64_t midnight = 1'700'006'400;  // 2023-11-15T00:00:00Z
  for (std::int64_t s = midnight - 90; s < midnight + 86400 + 90; s += 7)
    ASSERT_EQ(text.at(s * 1'000'000 + 123), formatRfc3339(s * 1'000'000 + 123)) << s;
  for (const std::int64_t s : {midnight + 86399, midnight + 3, midnight - 1, midnight + 86400, std::int64_t{0},
                               std::int64_t{59}, std::int64_t{86399}, midnight + 12 * 3600 + 34 * 60 + 56})
    EXPECT_EQ(text.at(s * 1'000'000), formatRfc3339(s * 1'000'000)) << s;
  EXPECT_EQ(text.at(-1), formatRfc3339(-1));
  EXPECT_EQ(text.at(-86'400'000'001), formatRfc3339(-86'400'000'001));
  EXPECT_EQ(text.at(-86'400'000'001 + 5'000'000), formatRfc3339(-86'400'000'001 + 5'000'000));
}

}  // namespace
}  // namespace kun
