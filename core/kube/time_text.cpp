#include "core/kube/time_text.h"

#include "core/runtime/time.h"

namespace kun {

namespace {

constexpr std::int64_t kSecondsPerDay = 86400;

void twoDigits(char* at, std::int64_t v) {
  at[0] = static_cast<char>('0' + v / 10);
  at[1] = static_cast<char>('0' + v % 10);
}

}  // namespace

const std::string& Rfc3339Text::at(std::int64_t unixMicros) {
  // The same division formatRfc3339 truncates by, so equal keys mean equal texts.
  const std::int64_t secs = unixMicros / 1000000;
  if (known_ && secs == secs_) return text_;
  if (known_ && secs >= 0 && secs_ >= 0 && secs / kSecondsPerDay == secs_ / kSecondsPerDay) {
    // Another second of the same (UTC) day: only "hh:mm:ssZ" at the end differs, written in
    // place rather than formatted again (gmtime and fmt cost a hundred times as much).
    const std::int64_t t = secs % kSecondsPerDay;
    char* p = text_.data() + text_.size() - 9;
    twoDigits(p, t / 3600);
    twoDigits(p + 3, t / 60 % 60);
    twoDigits(p + 6, t % 60);
  } else {
    text_ = formatRfc3339(unixMicros);
  }
  known_ = true;
  secs_ = secs;
  return text_;
}

}  // namespace kun
