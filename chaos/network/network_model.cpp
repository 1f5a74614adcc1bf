#include "chaos/network/network_model.h"

#include <algorithm>
#include <cstdlib>
#include <iterator>

#include <fmt/format.h>

namespace kun {

NetworkModel::NetworkModel(EventLoop& loop, Random rng, Trace* trace)
    : NetworkModel(loop, std::move(rng), Options{}, trace) {}

NetworkModel::NetworkModel(EventLoop& loop, Random rng, Options opts, Trace* trace)
    : loop_(loop), sim_(dynamic_cast<SimLoop*>(&loop)), rng_(std::move(rng)), opts_(opts), trace_(trace) {}

NetNodeId NetworkModel::intern(std::string_view ip) {
  auto it = std::lower_bound(byIp_.begin(), byIp_.end(), ip,
                             [](const auto& e, std::string_view v) { return e.first < v; });
  if (it != byIp_.end() && it->first == ip) return it->second;
  const auto id = static_cast<NetNodeId>(ips_.size());
  ips_.emplace_back(ip);
  isolated_.push_back(false);
  group_.push_back(0);
  byIp_.insert(it, {std::string(ip), id});
  return id;
}

NetworkModel::Link& NetworkModel::makeLink(NetNodeId from, NetNodeId to) {
  if (from >= linkStride_ || to >= linkStride_) {
    const std::size_t stride = std::max<std::size_t>({16, 2 * linkStride_, std::size_t{from} + 1, std::size_t{to} + 1});
    std::vector<std::unique_ptr<Link>> grown(stride * stride);
    for (std::size_t f = 0; f < linkStride_; ++f)
      for (std::size_t t = 0; t < linkStride_; ++t) grown[f * stride + t] = std::move(links_[f * linkStride_ + t]);
    links_ = std::move(grown);
    linkStride_ = stride;
  }
  auto& l = links_[from * linkStride_ + to];
  if (!l) l = std::make_unique<Link>();
  return *l;
}

const NetworkModel::Link* NetworkModel::findLink(NetNodeId from, NetNodeId to) const {
  if (from >= linkStride_ || to >= linkStride_) return nullptr;
  return links_[from * linkStride_ + to].get();
}

void NetworkModel::updateMayBlock() {
  mayBlock_ = std::find(isolated_.begin(), isolated_.end(), true) != isolated_.end() ||
              std::find_if(group_.begin(), group_.end(), [](int g) { return g != 0; }) != group_.end() ||
              std::any_of(links_.begin(), links_.end(), [](const auto& l) { return l && l->cut; });
}

void NetworkModel::note(std::string text) {
  if (trace_) trace_->record(loop_.now(), "net", text);
}

void NetworkModel::isolate(std::string_view ip) {
  isolated_[intern(ip)] = true;
  mayBlock_ = true;
  note(fmt::format("isolate {}", ip));
}

void NetworkModel::reconnect(std::string_view ip) {
  isolated_[intern(ip)] = false;
  updateMayBlock();
  note(fmt::format("reconnect {}", ip));
  releaseHeld();
}

void NetworkModel::partition(const std::vector<std::vector<std::string>>& groups) {
  std::fill(group_.begin(), group_.end(), 0);
  std::string text = "partition";
  for (std::size_t g = 0; g < groups.size(); ++g) {
    text += " [";
    for (const auto& ip : groups[g]) {
      group_[intern(ip)] = static_cast<int>(g + 1);
      text += " " + ip;
    }
    text += " ]";
  }
  updateMayBlock();
  note(text);
  releaseHeld();
}

void NetworkModel::cut(std::string_view from, std::string_view to) {
  link(intern(from), intern(to)).cut = true;
  mayBlock_ = true;
  note(fmt::format("cut {} -> {}", from, to));
}

void NetworkModel::cutBoth(std::string_view a, std::string_view b) {
  cut(a, b);
  cut(b, a);
}

void NetworkModel::restore(std::string_view from, std::string_view to) {
  link(intern(from), intern(to)).cut = false;
  updateMayBlock();
  note(fmt::format("restore {} -> {}", from, to));
  releaseHeld();
}

void NetworkModel::addLatency(std::string_view from, std::string_view to, Duration extra) {
  link(intern(from), intern(to)).extra = extra;
  note(fmt::format("latency {} -> {} +{}us", from, to, extra.count()));
}

void NetworkModel::setLoss(std::string_view from, std::string_view to, std::uint64_t num,
                           std::uint64_t den) {
  const NetNodeId f = intern(from), t = intern(to);
  auto& l = link(f, t);
  const bool ended = l.lossNum != 0 && num == 0;
  if ((l.lossNum != 0) != (num != 0)) lossyLinks_ = num != 0 ? lossyLinks_ + 1 : lossyLinks_ - 1;
  l.lossNum = num;
  l.lossDen = den == 0 ? 1 : den;
  note(fmt::format("loss {} -> {} {}/{}", from, to, num, den));
  if (ended) lossEnded(l, f, t);
}

void NetworkModel::lossEnded(Link& l, NetNodeId from, NetNodeId to) {
  const TimePoint t = now();
  std::map<std::uint64_t, TimePoint> streamAt;  // the new arrival of each stream's last packet
  for (const std::uint32_t i : l.alonePackets) {  // in send order
    InFlight& p = packet(i);
    // A lost one comes with its retransmission due next (sentAt + rto x (2^k - 1), the
    // first at or after now); one only behind it, right after it.
    Duration wait{0};
    if (p.lost) {
      Duration rto = opts_.retransmitTimeout;
      wait = rto;
      while (p.sentAt + wait < t) {
        rto *= 2;
        wait += rto;
      }
    }
    TimePoint at = p.sentAt + wait + opts_.baseLatency + l.extra;
    if (at < l.lastDelivery) at = l.lastDelivery;  // behind the list, as when it was sent
    if (auto s = streamAt.find(p.stream); s != streamAt.end() && at < s->second) at = s->second;
    // Posted again, each with a new order (an order is never used twice), in send order:
    // those due at the same time still run in send order.
    if (sim_ != nullptr) sim_->cancel(p.timer);
    else loop_.cancel(p.timer);
    if (at < p.at) p.at = at;
    p.order = sim_ != nullptr ? sim_->reserveOrder() : loop_.reserveOrder();
    postAlone(i, from, to);
    streamAt[p.stream] = p.at;
  }
  for (auto& [stream, until] : l.stalled)
    if (auto s = streamAt.find(stream); s != streamAt.end()) until = s->second;
}

void NetworkModel::heal() {
  std::fill(isolated_.begin(), isolated_.end(), false);
  std::fill(group_.begin(), group_.end(), 0);
  for (std::size_t k = 0; k < links_.size(); ++k) {
    Link* l = links_[k].get();
    if (!l) continue;
    l->cut = false;
    l->extra = Duration{0};
    const bool lossy = l->lossNum != 0;
    l->lossNum = 0;
    if (lossy)
      lossEnded(*l, static_cast<NetNodeId>(k / linkStride_), static_cast<NetNodeId>(k % linkStride_));
  }
  mayBlock_ = false;
  lossyLinks_ = 0;
  note("heal");
  releaseHeld();
}

bool NetworkModel::healthy() const {
  if (std::find(isolated_.begin(), isolated_.end(), true) != isolated_.end()) return false;
  if (std::find_if(group_.begin(), group_.end(), [](int g) { return g != 0; }) != group_.end())
    return false;
  for (const auto& l : links_)
    if (l && (l->cut || l->extra.count() != 0 || l->lossNum != 0)) return false;
  return true;
}

bool NetworkModel::reachableSlow(NetNodeId from, NetNodeId to) const {
  if (isolated_[from] || isolated_[to]) return false;
  if (group_[from] != 0 && group_[to] != 0 && group_[from] != group_[to]) return false;
  const Link* l = findLink(from, to);
  return l == nullptr || !l->cut;
}

bool NetworkModel::reachable(std::string_view from, std::string_view to) {
  return reachable(intern(from), intern(to));
}

void NetworkModel::schedule(Link& l, NetNodeId from, NetNodeId to, std::uint64_t seq, std::uint64_t stream,
                            TimePoint since, EventLoop::Task&& deliver) {
  const std::uint32_t i = newPacket(l, seq, stream, since);
  packet(i).task = std::move(deliver);
  place(l, i, from, to);
}

TimePoint NetworkModel::stalledArrival(Link& l, InFlight& p, TimePoint at) {
  const std::uint64_t stream = p.stream;
  const Duration rtx = l.lossNum != 0 ? retransmissionDelay(l) : Duration{0};
  p.lost = rtx != Duration{0};
  at += rtx;
  const TimePoint t = now();
  std::erase_if(l.stalled, [t](const auto& s) { return s.second <= t; });  // caught up
  auto it = std::find_if(l.stalled.begin(), l.stalled.end(), [stream](const auto& s) { return s.first == stream; });
  // After every packet the link's list has on the way (some may be of this stream), and
  // after this stream's own stalled ones.
  if (at < l.lastDelivery) at = l.lastDelivery;
  if (it != l.stalled.end() && at < it->second) at = it->second;
  if (it == l.stalled.end() && rtx == Duration{0}) {
    l.lastDelivery = at;
    return at;
  }
  p.alone = true;
  if (it == l.stalled.end())
    l.stalled.emplace_back(stream, at);
  else
    it->second = at;
  return at;
}

void NetworkModel::postAlone(std::uint32_t i, NetNodeId from, NetNodeId to) {
  InFlight& p = packet(i);
  auto event = [this, i, from, to] { arriveAlone(i, from, to); };
  p.timer = sim_ != nullptr ? sim_->runAtReserved(p.at, p.order, event) : loop_.runAtReserved(p.at, p.order, event);
}

void NetworkModel::arriveAlone(std::uint32_t i, NetNodeId from, NetNodeId to) {
  std::erase(link(from, to).alonePackets, i);
  --delayed_;
  deliver(i, from, to);
}

void NetworkModel::deliver(std::uint32_t i, NetNodeId from, NetNodeId to) {
  InFlight& p = packet(i);  // stays in place while its delivery sends more
  if (!reachable(from, to))  // cut while in flight: retransmitted after the heal
    hold(from, to, p.seq, p.stream, p.since, std::move(p.task));
  else
    p.task();
  p.task = nullptr;
  freePackets_.push_back(i);
}

std::uint32_t NetworkModel::growPackets() {
  // More than 4 G packets on the way at once is a runaway simulation, not a workload.
  if (packetCount_ == kNoPacket) std::abort();
  if (packetCount_ % kPacketChunk == 0) packetChunks_.push_back(std::make_unique<InFlight[]>(kPacketChunk));
  return packetCount_++;
}

Duration NetworkModel::retransmissionDelay(const Link& l) {
  Duration d{0};
  Duration rto = opts_.retransmitTimeout;
  for (int tries = 0; tries < 16 && rng_.chance(l.lossNum, l.lossDen); ++tries) {
    d += rto;
    rto *= 2;
  }
  return d;
}

void NetworkModel::arrive(Link& l, NetNodeId from, NetNodeId to) {
  const std::uint32_t i = l.head;
  l.head = packet(i).next;
  if (l.head == kNoPacket)  // the usual case: nothing else on the way
    l.tail = kNoPacket;
  else
    postArrival(l, from, to);
  deliver(i, from, to);
}

void NetworkModel::hold(NetNodeId from, NetNodeId to, std::uint64_t seq, std::uint64_t stream, TimePoint since,
                        EventLoop::Task&& task) {
  auto& q = held_[{from, to}];
  // Give up on what has waited longer than TCP would retransmit.
  while (!q.empty() && loop_.now() - q.front().since > opts_.tcpGiveUp) {
    q.pop_front();
    ++dropped_;
  }
  // In send order: a packet that was in flight when the cut came goes before what was
  // sent after it.
  auto pos = q.end();
  while (pos != q.begin() && std::prev(pos)->seq > seq) --pos;
  q.insert(pos, Held{since, seq, stream, std::move(task)});
}

void NetworkModel::releaseHeld() {
  for (auto it = held_.begin(); it != held_.end();) {
    const auto [from, to] = it->first;
    if (!reachable(from, to)) {
      ++it;
      continue;
    }
    std::deque<Held> q = std::move(it->second);
    it = held_.erase(it);
    Link& l = link(from, to);
    for (auto& h : q) {
      if (loop_.now() - h.since > opts_.tcpGiveUp) {
        ++dropped_;
        continue;
      }
      schedule(l, from, to, h.seq, h.stream, h.since, std::move(h.task));
    }
  }
}

std::size_t NetworkModel::held() const {
  std::size_t n = 0;
  for (const auto& [k, q] : held_) n += q.size();
  return n;
}

bool NetworkModel::probe(NetNodeId from, NetNodeId to) {
  if (!reachable(from, to)) return false;
  const Link* l = findLink(from, to);
  if (l != nullptr && l->lossNum != 0 && rng_.chance(l->lossNum, l->lossDen)) return false;
  return true;
}

}  // namespace kun
