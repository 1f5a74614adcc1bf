#include "chaos/faults/duration_text.h"

#include <cctype>
#include <cstdint>

namespace kun::chaos {

std::string formatDuration(Duration d) {
  std::int64_t ms = toMillis(d);
  if (ms == 0) return "0s";
  std::string sign = ms < 0 ? "-" : "";
  if (ms < 0) ms = -ms;
  if (ms % 1000 != 0) return sign + std::to_string(ms) + "ms";
  std::int64_t s = ms / 1000;
  std::string out;
  if (s >= 3600 && s % 60 == 0) {
    out += std::to_string(s / 3600) + "h";
    s %= 3600;
  }
  if (s >= 60) {
    out += std::to_string(s / 60) + "m";
    s %= 60;
  }
  if (s > 0) out += std::to_string(s) + "s";
  return sign + out;
}

std::optional<Duration> parseDuration(std::string_view text) {
  if (text == "0") return Duration{0};
  if (text.empty()) return std::nullopt;
  std::int64_t totalMs = 0;
  std::size_t i = 0;
  while (i < text.size()) {
    if (!std::isdigit(static_cast<unsigned char>(text[i]))) return std::nullopt;
    std::int64_t n = 0;
    while (i < text.size() && std::isdigit(static_cast<unsigned char>(text[i]))) {
      n = n * 10 + (text[i] - '0');
      if (n > 1'000'000'000) return std::nullopt;
      ++i;
    }
    std::size_t u = i;
    while (i < text.size() && std::isalpha(static_cast<unsigned char>(text[i]))) ++i;
    const std::string_view unit = text.substr(u, i - u);
    if (unit == "ms") totalMs += n;
    else if (unit == "s") totalMs += n * 1000;
    else if (unit == "m") totalMs += n * 60'000;
    else if (unit == "h") totalMs += n * 3'600'000;
    else return std::nullopt;
  }
  return milliseconds(totalMs);
}

}  // namespace kun::chaos
