#include <gtest/gtest.h>
#include <rapidcheck/gtest.h>

#include <optional>
#include <sstream>

#include "core/api/redis_cluster_defaults.h"
#include "core/rediscluster/config_files.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::rediscluster {
namespace {

// Reads one line back the way Redis' sdssplitargs does for what configToken writes: bare
// tokens, and double-quoted ones with \\ \" \xHH escapes. nullopt where Redis would refuse
// the line (unbalanced quotes, a quote not followed by a space).
std::optional<std::vector<std::string>> splitArgs(const std::string& line) {
  std::vector<std::string> out;
  std::size_t i = 0;
  auto hex = [](char c) { return std::isxdigit(static_cast<unsigned char>(c)) != 0; };
  while (true) {
    while (i < line.size() && line[i] == ' ') ++i;
    if (i == line.size()) return out;
    std::string tok;
    if (line[i] == '"') {
      ++i;
      bool closed = false;
      while (i < line.size()) {
        char c = line[i];
        if (c == '\\' && i + 3 < line.size() && line[i + 1] == 'x' && hex(line[i + 2]) && hex(line[i + 3])) {
          tok += static_cast<char>(std::stoi(line.substr(i + 2, 2), nullptr, 16));
          i += 4;
        } else if (c == '\\' && i + 1 < line.size()) {
          tok += line[i + 1];
          i += 2;
        } else if (c == '"') {
          ++i;
          closed = true;
          break;
        } else {
          tok += c;
          ++i;
        }
      }
      if (!closed || (i < line.size() && line[i] != ' ')) return std::nullopt;
    } else {
      while (i < line.size() && line[i] != ' ') {
        if (line[i] == '"' || line[i] == '\'') return std::nullopt;  // would open a quote
        tok += line[i++];
      }
    }
    out.push_back(tok);
  }
}

TEST(ConfigToken, BareWhenSafeQuotedOtherwise) {
  EXPECT_EQ(configToken("100mb"), "100mb");
  EXPECT_EQ(configToken(""), "\"\"");
  EXPECT_EQ(configToken("a\"b"), "\"a\\\"b\"");
  EXPECT_EQ(configToken("a\\b"), "\"a\\\\b\"");
  EXPECT_EQ(configToken("it's"), "\"it's\"");
  EXPECT_EQ(configToken("x\ny"), "\"x\\x0ay\"");
}

RC_GTEST_PROP(ConfigToken, RedisReadsBackExactlyTheToken, (const std::string& token)) {
  const std::string line = "requirepass " + configToken(token);
  RC_ASSERT(line.find('\n') == std::string::npos);
  RC_ASSERT(line.find('\r') == std::string::npos);
  const auto args = splitArgs(line);
  RC_ASSERT(args.has_value());
  RC_ASSERT(args->size() == 2u);
  RC_ASSERT((*args)[1] == token);
}

RC_GTEST_PROP(RedisConfigLines, AValueNeverAddsALineOrADirective, (const std::string& value)) {
  for (const auto& l : redisConfigLines("maxmemory-policy", value)) {
    RC_ASSERT(l.find('\n') == std::string::npos);
    RC_ASSERT(l.rfind("maxmemory-policy ", 0) == 0u);
    RC_ASSERT(splitArgs(l).has_value());
  }
}

TEST(RedisConfigLines, SaveIsOneLinePerPairAndEmptyIsQuoted) {
  EXPECT_EQ(redisConfigLines("save", "900 1 300 10"), (std::vector<std::string>{"save 900 1", "save 300 10"}));
  EXPECT_EQ(redisConfigLines("save", ""), (std::vector<std::string>{"save \"\""}));
  EXPECT_EQ(redisConfigLines("client-output-buffer-limit", "normal 0 0 0 pubsub 32mb 8mb 60"),
            (std::vector<std::string>{"client-output-buffer-limit normal 0 0 0",
                                      "client-output-buffer-limit pubsub 32mb 8mb 60"}));
  EXPECT_EQ(redisConfigLines("notify-keyspace-events", "KEA"), (std::vector<std::string>{"notify-keyspace-events KEA"}));
  EXPECT_EQ(redisConfigLines("save", "900"), (std::vector<std::string>{"save 900"}));  // Redis reports it
}

std::vector<std::string> lines(const std::string& text) {
  std::vector<std::string> out;
  std::istringstream in(text);
  for (std::string l; std::getline(in, l);) out.push_back(l);
  return out;
}

TEST(RenderRedisConf, BootsAsReplicaOfNothingCarriesConfigAndIncludesAuthLast) {
  api::RedisClusterSpec spec = api::withDefaults(test::cluster({{"config", {{"maxmemory", "100mb"}}}}).spec);
  const auto l = lines(renderRedisConf(spec));
  auto has = [&](const std::string& s) { return std::find(l.begin(), l.end(), s) != l.end(); };
  EXPECT_TRUE(has("replicaof 127.0.0.1 6379"));
  EXPECT_TRUE(has("dir /data"));
  EXPECT_TRUE(has("maxmemory 100mb"));
  // The spec's priority (the defaults' slave-priority 1) is the operator's to set once the
  // node is in sync: a node boots unpromotable.
  EXPECT_TRUE(has("replica-priority 0"));
  EXPECT_FALSE(has("slave-priority 1"));
  EXPECT_TRUE(has("appendonly yes"));
  EXPECT_TRUE(has("save 900 1"));
  EXPECT_EQ(l.back(), "include /redis-auth/auth.conf");
}

TEST(RenderRedisConf, DisabledPersistenceTurnsSnapshotsAndAofOff) {
  api::RedisClusterSpec spec = api::withDefaults(test::cluster({{"disablePersistence", true}}).spec);
  const auto l = lines(renderRedisConf(spec));
  EXPECT_NE(std::find(l.begin(), l.end(), "save \"\""), l.end());
  EXPECT_NE(std::find(l.begin(), l.end(), "appendonly no"), l.end());
  for (const auto& s : l) EXPECT_NE(s.rfind("save 9", 0), 0u) << s;
}

TEST(RenderAuthConf, MasterauthBeforeRequirepassQuoted) {
  EXPECT_EQ(renderAuthConf("p w\"d"), "masterauth \"p w\\\"d\"\nrequirepass \"p w\\\"d\"\n");
  EXPECT_EQ(renderAuthConf(""), "# no password\n");
}

TEST(RenderSentinelConf, MonitorsThePlaceholderWithAMajorityQuorum) {
  const std::string c = renderSentinelConf(5);
  EXPECT_NE(c.find("sentinel monitor mymaster 127.0.0.1 6379 3\n"), std::string::npos);
  EXPECT_EQ(c.find("auth-pass"), std::string::npos);
  EXPECT_EQ(sentinelQuorum(3), 2);
  EXPECT_EQ(sentinelQuorum(4), 3);
}

}  // namespace
}  // namespace kun::rediscluster
