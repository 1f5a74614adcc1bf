// Command lines and config directives of the generated pods as process options.
#include <gtest/gtest.h>

#include "core/rediscluster/config_files.h"
#include "core/rediscluster/generate.h"
#include "fakeapi/world/pod_files.h"
#include "fakeapi/world/process_spec.h"
#include "tests/unit/rediscluster/cluster_fixture.h"

namespace kun::sim {
namespace {

const Object& container(const Object& sts, const std::string& name) {
  const Object* c = findContainer(sts["spec"]["template"], name);
  EXPECT_NE(c, nullptr) << name;
  static const Object none;
  return c ? *c : none;
}

TEST(ParseCommand, GeneratedRedisAndSentinelContainers) {
  const auto rc = test::cluster(Object{{"size", 3}});
  auto redis = parseCommand(container(rediscluster::redisStatefulSet(rc), "redis"));
  ASSERT_TRUE(redis) << redis.error().message;
  EXPECT_FALSE(redis->sentinel);
  EXPECT_EQ(redis->configFile, "/redis/redis.conf");
  auto sentinel = parseCommand(container(rediscluster::sentinelStatefulSet(rc), "sentinel"));
  ASSERT_TRUE(sentinel) << sentinel.error().message;
  EXPECT_TRUE(sentinel->sentinel);
  EXPECT_EQ(sentinel->configFile, "/redis/sentinel.conf");
}

TEST(ParseCommand, OptionsAfterTheFileAndOtherPrograms) {
  auto c = parseCommand(Object{{"command", {"/usr/bin/redis-server"}}, {"args", {"/etc/r.conf", "--port", "7000", "--save", "60", "1"}}});
  ASSERT_TRUE(c);
  EXPECT_EQ(c->configFile, "/etc/r.conf");
  ASSERT_EQ(c->options.size(), 2u);
  EXPECT_EQ(c->options[0].name, "port");
  EXPECT_EQ(c->options[1].joined(), "60 1");
  EXPECT_TRUE(parseCommand(Object{{"command", {"redis-sentinel", "/s.conf"}}})->sentinel);
  EXPECT_TRUE(parseCommand(Object::object())->configFile.empty());
  EXPECT_TRUE(parseCommand(Object{{"command", {"sh", "-c", "redis-server"}}}).is(Reason::Invalid));
}

TEST(ApplyRedisDirectives, SaveLinesAddUpAndPortIsTaken) {
  redissim::RedisNodeOptions o;
  applyRedisDirectives({{"save", {"900", "1"}}, {"save", {"300", "10"}}, {"port", {"6380"}}}, o);
  EXPECT_EQ(o.port, 6380);
  ASSERT_FALSE(o.config.empty());
  EXPECT_EQ(o.config.back(), (std::pair<std::string, std::string>{"save", "900 1 300 10"}));
  redissim::RedisNodeOptions cleared;
  applyRedisDirectives({{"save", {"900", "1"}}, {"save", {""}}}, cleared);
  EXPECT_EQ(cleared.config.back(), (std::pair<std::string, std::string>{"save", ""}));
}

TEST(ApplySentinelDirectives, GeneratedSentinelConf) {
  auto d = readConfigText(rediscluster::renderSentinelConf(3), [](const std::string& p) -> Result<std::string> {
    return makeError(Reason::NotFound, p);
  });
  ASSERT_TRUE(d);
  redissim::SentinelOptions o;
  ASSERT_TRUE(applySentinelDirectives(*d, o).ok());
  ASSERT_EQ(o.monitors.size(), 1u);
  EXPECT_EQ(o.monitors[0].name, "mymaster");
  EXPECT_EQ(o.monitors[0].host, "127.0.0.1");
  EXPECT_EQ(o.monitors[0].quorum, 2);
  EXPECT_EQ(o.monitors[0].downAfterMs, 1000);
  EXPECT_EQ(o.monitors[0].failoverTimeoutMs, 3000);
  EXPECT_EQ(o.monitors[0].parallelSyncs, 2);
  redissim::SentinelOptions bad;
  EXPECT_TRUE(applySentinelDirectives({{"sentinel", {"down-after-milliseconds", "other", "5"}}}, bad).is(Reason::Invalid));
}

TEST(Base64Decode, PaddingAndMalformed) {
  EXPECT_EQ(base64Decode("cGFzcw=="), "pass");
  EXPECT_EQ(base64Decode("cGFzc3c="), "passw");
  EXPECT_EQ(base64Decode(""), "");
  EXPECT_FALSE(base64Decode("abc"));
}

}  // namespace
}  // namespace kun::sim
