#pragma once
// Deterministic randomness: xoshiro256** seeded through splitmix64. The algorithm is fixed
// here (never std::*_distribution, whose output differs between standard libraries), so
// one seed gives the same numbers everywhere.
#include <array>
#include <bit>
#include <cstdint>
#include <string_view>

#include "core/runtime/time.h"

namespace kun {

class Random {
 public:
  explicit Random(std::uint64_t seed);

  std::uint64_t seed() const { return seed_; }
  // next() and below() are defined here, inline: every network packet draws its jitter
  // and every Sentinel timer tick its period, and a call each was a visible share.
  std::uint64_t next() {
    const std::uint64_t result = std::rotl(s_[1] * 5, 7) * 9;
    const std::uint64_t t = s_[1] << 17;
    s_[2] ^= s_[0];
    s_[3] ^= s_[1];
    s_[1] ^= s_[2];
    s_[0] ^= s_[3];
    s_[2] ^= t;
    s_[3] = std::rotl(s_[3], 45);
    return result;
  }
  // Uniform in [0, n); n > 0. Unbiased (rejection sampling).
  std::uint64_t below(std::uint64_t n) {
    if (n <= 1) return 0;
    // Reject the top partial bucket so every residue is equally likely.
    const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
    std::uint64_t r;
    do r = next(); while (r >= limit);
    return r % n;
  }
  // Uniform in [lo, hi], inclusive.
  std::int64_t between(std::int64_t lo, std::int64_t hi);
  // True with probability num/den.
  bool chance(std::uint64_t num, std::uint64_t den);
  // Uniform in [lo, hi] at microsecond resolution.
  Duration durationBetween(Duration lo, Duration hi);

  // An independent sub-stream for a component. It depends only on this stream's seed and
  // the name, not on how many numbers were drawn, so adding draws in one component never
  // perturbs another.
  Random fork(std::string_view name) const;

  template <class Container>
  void shuffle(Container& c) {
    for (std::size_t i = c.size(); i > 1; --i) {
      std::size_t j = static_cast<std::size_t>(below(i));
      using std::swap;
      swap(c[i - 1], c[j]);
    }
  }

  // A seed from the OS: real mode only, never in a simulation.
  static std::uint64_t osSeed();

 private:
  std::uint64_t seed_;
  std::array<std::uint64_t, 4> s_;
};

// FNV-1a 64-bit: the project's stable string hash (traces, forks, config hashes).
std::uint64_t fnv1a64(std::string_view data, std::uint64_t h = 0xcbf29ce484222325ULL);

}  // namespace kun
