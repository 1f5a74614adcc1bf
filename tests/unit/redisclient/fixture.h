#pragma once
// Reads a captured reply from tests/unit/redisclient/fixtures.
#include <gtest/gtest.h>

#include <fstream>
#include <sstream>
#include <string>

#include "core/redis/hiredis_reply.h"

namespace kun::testing {

inline std::string fixtureBytes(const std::string& name) {
  std::ifstream in(std::string(KUN_REDIS_FIXTURES) + "/" + name, std::ios::binary);
  EXPECT_TRUE(in.good()) << "missing fixture " << name;
  std::ostringstream ss;
  ss << in.rdbuf();
  return ss.str();
}

// The single reply in a .resp fixture.
inline RedisReply fixtureReply(const std::string& name) {
  auto replies = decodeResp(fixtureBytes(name));
  EXPECT_TRUE(replies.ok()) << name << ": " << (replies.ok() ? "" : replies.error().message);
  if (!replies.ok() || replies->empty()) return RedisReply::nil();
  EXPECT_EQ(replies->size(), 1u) << name;
  return replies->front();
}

}  // namespace kun::testing
