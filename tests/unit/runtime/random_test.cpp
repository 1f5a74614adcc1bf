#include <gtest/gtest.h>

#include <algorithm>
#include <array>
#include <cstdint>
#include <limits>
#include <numeric>
#include <set>
#include <vector>

#include "core/runtime/random.h"

namespace kun {
namespace {

// The published algorithms (Vigna: splitmix64; Blackman & Vigna: xoshiro256**), written
// out independently of core/runtime so the implementation is checked against them.
namespace reference {
std::uint64_t rotl(std::uint64_t x, int k) { return (x << k) | (x >> (64 - k)); }
std::uint64_t splitmix64(std::uint64_t& x) {
  x += 0x9e3779b97f4a7c15ULL;
  std::uint64_t z = x;
  z = (z ^ (z >> 30)) * 0xbf58476d1ce4e5b9ULL;
  z = (z ^ (z >> 27)) * 0x94d049bb133111ebULL;
  return z ^ (z >> 31);
}
std::uint64_t xoshiro256ss(std::array<std::uint64_t, 4>& s) {
  const std::uint64_t out = rotl(s[1] * 5, 7) * 9;
  const std::uint64_t t = s[1] << 17;
  s[2] ^= s[0];
  s[3] ^= s[1];
  s[1] ^= s[2];
  s[0] ^= s[3];
  s[2] ^= t;
  s[3] = rotl(s[3], 45);
  return out;
}
std::array<std::uint64_t, 4> seeded(std::uint64_t seed) {
  std::array<std::uint64_t, 4> s{};
  for (auto& w : s) w = splitmix64(seed);
  return s;
}
}  // namespace reference

TEST(RandomReference, MatchesPublishedTestVectors) {
  std::uint64_t x = 0;
  EXPECT_EQ(reference::splitmix64(x), 0xe220a8397b1dcdafULL);
  std::array<std::uint64_t, 4> s{1, 2, 3, 4};
  EXPECT_EQ(reference::xoshiro256ss(s), 11520u);
  EXPECT_EQ(reference::xoshiro256ss(s), 0u);
  EXPECT_EQ(reference::xoshiro256ss(s), 1509978240u);
  EXPECT_EQ(reference::xoshiro256ss(s), 1215971899390074240u);
}

TEST(Random, GoldenFirstOutputsForSeed1) {
  // Fixed forever: a change here changes every simulated run's trace hash.
  Random r(1);
  EXPECT_EQ(r.next(), 0xb3f2af6d0fc710c5ULL);
  EXPECT_EQ(r.next(), 0x853b559647364ceaULL);
  EXPECT_EQ(r.next(), 0x92f89756082a4514ULL);
  EXPECT_EQ(r.next(), 0x642e1c7bc266a3a7ULL);
  EXPECT_EQ(r.next(), 0xb27a48e29a233673ULL);
}

TEST(Random, IsXoshiro256StarStarSeededBySplitmix64) {
  for (std::uint64_t seed : {0ULL, 1ULL, 42ULL, 0xdeadbeefULL, ~0ULL}) {
    Random r(seed);
    auto s = reference::seeded(seed);
    for (int i = 0; i < 100; ++i) ASSERT_EQ(r.next(), reference::xoshiro256ss(s)) << seed << " #" << i;
  }
}

TEST(Random, SameSeedSameSequence) {
  Random a(7), b(7), c(8);
  std::vector<std::uint64_t> va, vb, vc;
  for (int i = 0; i < 50; ++i) {
    va.push_back(a.below(1000));
    vb.push_back(b.below(1000));
    vc.push_back(c.below(1000));
  }
  EXPECT_EQ(va, vb);
  EXPECT_NE(va, vc);
  EXPECT_EQ(a.seed(), 7u);
}

TEST(Random, BelowStaysInRange) {
  Random r(3);
  for (std::uint64_t n : {1ULL, 2ULL, 3ULL, 7ULL, 10ULL, 1000ULL, (1ULL << 63) + 1, ~0ULL}) {
    for (int i = 0; i < 1000; ++i) ASSERT_LT(r.below(n), n) << n;
  }
  EXPECT_EQ(r.below(0), 0u);  // degenerate: no range, no draw
  EXPECT_EQ(r.below(1), 0u);
}

TEST(Random, BelowSevenIsRoughlyUniform) {
  Random r(12345);
  std::array<int, 7> counts{};
  constexpr int kDraws = 10000;
  for (int i = 0; i < kDraws; ++i) ++counts[r.below(7)];
  // Expected 1428.6 each; a fair stream stays far inside +-15% (about 6 standard deviations).
  for (int c : counts) {
    EXPECT_GT(c, 1214);
    EXPECT_LT(c, 1643);
  }
  EXPECT_EQ(std::accumulate(counts.begin(), counts.end(), 0), kDraws);
}

TEST(Random, BelowAHugeBoundIsUnbiased) {
  // n = 3 * 2^62. Uniform on [0, n): a third of the draws fall below 2^62. Plain modulo of
  // a 64-bit draw would fold [n, 2^64) onto [0, 2^62) and put half of them there.
  Random r(99);
  const std::uint64_t n = 3ULL << 62;
  int low = 0;
  for (int i = 0; i < 3000; ++i) {
    const std::uint64_t v = r.below(n);
    ASSERT_LT(v, n);
    low += v < (1ULL << 62) ? 1 : 0;
  }
  EXPECT_GT(low, 850);
  EXPECT_LT(low, 1150);
}

TEST(Random, BetweenIsInclusive) {
  Random r(5);
  std::set<std::int64_t> seen;
  for (int i = 0; i < 2000; ++i) {
    const auto v = r.between(-2, 2);
    ASSERT_GE(v, -2);
    ASSERT_LE(v, 2);
    seen.insert(v);
  }
  EXPECT_EQ(seen, (std::set<std::int64_t>{-2, -1, 0, 1, 2}));
  EXPECT_EQ(r.between(4, 4), 4);
  EXPECT_EQ(r.between(9, 3), 9);  // empty range gives lo
}

TEST(Random, BetweenTheWidestRangeIsDefined) {
  // Under UBSan this is also a check that the span is computed without signed overflow.
  Random r(11);
  constexpr auto lo = std::numeric_limits<std::int64_t>::min();
  constexpr auto hi = std::numeric_limits<std::int64_t>::max();
  bool negative = false, positive = false;
  for (int i = 0; i < 200; ++i) {
    const auto v = r.between(lo, hi);
    negative = negative || v < 0;
    positive = positive || v > 0;
  }
  EXPECT_TRUE(negative);
  EXPECT_TRUE(positive);
  for (int i = 0; i < 200; ++i) {
    const auto v = r.between(-1, hi);
    ASSERT_GE(v, -1);
  }
}

TEST(Random, DurationBetween) {
  Random r(8);
  for (int i = 0; i < 500; ++i) {
    const Duration d = r.durationBetween(milliseconds(100), milliseconds(200));
    ASSERT_GE(d, milliseconds(100));
    ASSERT_LE(d, milliseconds(200));
  }
}

TEST(Random, ChanceEdgesAreExact) {
  Random r(17);
  for (int i = 0; i < 1000; ++i) {
    ASSERT_FALSE(r.chance(0, 5));
    ASSERT_TRUE(r.chance(5, 5));
    ASSERT_TRUE(r.chance(6, 5));
    ASSERT_FALSE(r.chance(1, 0));
  }
}

TEST(Random, ChanceEdgesDrawNothing) {
  // Certain outcomes do not consume the stream, so turning a probability to 0 or 1 does not
  // shift every later draw.
  Random a(21), b(21);
  (void)a.chance(0, 10);
  (void)a.chance(10, 10);
  EXPECT_EQ(a.next(), b.next());
}

TEST(Random, ChanceFrequency) {
  Random r(23);
  int hits = 0;
  for (int i = 0; i < 10000; ++i) hits += r.chance(1, 4) ? 1 : 0;
  EXPECT_GT(hits, 2250);
  EXPECT_LT(hits, 2750);
}

TEST(Random, ForkDependsOnlyOnSeedAndName) {
  Random parent(1000);
  Random early = parent.fork("store");
  for (int i = 0; i < 37; ++i) parent.next();
  Random late = parent.fork("store");
  for (int i = 0; i < 20; ++i) ASSERT_EQ(early.next(), late.next());

  Random other = Random(1000).fork("kubelet");
  Random same = Random(1000).fork("store");
  Random otherSeed = Random(1001).fork("store");
  const auto s = same.next();
  EXPECT_NE(s, other.next());
  EXPECT_NE(s, otherSeed.next());
  EXPECT_NE(Random(1000).fork("store").seed(), 1000u);
}

TEST(Random, ForkDoesNotDisturbTheParent) {
  Random a(55), b(55);
  (void)a.fork("x");
  (void)a.fork("y").next();
  for (int i = 0; i < 10; ++i) ASSERT_EQ(a.next(), b.next());
}

TEST(Random, ForkedStreamsDoNotOverlapTheParent) {
  Random parent(77);
  Random child = parent.fork("c");
  std::set<std::uint64_t> p;
  for (int i = 0; i < 1000; ++i) p.insert(parent.next());
  for (int i = 0; i < 1000; ++i) ASSERT_EQ(p.count(child.next()), 0u);
}

TEST(Random, ShuffleIsAPermutationAndDeterministic) {
  std::vector<int> a(50), b(50);
  std::iota(a.begin(), a.end(), 0);
  std::iota(b.begin(), b.end(), 0);
  Random ra(9), rb(9);
  ra.shuffle(a);
  rb.shuffle(b);
  EXPECT_EQ(a, b);
  std::vector<int> sorted = a;
  std::sort(sorted.begin(), sorted.end());
  std::vector<int> expect(50);
  std::iota(expect.begin(), expect.end(), 0);
  EXPECT_EQ(sorted, expect);
  EXPECT_NE(a, expect);  // 1 in 50! that a seeded shuffle is the identity
  std::vector<int> empty;
  ra.shuffle(empty);
  EXPECT_TRUE(empty.empty());
}

TEST(Fnv1a64, PublishedVectors) {
  EXPECT_EQ(fnv1a64(""), 0xcbf29ce484222325ULL);
  EXPECT_EQ(fnv1a64("a"), 0xaf63dc4c8601ec8cULL);
  EXPECT_EQ(fnv1a64("foobar"), 0x85944171f73967e8ULL);
  // Chaining continues the hash: hashing in pieces equals hashing the whole.
  EXPECT_EQ(fnv1a64("bar", fnv1a64("foo")), fnv1a64("foobar"));
}

}  // namespace
}  // namespace kun
