// RedisConfig's lookups by name: the memo of recent names must never answer for other text
// that came to live at the same address.
#include <gtest/gtest.h>

#include <string>

#include "fakeapi/redis/redis_config.h"

namespace kun::redissim::test {
namespace {

TEST(RedisConfig, ANameReusingABufferIsLookedUpAgain) {
  RedisConfig c;
  std::string name = "maxclients";
  EXPECT_EQ(c.integer(name), 10000);
  EXPECT_EQ(c.integer(name), 10000);  // found in the memo
  name = "appendonly";                // same length, same (small-string) buffer
  EXPECT_EQ(c.str(name), "no");
  name = "Appendonly";  // not an exact spelling: the case-insensitive index answers
  EXPECT_EQ(c.str(name), "no");
  name = "appendonlx";
  EXPECT_FALSE(c.known(name));
  name = "appendonly";
  EXPECT_TRUE(c.known(name));
}

TEST(RedisConfig, LiteralsAndAliasesFindTheirParameter) {
  RedisConfig c;
  ASSERT_EQ(c.set({{"replica-priority", "42"}}), "");
  for (int i = 0; i < 3; ++i) {
    EXPECT_EQ(c.integer("replica-priority"), 42);
    EXPECT_EQ(c.integer("slave-priority"), 42);
    EXPECT_EQ(c.canonical("slave-priority"), "replica-priority");
    EXPECT_EQ(c.integer("hz"), 10);
  }
}


// CONFIG GET answers a name as the table spells it (found by hash), in another case or by
// an alias (the tree), or by a glob, each under the name it matched, sorted and unique.
TEST(RedisConfig, GetAnswersEveryWayOfNamingAParameter) {
  RedisConfig c;
  ASSERT_EQ(c.set({{"replica-priority", "42"}}), "");
  using KV = std::vector<std::pair<std::string, std::string>>;
  const std::vector<std::string> names{"slave-priority", "HZ", "replica-priority", "nope", "hz"};
  EXPECT_EQ(c.get(names), (KV{{"hz", "10"}, {"replica-priority", "42"}, {"slave-priority", "42"}}));
  const std::vector<std::string> glob{"replica-pri*"};
  EXPECT_EQ(c.get(glob), (KV{{"replica-priority", "42"}}));
}

}  // namespace
}  // namespace kun::redissim::test
