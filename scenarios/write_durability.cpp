#include "scenarios/write_durability.h"

#include "scenarios/key_client.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {

void WriteDurability::snapshot(ScenarioWorld& w, const KeyClient& keys, const std::string& ns,
                               const std::string& cluster) {
  const TimePoint now = w.loop().now();
  auto& held = held_[now];  // several faults at one instant share what they found
  held.clear();
  auto& ips = ips_[now];
  ips.clear();
  auto rc = w.cluster(ns, cluster);
  if (!rc) return;
  std::vector<const redissim::RedisNode*> nodes;
  for (const auto& p : w.pods(*rc).redis) {
    if (p.ip.empty() || p.terminating) continue;
    const auto* n = w.world().redis().redis({p.ip, 6379});
    // A hung process keeps its memory; a stopped one has none.
    if (!n || n->state() == redissim::SimProcess::State::Down || n->state() == redissim::SimProcess::State::Starting)
      continue;
    nodes.push_back(n);
    ips.insert(p.ip);
  }
  if (static_cast<int>(nodes.size()) < rc->spec.size) return;
  for (const auto& [key, write] : keys.acknowledgedWrites()) {
    bool all = true;
    for (const auto* n : nodes) {
      auto it = n->data().find(key);
      if (it == n->data().end() || !keys.holds(key, it->second)) {
        all = false;
        break;
      }
    }
    if (all) held.insert(key + "=" + write.value);
  }
}

bool WriteDurability::everywhere(TimePoint at, const std::string& key, const std::string& value) const {
  auto it = held_.find(at);
  return it != held_.end() && it->second.count(key + "=" + value) > 0;
}

bool WriteDurability::servedBy(TimePoint at, const std::string& ip) const {
  auto it = ips_.find(at);
  return it != ips_.end() && it->second.count(ip) > 0;
}

}  // namespace kun::scenario
