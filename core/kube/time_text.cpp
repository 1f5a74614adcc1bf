#include "core/kube/time_text.h"

#include "core/runtime/time.h"

namespace kun {

const std::string& Rfc3339Text::at(std::int64_t unixMicros) {
  // The same division formatRfc3339 truncates by, so equal keys mean equal texts.
  const std::int64_t secs = unixMicros / 1000000;
  if (!known_ || secs != secs_) {
    known_ = true;
    secs_ = secs;
    text_ = formatRfc3339(unixMicros);
  }
  return text_;
}

}  // namespace kun
