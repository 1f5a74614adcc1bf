// redis.conf text as redis-server reads it: tokens, quoting, includes.
#include <gtest/gtest.h>

#include <map>

#include "core/rediscluster/config_files.h"
#include "fakeapi/world/config_text.h"

namespace kun::sim {
namespace {

using Tokens = std::vector<std::string>;

TEST(SplitConfigLine, BareQuotedAndEscapedTokens) {
  EXPECT_EQ(splitConfigLine("replicaof 127.0.0.1 6379"), (Tokens{"replicaof", "127.0.0.1", "6379"}));
  EXPECT_EQ(splitConfigLine("  requirepass \"a b\\\"c\\x41\\n\"  "), (Tokens{"requirepass", "a b\"cA\n"}));
  EXPECT_EQ(splitConfigLine("x 'it\\'s' \"\""), (Tokens{"x", "it's", ""}));
  EXPECT_EQ(splitConfigLine("x 'a\\nb'"), (Tokens{"x", "a\\nb"}));  // no escapes but \' in single quotes
}

TEST(SplitConfigLine, UnbalancedOrGluedQuotesAreRejected) {
  EXPECT_FALSE(splitConfigLine("requirepass \"abc"));
  EXPECT_FALSE(splitConfigLine("requirepass \"abc\"def"));
  EXPECT_FALSE(splitConfigLine("x 'abc"));
}

TEST(SplitConfigLine, ReadsBackWhatTheGeneratorQuotes) {
  for (std::string v : {std::string("plain"), std::string("sp ace"), std::string("q\"uo'te\\"),
                        std::string("ctl\x01\x7f"), std::string(""), std::string("h\xc3\xa9")}) {
    auto toks = splitConfigLine("k " + rediscluster::configToken(v));
    ASSERT_TRUE(toks) << v;
    EXPECT_EQ(*toks, (Tokens{"k", v}));
  }
}

TEST(ReadConfigText, SkipsCommentsLowercasesNamesAndExpandsIncludes) {
  std::map<std::string, std::string> files{{"/auth/auth.conf", "masterauth \"p w\"\nrequirepass \"p w\"\n"}};
  auto read = [&](const std::string& p) -> Result<std::string> {
    if (auto it = files.find(p); it != files.end()) return it->second;
    return makeError(Reason::NotFound, p);
  };
  auto d = readConfigText("# c\n\nPort 6380\ninclude /auth/auth.conf\nsave 900 1\n", read);
  ASSERT_TRUE(d) << d.error().message;
  ASSERT_EQ(d->size(), 4u);
  EXPECT_EQ((*d)[0].name, "port");
  EXPECT_EQ((*d)[1].name, "masterauth");
  EXPECT_EQ((*d)[1].args, Tokens{"p w"});
  EXPECT_EQ((*d)[3].joined(), "900 1");

  EXPECT_TRUE(readConfigText("include /missing\n", read).is(Reason::NotFound));
  EXPECT_TRUE(readConfigText("requirepass \"x\n", read).is(Reason::Invalid));
  files["/loop"] = "include /loop\n";
  EXPECT_TRUE(readConfigText("include /loop\n", read).is(Reason::Invalid));
}

}  // namespace
}  // namespace kun::sim
