#pragma once
// Per-key exponential backoff for retrying failed reconciles: the n-th consecutive failure
// of a key waits base * 2^(n-1), capped at max (5 ms doubling to 1000 s by default, as
// client-go's controllers do). A success forgets the key and its next failure starts over.
// Not thread-safe on its own: WorkQueue calls it under its lock.
#include <cstdint>
#include <map>
#include <string>

#include "core/runtime/time.h"

namespace kun {

class BackoffRateLimiter {
 public:
  struct Options {
    Duration base = milliseconds(5);
    Duration max = seconds(1000);
  };

  BackoffRateLimiter() : BackoffRateLimiter(Options{}) {}
  explicit BackoffRateLimiter(Options opts);

  // Counts one more failure of key and returns how long to wait before retrying it.
  Duration when(const std::string& key);
  // The key succeeded: its failures are forgotten.
  void forget(const std::string& key);
  // Consecutive failures counted for key since it was last forgotten.
  std::uint32_t failures(const std::string& key) const;
  // Keys with failures on record.
  std::size_t tracked() const { return failures_.size(); }
  const Options& options() const { return opts_; }

  // The delay after n consecutive failures (n >= 1), without recording anything.
  Duration delayFor(std::uint32_t n) const;

 private:
  Options opts_;
  std::map<std::string, std::uint32_t, std::less<>> failures_;
};

}  // namespace kun
