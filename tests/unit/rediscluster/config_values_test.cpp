// lowerCase lowers ASCII itself rather than calling std::tolower per character; in the "C"
// locale the process runs in the two must agree on every byte.
#include <gtest/gtest.h>

#include <cctype>
#include <string>

#include "core/rediscluster/config_values.h"

namespace kun::rediscluster {
namespace {

TEST(ConfigValues, LowerCaseAgreesWithStdToLowerOnEveryByte) {
  std::string all;
  for (int c = 0; c < 256; ++c) all.push_back(static_cast<char>(c));
  std::string expected = all;
  for (char& c : expected) c = static_cast<char>(std::tolower(static_cast<unsigned char>(c)));
  EXPECT_EQ(lowerCase(all), expected);
  EXPECT_EQ(lowerCase("Min-Replicas-To-Write"), "min-replicas-to-write");
}

}  // namespace
}  // namespace kun::rediscluster
