// ViewHash, the sampler's digest of what a view reads: it must tell apart inputs the byte
// digest tells apart, and a node's digest must move when a field a view reads moves.
#include <gtest/gtest.h>

#include <cstdint>
#include <cstring>
#include <string>

#include "fakeapi/redis/view_digest.h"
#include "tests/unit/redis/sim_world.h"

namespace kun::redissim::test {
namespace {

ViewHash of(std::string_view a, std::string_view b) {
  ViewHash h;
  digest(h, a, b);
  return h;
}

// The tail of a string goes in as memcpy into a zeroed word would read it, for every
// tail length, with and without the bytes before it.
TEST(ViewHash, TailAsMemcpyReadsIt) {
  const std::string text = "0123456789abcdef\x80\xff";
  for (std::size_t start = 0; start + 1 < text.size(); ++start) {
    for (std::size_t n = 1; n <= 7 && start + n <= text.size(); ++n) {
      std::uint64_t want = 0;
      std::memcpy(&want, text.data() + start, n);
      EXPECT_EQ(viewTail(text.data() + start, n, false), want) << start << " " << n;
      if (start + n >= 8) {
        EXPECT_EQ(viewTail(text.data() + start, n, true), want) << start << " " << n;
      }
    }
  }
}

TEST(ViewHash, LengthsKeepSequencesApart) {
  EXPECT_EQ(of("ab", "c"), of("ab", "c"));
  EXPECT_NE(of("ab", "c"), of("a", "bc"));
  EXPECT_NE(of("", "abc"), of("abc", ""));
  // Strings longer than one 8-byte word, differing only in the last, partial word.
  EXPECT_NE(of("10.0.0.1:6379-x", ""), of("10.0.0.1:6379-y", ""));
  ViewHash zero, none;
  digest(zero, 0);
  EXPECT_NE(zero, none);  // a value appended is not nothing appended
}

// The bytes after the last whole word are read by overlapping loads: a change of any one
// byte, at any length, still moves the digest.
TEST(ViewHash, EveryByteOfAStringCounts) {
  const std::string base = "10.244.12.34:6379-abcdefghij";
  for (std::size_t n = 1; n <= base.size(); ++n) {
    const std::string s = base.substr(0, n);
    for (std::size_t k = 0; k < n; ++k) {
      std::string t = s;
      t[k] = static_cast<char>(t[k] ^ 0x20);
      EXPECT_NE(of(s, ""), of(t, "")) << "length " << n << ", byte " << k;
    }
  }
}

TEST(ViewHash, SentinelDigestMovesWithWhatItsViewReads) {
  SimWorld w;
  Topology t{w.sim, TopologyOptions{}};
  ASSERT_TRUE(w.runUntil([&] { return t.converged() && t.sentinelListsExact(); }, seconds(40)));
  w.runFor(seconds(11));
  const RedisEndpoint s0 = Topology::sentinelEp(0);
  SentinelNode& s = t.sentinel(0);
  const auto digestOf = [&] {
    ViewHash h;
    s.appendViewDigest("mymaster", h);
    return h;
  };
  const ViewHash before = digestOf();
  EXPECT_EQ(digestOf(), before);  // reading it changes nothing
  w.must(s0, {"SENTINEL", "SET", "mymaster", "down-after-milliseconds", "7000"});
  EXPECT_NE(digestOf(), before);
}

TEST(ViewHash, RedisDigestMovesWithTheSettingsItsViewReads) {
  SimWorld w;
  Topology t{w.sim, TopologyOptions{}};
  ASSERT_TRUE(w.runUntil([&] { return t.converged(); }, seconds(40)));
  const RedisEndpoint r1 = Topology::redisEp(1);
  RedisNode& n = t.redis(1);
  const auto digestOf = [&] {
    ViewHash h;
    n.appendViewDigest(h);
    return h;
  };
  ViewHash last = digestOf();
  EXPECT_EQ(digestOf(), last);
  for (const auto& [name, value] : std::vector<std::pair<std::string, std::string>>{
           {"replica-priority", "7"}, {"replica-announced", "no"}, {"replica-read-only", "no"}, {"requirepass", "pw"}}) {
    w.must(r1, {"CONFIG", "SET", name, value});
    const ViewHash now = digestOf();
    EXPECT_NE(now, last) << name;
    last = now;
  }
}

}  // namespace
}  // namespace kun::redissim::test
