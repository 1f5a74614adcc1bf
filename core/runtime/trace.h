#pragma once
// The run's trace: every simulated event that matters, appended with its virtual time. Its
// hash is the fingerprint of a run: same seed, same hash.
#include <cstdint>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/time.h"

namespace kun {

class Trace {
 public:
  struct Entry {
    TimePoint time;
    std::string component;
    std::string text;
  };

  // keepEntries: how many of the latest entries to retain for reports (the hash always
  // covers all of them).
  explicit Trace(std::size_t keepEntries = 0) : keep_(keepEntries) {}

  void record(TimePoint t, std::string_view component, std::string_view text);

  std::uint64_t hash() const { return hash_; }
  std::string hashHex() const;
  std::uint64_t count() const { return count_; }
  // The retained entries, oldest first.
  std::vector<Entry> entries() const;

 private:
  std::size_t keep_;
  std::uint64_t hash_ = 0xcbf29ce484222325ULL;
  std::uint64_t count_ = 0;
  std::vector<Entry> ring_;
  std::size_t head_ = 0;
};

}  // namespace kun
