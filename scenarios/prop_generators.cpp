#include "scenarios/prop_generators.h"

#include <rapidcheck.h>

#include "core/runtime/random.h"

namespace kun::scenario {

namespace {

// One fault: its kind, its start and a seed for the rest of its parameters. Drawn at
// RapidCheck's full size: gen::inRange and gen::arbitrary scale their range with the size,
// and a schedule's size is its fault count (at most maxFaults), which would leave only the
// first kinds, the first minute and a few parameter seeds.
rc::Gen<chaos::Fault> genFault(std::vector<chaos::FaultKind> kinds, chaos::ScheduleOptions so) {
  const int horizonMs = static_cast<int>(toMillis(so.horizon));
  return rc::gen::resize(rc::kNominalSize,
                         rc::gen::apply(
                             [kinds, so](std::size_t k, int atMs, std::uint32_t seed) {
                               Random r(seed);
                               return chaos::generateFault(r, kinds[k], milliseconds(atMs), so);
                             },
                             rc::gen::inRange<std::size_t>(0, kinds.size()), rc::gen::inRange(0, horizonMs),
                             rc::gen::arbitrary<std::uint32_t>()));
}

}  // namespace

rc::Gen<std::vector<chaos::Fault>> genScheduleFaults(std::vector<chaos::FaultKind> kinds, chaos::ScheduleOptions so) {
  const auto max = static_cast<std::size_t>(std::max(1, so.maxFaults));
  // The size is the count's upper bound; the container's length is drawn up to the size.
  return rc::gen::map(rc::gen::resize(static_cast<int>(max),
                                      rc::gen::nonEmpty(rc::gen::container<std::vector<chaos::Fault>>(
                                          genFault(std::move(kinds), so)))),
                      [max](std::vector<chaos::Fault> faults) {
                        if (faults.size() > max) faults.resize(max);
                        return faults;
                      });
}

rc::Gen<Object> genCluster() {
  return rc::gen::resize(
      rc::kNominalSize,
      rc::gen::apply(
          [](int size, bool fiveSentinels, bool noPersistence, bool password, int downAfterS, int failoverTimeoutStep) {
            Object spec{{"size", size}, {"sentinel", {{"replicas", fiveSentinels ? 5 : 3}}}};
            if (noPersistence) spec["disablePersistence"] = true;
            if (password) spec["password"] = "pw-prop";
            Object custom = Object::array();
            if (downAfterS > 0) custom.push_back("down-after-milliseconds " + std::to_string(downAfterS * 1000));
            if (failoverTimeoutStep > 0) custom.push_back("failover-timeout " + std::to_string(failoverTimeoutStep * 5000));
            if (!custom.empty()) spec["sentinel"]["customConfig"] = std::move(custom);
            return Object{{"apiVersion", "redis.kun/v1beta1"},
                          {"kind", "RedisCluster"},
                          {"metadata", {{"name", "prop"}, {"namespace", "default"}}},
                          {"spec", std::move(spec)}};
          },
          rc::gen::inRange(3, 6), rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>(), rc::gen::arbitrary<bool>(),
          rc::gen::inRange(0, 10), rc::gen::inRange(0, 4)));
}

}  // namespace kun::scenario
