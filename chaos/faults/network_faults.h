#pragma once
// Network faults that overlap: each active fault is a set of per-link effects (one-way cut,
// added latency, loss); the network model is given their combination (cut if any cuts,
// the largest latency, the highest loss), and only links whose combined effect changed
// are touched. Ending one fault so leaves every other one in place, and links this layer
// never touched (cut by someone else) are never changed.
#include <cstdint>
#include <map>
#include <string>
#include <utility>
#include <vector>

#include "chaos/network/network_model.h"

namespace kun::chaos {

struct LinkEffect {
  bool cut = false;
  Duration latency{0};
  std::uint64_t lossNum = 0, lossDen = 1;
  bool operator==(const LinkEffect&) const = default;
};

// (from ip, to ip) -> effect.
using NetEffect = std::map<std::pair<std::string, std::string>, LinkEffect>;

// Both directions between every member of a and every member of b are cut.
NetEffect cutBetween(const std::vector<std::string>& a, const std::vector<std::string>& b);
// Only from -> to is cut.
NetEffect cutOneWay(const std::vector<std::string>& from, const std::vector<std::string>& to);
// Every link between ip and each peer, both ways, gets e.
NetEffect aroundIp(const std::string& ip, const std::vector<std::string>& peers, LinkEffect e);

class NetworkFaults {
 public:
  using Id = std::uint64_t;
  explicit NetworkFaults(NetworkModel& net) : net_(net) {}

  Id add(NetEffect e);
  void update(Id id, NetEffect e);
  void remove(Id id);
  std::size_t active() const { return active_.size(); }

 private:
  void apply();

  NetworkModel& net_;
  std::map<Id, NetEffect> active_;
  NetEffect applied_;
  Id next_ = 1;
};

}  // namespace kun::chaos
