#pragma once
// Durations as people write them in scenario files: "250ms", "30s", "2m", "1h", "1m30s",
// "0". Kept exact at millisecond resolution so a written schedule reads back identically.
#include <optional>
#include <string>
#include <string_view>

#include "core/runtime/time.h"

namespace kun::chaos {

// The shortest exact text: 90s -> "1m30s", 1500ms -> "1500ms", 0 -> "0s".
std::string formatDuration(Duration d);
// nullopt unless the whole text is one or more <integer><unit> with unit ms, s, m or h
// (or a bare "0"). Sub-millisecond parts are not accepted.
std::optional<Duration> parseDuration(std::string_view text);

}  // namespace kun::chaos
