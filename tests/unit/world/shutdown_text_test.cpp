// The preStop hook's scans of a shutdown script answer what the ECMAScript patterns they
// stand for (shutdown_text.h) answer, on the generated scripts and on texts made to trip
// each pattern's edges; random texts over the patterns' alphabet check the rest.
#include <gtest/gtest.h>

#include <random>
#include <regex>

#include "core/rediscluster/probe_scripts.h"
#include "fakeapi/world/shutdown_text.h"

namespace kun::sim {
namespace {

std::string firstMatch(const std::string& text, const std::regex& re) {
  std::smatch m;
  return std::regex_search(text, m, re) ? m[1].str() : std::string();
}

void expectSameAsPatterns(const std::string& text) {
  static const std::regex save(R"((^|\n)[^#\n]*redis-cli[^\n]* SAVE\s*(\n|$))");
  static const std::regex host(R"(-h\s+([A-Za-z0-9][A-Za-z0-9.-]*)\s+-p\s+\d+\s+"\$@")");
  static const std::regex port(R"(-h\s+[A-Za-z0-9.-]+\s+-p\s+(\d+)\s+"\$@")");
  static const std::regex master(R"(get-master-addr-by-name\s+(\S+))");
  static const std::regex bound(R"(\$i\s+-lt\s+(\d+))");
  SCOPED_TRACE(text);
  EXPECT_EQ(shutdown_text::saves(text), std::regex_search(text, save));
  EXPECT_EQ(shutdown_text::sentinelHost(text), firstMatch(text, host));
  EXPECT_EQ(shutdown_text::sentinelPort(text), firstMatch(text, port));
  EXPECT_EQ(shutdown_text::masterName(text), firstMatch(text, master));
  EXPECT_EQ(shutdown_text::loopBound(text), firstMatch(text, bound));
}

TEST(ShutdownText, GeneratedScripts) {
  for (bool persistence : {false, true}) {
    const std::string s = rediscluster::shutdownScript("cluster-a", persistence);
    expectSameAsPatterns(s);
    EXPECT_EQ(shutdown_text::saves(s), persistence);
    EXPECT_FALSE(shutdown_text::sentinelHost(s).empty());
    EXPECT_FALSE(shutdown_text::loopBound(s).empty());
  }
}

TEST(ShutdownText, Edges) {
  for (const char* t : {
           "", "redis-cli SAVE", "redis-cli -p 1 SAVE  \n", "# redis-cli SAVE\n", "x # redis-cli SAVE",
           "redis-cli SAVE x\n", "redis-cli SAVE SAVE", "redis-cli SAVE x SAVE \t", "a\nredis-cli  SAVE\n\n  \nb",
           "redis-cli SAVE \r\nfoo", " SAVE redis-cli", "redis-cliSAVE", "redis-cli\n SAVE", "#\nredis-cli SAVE",
           "redis-cli SAVE x\nredis-cli SAVE", "redis-cli SAVE   x", "redis-cli SAVE\v\f",
           "-h host -p 26379 \"$@\"", "-h .host -p 1 \"$@\"", "x-h  a.b-c\t-p\t12  \"$@\"", "-h a -p \"$@\"",
           "-h a -p 1 \"$@\" -h b -p 2 \"$@\"", "-h -h b -p 3 \"$@\"", "-h a b -p 1 \"$@\" -h c -p 4 \"$@\"",
           "-ha -p 1 \"$@\"", "-h a -p 1 \"$@", "-h a -p 12x \"$@\"",
           "get-master-addr-by-name mymaster 2>", "get-master-addr-by-name\n\tm,x", "get-master-addr-by-name",
           "get-master-addr-by-namex y get-master-addr-by-name z", "$i -lt 10 ]", "$i -lt x $i  -lt 7", "$i-lt 3",
           "$i -lt", "$$i -lt 05"}) {
    expectSameAsPatterns(t);
  }
}

TEST(ShutdownText, RandomTextsOverThePatternsAlphabet) {
  const std::vector<std::string> pieces = {"redis-cli", " SAVE", "SAVE", "#", "\n", " ", "\t", "\r", "-h", "-p",
                                           "\"$@\"", "12", "a", "b.c", "-", ".", "x", "get-master-addr-by-name",
                                           "$i", "-lt", "7", "\"", "$@"};
  std::mt19937 rng(7);
  for (int i = 0; i < 3000; ++i) {
    std::string t;
    const int n = static_cast<int>(rng() % 12);
    for (int j = 0; j < n; ++j) t += pieces[rng() % pieces.size()];
    expectSameAsPatterns(t);
  }
}

}  // namespace
}  // namespace kun::sim
