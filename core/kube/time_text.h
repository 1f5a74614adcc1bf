#pragma once
// formatRfc3339 for a writer that stamps objects with the loop's time over and over (the
// fake store's creationTimestamp, the EventRecorder's timestamps, the kubelet's
// conditions): the text has second precision, so it is formatted once per second asked
// and kept, instead of once per write. Not thread-safe: each owner guards its own.
#include <cstdint>
#include <string>

namespace kun {

class Rfc3339Text {
 public:
  // formatRfc3339(unixMicros), kept until a later call asks for another second.
  const std::string& at(std::int64_t unixMicros);

 private:
  bool known_ = false;
  std::int64_t secs_ = 0;
  std::string text_;
};

}  // namespace kun
