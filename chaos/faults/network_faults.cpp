#include "chaos/faults/network_faults.h"

#include <algorithm>
#include <set>

namespace kun::chaos {

namespace {

// Higher loss wins (num/den compared without division).
void combine(LinkEffect& into, const LinkEffect& e) {
  into.cut = into.cut || e.cut;
  into.latency = std::max(into.latency, e.latency);
  if (e.lossNum * into.lossDen > into.lossNum * e.lossDen) {
    into.lossNum = e.lossNum;
    into.lossDen = e.lossDen;
  }
}

}  // namespace

NetEffect cutBetween(const std::vector<std::string>& a, const std::vector<std::string>& b) {
  NetEffect out;
  for (const auto& x : a)
    for (const auto& y : b)
      if (x != y) {
        out[{x, y}].cut = true;
        out[{y, x}].cut = true;
      }
  return out;
}

NetEffect cutOneWay(const std::vector<std::string>& from, const std::vector<std::string>& to) {
  NetEffect out;
  for (const auto& x : from)
    for (const auto& y : to)
      if (x != y) out[{x, y}].cut = true;
  return out;
}

NetEffect aroundIp(const std::string& ip, const std::vector<std::string>& peers, LinkEffect e) {
  NetEffect out;
  for (const auto& p : peers)
    if (p != ip) {
      out[{ip, p}] = e;
      out[{p, ip}] = e;
    }
  return out;
}

NetworkFaults::Id NetworkFaults::add(NetEffect e) {
  const Id id = next_++;
  active_.emplace(id, std::move(e));
  apply();
  return id;
}

void NetworkFaults::update(Id id, NetEffect e) {
  active_[id] = std::move(e);
  apply();
}

void NetworkFaults::remove(Id id) {
  if (active_.erase(id) > 0) apply();
}

void NetworkFaults::apply() {
  NetEffect want;
  for (const auto& [id, effect] : active_)
    for (const auto& [link, e] : effect) combine(want[link], e);
  std::set<std::pair<std::string, std::string>> links;
  for (const auto& [l, e] : want) links.insert(l);
  for (const auto& [l, e] : applied_) links.insert(l);
  // Restores after cuts, so packets held for a healed link are released only once the
  // whole new state is in place.
  std::vector<std::pair<std::string, std::string>> restores;
  for (const auto& l : links) {
    const auto w = want.count(l) ? want.at(l) : LinkEffect{};
    const auto a = applied_.count(l) ? applied_.at(l) : LinkEffect{};
    if (w == a) continue;
    if (w.cut && !a.cut) net_.cut(l.first, l.second);
    if (!w.cut && a.cut) restores.push_back(l);
    if (w.latency != a.latency) net_.addLatency(l.first, l.second, w.latency);
    if (w.lossNum != a.lossNum || w.lossDen != a.lossDen) net_.setLoss(l.first, l.second, w.lossNum, w.lossDen);
  }
  for (const auto& l : restores) net_.restore(l.first, l.second);
  std::erase_if(want, [](const auto& kv) { return kv.second == LinkEffect{}; });
  applied_ = std::move(want);
}

}  // namespace kun::chaos
