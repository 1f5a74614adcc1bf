#pragma once
#include <cstdint>
#include <string>
#include <vector>

namespace kun::scenario {

// With verifyViewCache, ScenarioWorld::observe() reads the processes every time, and
// wherever the digest said nothing changed, compares the verdicts (health, masters, what
// each sentinel names) of the kept view and the fresh one: the test that the digest covers
// what they read. It also has the pod bridge probe every time and compare where the
// redis readiness probe would have answered from its kept verdict (verifyReadinessCache).
struct ViewCacheCheck {
  std::uint64_t compared = 0;           // observations the kept view would have answered
  std::vector<std::string> mismatches;  // "kept: ... / fresh: ...", the first few
};

}  // namespace kun::scenario
