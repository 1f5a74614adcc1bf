#include "core/runtime/random.h"

namespace kun {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }

}  // namespace

std::uint64_t fnv1a64(std::string_view data, std::uint64_t h) {
  for (unsigned char c : data) {
    h ^= c;
    h *= 0x100000001b3ULL;
  }
  return h;
}

Random::Random(std::uint64_t seed) : seed_(seed) {
  std::uint64_t x = seed;
  for (auto& w : s_) w = splitmix64(x);
}

std::uint64_t Random::next() {
  const std::uint64_t result = rotl(s_[1] * 5, 7) * 9;
  const std::uint64_t t = s_[1] << 17;
  s_[2] ^= s_[0];
  s_[3] ^= s_[1];
  s_[1] ^= s_[2];
  s_[0] ^= s_[3];
  s_[2] ^= t;
  s_[3] = rotl(s_[3], 45);
  return result;
}

std::uint64_t Random::below(std::uint64_t n) {
  if (n <= 1) return 0;
  // Reject the top partial bucket so every residue is equally likely.
  const std::uint64_t limit = UINT64_MAX - (UINT64_MAX % n);
  std::uint64_t r;
  do r = next(); while (r >= limit);
  return r % n;
}

std::int64_t Random::between(std::int64_t lo, std::int64_t hi) {
  if (hi <= lo) return lo;
  // Unsigned arithmetic: hi - lo overflows int64 for ranges wider than INT64_MAX.
  const auto span = static_cast<std::uint64_t>(hi) - static_cast<std::uint64_t>(lo) + 1;
  const std::uint64_t offset = span == 0 ? next() : below(span);
  return static_cast<std::int64_t>(static_cast<std::uint64_t>(lo) + offset);
}

bool Random::chance(std::uint64_t num, std::uint64_t den) {
  if (num == 0 || den == 0) return false;
  if (num >= den) return true;
  return below(den) < num;
}

Duration Random::durationBetween(Duration lo, Duration hi) {
  return Duration(between(lo.count(), hi.count()));
}

Random Random::fork(std::string_view name) const {
  std::uint64_t x = seed_ ^ fnv1a64(name);
  return Random(splitmix64(x));
}

}  // namespace kun
