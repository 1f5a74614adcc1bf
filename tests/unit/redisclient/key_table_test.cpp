// KeyTable finds a key by comparing words from both ends of it: every length it takes, and
// a key that differs from one of the table in any single byte, must read right.
#include <gtest/gtest.h>

#include <string>

#include "core/redis/key_table.h"

namespace kun {
namespace {

constexpr KeyTable kKeys({
    "a", "ab", "abc", "abcd", "abcde", "abcdefg", "abcdefgh", "abcdefghi", "abcdefghijklmno", "abcdefghijklmnop",
    "abcdefghijklmnopq", "abcdefghijklmnopqrstuvwxyz01234", "slave-repl-offset", "master-link-down-time", "x",
});

TEST(KeyTable, FindsEveryKeyAndNoNearMiss) {
  for (std::size_t i = 0; i < kKeys.size(); ++i) {
    const std::string key(kKeys.name(i));  // a copy: found by its bytes, not its address
    EXPECT_EQ(kKeys.indexOf(key), i) << key;
    EXPECT_TRUE(kKeys.is(i, key)) << key;
    for (std::size_t p = 0; p < key.size(); ++p) {
      std::string miss = key;
      miss[p] = static_cast<char>(miss[p] ^ 0x20);
      EXPECT_EQ(kKeys.indexOf(miss), kKeys.size()) << miss;
      EXPECT_FALSE(kKeys.is(i, miss)) << miss;
    }
    EXPECT_EQ(kKeys.indexOf(key + "z"), kKeys.size()) << key;
    EXPECT_FALSE(kKeys.is(i, key.substr(1))) << key;
  }
  EXPECT_EQ(kKeys.indexOf(""), kKeys.size());
  EXPECT_EQ(kKeys.indexOf(std::string(40, 'a')), kKeys.size());
  EXPECT_FALSE(kKeys.is(kKeys.size(), "a"));
  EXPECT_EQ(kKeys.at("x"), 14u);
}

}  // namespace
}  // namespace kun
