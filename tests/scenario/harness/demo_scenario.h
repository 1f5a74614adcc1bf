#pragma once
// The inline scenario several harness tests build on: one cluster of 3 redis and 3
// sentinels, five writes, then `step` (on line 9 of "inline.yaml", for tests of messages).
#include <gtest/gtest.h>

#include <string>

#include "scenarios/scenario_parse.h"

namespace kun::scenario {

inline Scenario demoScenario(const std::string& step) {
  auto s = parseScenario(R"(name: demo
manifests:
  - apiVersion: redis.kun/v1beta1
    kind: RedisCluster
    metadata: {name: demo, namespace: default}
    spec: {size: 3, sentinel: {replicas: 3}}
steps:
  - write: {keys: 5, prefix: k}
  - )" + step + "\n",
                         "inline.yaml");
  EXPECT_TRUE(s.ok()) << s.error().message;
  return s.ok() ? *s : Scenario{};
}

}  // namespace kun::scenario
