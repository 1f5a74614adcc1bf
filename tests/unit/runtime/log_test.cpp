#include <gtest/gtest.h>

#include <nlohmann/json.hpp>

#include "core/runtime/log.h"
#include "core/runtime/sim_loop.h"

namespace kun {
namespace {

struct Captured {
  std::vector<std::string> lines;
  Logger::Sink sink() {
    return [this](std::string_view l) { lines.emplace_back(l); };
  }
};

TEST(Logger, KeyValueLineOnVirtualTime) {
  SimLoop loop;
  loop.runFor(milliseconds(12345));
  Captured out;
  Logger log(&loop, LogLevel::Info, out.sink());
  log.info("pod created", {{"name", "redis-0"}, {"ns", "prod"}});
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0], "t=12.345s level=info msg=\"pod created\" name=redis-0 ns=prod");
}

TEST(Logger, QuotesValuesThatNeedIt) {
  SimLoop loop;
  Captured out;
  Logger log(&loop, LogLevel::Debug, out.sink());
  log.warn("x", {{"empty", ""},
                 {"space", "a b"},
                 {"eq", "k=v"},
                 {"quote", "say \"hi\""},
                 {"newline", "l1\nl2"},
                 {"plain", "a.b/c-d_e:1"}});
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0],
            "t=0.000s level=warn msg=x empty=\"\" space=\"a b\" eq=\"k=v\" quote=\"say \\\"hi\\\"\" "
            "newline=\"l1\\nl2\" plain=a.b/c-d_e:1");
}

TEST(Logger, LevelsFilter) {
  SimLoop loop;
  Captured out;
  Logger log(&loop, LogLevel::Warn, out.sink());
  EXPECT_FALSE(log.enabled(LogLevel::Info));
  EXPECT_TRUE(log.enabled(LogLevel::Error));
  log.debug("d");
  log.info("i");
  log.warn("w");
  log.error("e");
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_NE(out.lines[0].find("level=warn msg=w"), std::string::npos);
  EXPECT_NE(out.lines[1].find("level=error msg=e"), std::string::npos);
  log.setLevel(LogLevel::Off);
  log.error("silenced");
  EXPECT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(log.level(), LogLevel::Off);
}

TEST(Logger, ComponentLoggerSharesTheSink) {
  SimLoop loop;
  Captured out;
  Logger root(&loop, LogLevel::Info, out.sink());
  Logger store = root.withComponent("store");
  store.info("hello");
  root.info("root");
  ASSERT_EQ(out.lines.size(), 2u);
  EXPECT_EQ(out.lines[0], "t=0.000s level=info component=store msg=hello");
  EXPECT_EQ(out.lines[1], "t=0.000s level=info msg=root");
}

TEST(Logger, JsonMode) {
  SimLoop loop;
  loop.runFor(milliseconds(2500));
  Captured out;
  Logger log(&loop, LogLevel::Info, out.sink());
  log.setJson(true);
  log.withComponent("op").error("failed \"x\"", {{"reason", "Conflict"}, {"n", "3"}});
  ASSERT_EQ(out.lines.size(), 1u);
  const auto j = nlohmann::json::parse(out.lines[0]);
  EXPECT_EQ(j["t"], "2.500s");
  EXPECT_EQ(j["level"], "error");
  EXPECT_EQ(j["component"], "op");
  EXPECT_EQ(j["msg"], "failed \"x\"");
  EXPECT_EQ(j["reason"], "Conflict");
  EXPECT_EQ(j["n"], "3");
  EXPECT_EQ(out.lines[0].find('\n'), std::string::npos);  // one object per line
}

TEST(Logger, TimestampsFollowTheLoop) {
  SimLoop loop;
  Captured out;
  Logger log(&loop, LogLevel::Info, out.sink());
  loop.runAfter(seconds(61), [&] { log.info("later"); });
  loop.runFor(minutes(2));
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0], "t=61.000s level=info msg=later");
}

TEST(Logger, WithoutAClock) {
  Captured out;
  Logger log(nullptr, LogLevel::Info, out.sink());
  log.info("boot");
  ASSERT_EQ(out.lines.size(), 1u);
  EXPECT_EQ(out.lines[0], "t=- level=info msg=boot");
}

TEST(ParseLogLevel, KnownAndUnknown) {
  LogLevel l = LogLevel::Info;
  EXPECT_TRUE(parseLogLevel("debug", l));
  EXPECT_EQ(l, LogLevel::Debug);
  EXPECT_TRUE(parseLogLevel("off", l));
  EXPECT_EQ(l, LogLevel::Off);
  EXPECT_TRUE(parseLogLevel("error", l));
  EXPECT_EQ(l, LogLevel::Error);
  EXPECT_FALSE(parseLogLevel("verbose", l));
  EXPECT_FALSE(parseLogLevel("INFO", l));
  EXPECT_EQ(l, LogLevel::Error);  // unchanged on failure
}

}  // namespace
}  // namespace kun
