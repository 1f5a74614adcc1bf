// Uids: written digit by digit, they must read as the UUID text fmt made of the same draws.
#include <gtest/gtest.h>

#include <fmt/format.h>

#include "fakeapi/store/name_generator.h"

namespace kun::store {
namespace {

TEST(NameGenerator, UidIsTheUuidTextOfTwoDraws) {
  for (std::uint64_t seed : {1u, 7u, 12345u}) {
    NameGenerator gen{Random(seed)};
    Random draws = Random(seed).fork("uid");
    for (int i = 0; i < 500; ++i) {
      const std::uint64_t h = (draws.next() & 0xffffffffffff0fffULL) | 0x0000000000004000ULL;
      const std::uint64_t l = (draws.next() & 0x3fffffffffffffffULL) | 0x8000000000000000ULL;
      const std::string expected = fmt::format("{:08x}-{:04x}-{:04x}-{:04x}-{:012x}", h >> 32, (h >> 16) & 0xffff,
                                               h & 0xffff, l >> 48, l & 0xffffffffffffULL);
      ASSERT_EQ(gen.uid(), expected);
    }
  }
}

}  // namespace
}  // namespace kun::store
