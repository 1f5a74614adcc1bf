#include "core/runtime/random.h"

namespace kun {
namespace {

std::uint64_t splitmix64(std::uint64_t& x) {
  std::uint64_t z = (x += 0x9e3779b97f4a7c15ULL);
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}

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
