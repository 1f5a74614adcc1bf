#include "core/controller/rate_limiter.h"

#include <algorithm>
#include <limits>

namespace kun {

BackoffRateLimiter::BackoffRateLimiter(Options opts) : opts_(opts) {
  if (opts_.base < Duration::zero()) opts_.base = Duration::zero();
  if (opts_.max < opts_.base) opts_.max = opts_.base;
}

Duration BackoffRateLimiter::delayFor(std::uint32_t n) const {
  if (n == 0 || opts_.base == Duration::zero()) return Duration::zero();
  // Doubling stops at the cap, so the arithmetic never overflows however many failures.
  Duration d = opts_.base;
  for (std::uint32_t i = 1; i < n && d < opts_.max; ++i) {
    if (d > opts_.max / 2) return opts_.max;
    d *= 2;
  }
  return std::min(d, opts_.max);
}

Duration BackoffRateLimiter::when(const std::string& key) {
  auto it = failures_.find(key);
  if (it == failures_.end()) it = failures_.emplace(key, 0).first;
  if (it->second < std::numeric_limits<std::uint32_t>::max()) ++it->second;
  return delayFor(it->second);
}

void BackoffRateLimiter::forget(const std::string& key) { failures_.erase(key); }

std::uint32_t BackoffRateLimiter::failures(const std::string& key) const {
  auto it = failures_.find(key);
  return it == failures_.end() ? 0 : it->second;
}

}  // namespace kun
