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

}  // namespace
}  // namespace kun
