#pragma once
// Which acknowledged writes were already on every redis node when a fault began.
//
// Real Sentinel loses an acknowledged write to a crash, hang or partition only when the
// write had not reached the replica that takes over: replication is asynchronous, so what
// the master acknowledged just before the fault may be gone. A write that every redis
// process of the cluster already held when the fault began is on whichever node becomes
// master, so losing it is not Sentinel's doing (an operator that promoted an empty node,
// say). The runner takes a snapshot just before each fault that may lose writes is
// applied, and asks it when it explains a loss.
#include <map>
#include <set>
#include <string>

#include "core/runtime/time.h"

namespace kun::scenario {

class KeyClient;
class ScenarioWorld;

class WriteDurability {
 public:
  // Notes, for a fault beginning now, the acknowledged writes that every redis pod of
  // the cluster (spec.size of them, each with a process that has its data in memory)
  // holds. A cluster with fewer pods than its size holds nothing everywhere.
  void snapshot(ScenarioWorld& w, const KeyClient& keys, const std::string& ns, const std::string& cluster);
  // Whether key's write `value` was on every node at the snapshot taken at `at` (false
  // when none was taken then).
  bool everywhere(TimePoint at, const std::string& key, const std::string& value) const;
  // Whether ip was a redis pod of the cluster, with its data in memory, at the snapshot
  // taken at `at` (false when none was taken then).
  bool servedBy(TimePoint at, const std::string& ip) const;

 private:
  std::map<TimePoint, std::set<std::string>> held_;  // snapshot time -> "key=value"
  std::map<TimePoint, std::set<std::string>> ips_;   // snapshot time -> pod IPs
};

}  // namespace kun::scenario
