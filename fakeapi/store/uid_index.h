#pragma once
// Cluster-wide indexes by uid: where each object lives, and which objects name a uid in
// their ownerReferences (what the garbage collector walks). Dependents are kept in uid
// order, so walks are deterministic.
#include <map>
#include <set>
#include <string>
#include <vector>

#include "fakeapi/store/store_types.h"

namespace kun::store {

class UidIndex {
 public:
  void add(const std::string& uid, ObjRef ref) { byUid_[uid] = std::move(ref); }
  void remove(const std::string& uid) { byUid_.erase(uid); }
  const ObjRef* find(const std::string& uid) const {
    auto it = byUid_.find(uid);
    return it == byUid_.end() ? nullptr : &it->second;
  }
  bool contains(const std::string& uid) const { return byUid_.count(uid) > 0; }

  // Replaces the owners recorded for dependent uid.
  void setOwners(const std::string& uid, const std::vector<std::string>& before, const std::vector<std::string>& after) {
    for (const auto& o : before) {
      auto it = dependents_.find(o);
      if (it == dependents_.end()) continue;
      it->second.erase(uid);
      if (it->second.empty()) dependents_.erase(it);
    }
    for (const auto& o : after) dependents_[o].insert(uid);
  }
  std::vector<std::string> dependentsOf(const std::string& ownerUid) const {
    auto it = dependents_.find(ownerUid);
    if (it == dependents_.end()) return {};
    return {it->second.begin(), it->second.end()};
  }
  bool hasDependents(const std::string& ownerUid) const { return dependents_.count(ownerUid) > 0; }

 private:
  std::map<std::string, ObjRef> byUid_;
  std::map<std::string, std::set<std::string>> dependents_;
};

// The uids in metadata.ownerReferences, in order.
std::vector<std::string> ownerUidsOf(const Object& o);

}  // namespace kun::store
