#pragma once
// The simulated network: who can reach whom, how long a packet takes, how often one is
// lost. Endpoints are IP strings (ports do not matter to reachability). Every message the
// Redis/Sentinel simulator sends goes through send(), which delivers it on the event loop
// after the link's latency, in FIFO order per (from, to) pair — the order a TCP stream
// keeps.
//
// Simplifications (see fakeapi/redis/FIDELITY.md):
// - A packet on a cut link is dropped, not retransmitted after the heal: the connections
//   above notice gaps (replication) or missing replies (pings) and recover as real ones do
//   after their own timeouts.
// - "Loss" models TCP: a lost transmission is retransmitted after an RTO (200 ms, doubling),
//   so loss shows up as delay with the stream order kept, never as a hole in a stream.
#include <cstdint>
#include <string>
#include <string_view>
#include <unordered_map>
#include <utility>
#include <vector>

#include "core/runtime/event_loop.h"
#include "core/runtime/random.h"
#include "core/runtime/trace.h"

namespace kun {

using NetNodeId = std::uint32_t;

class NetworkModel {
 public:
  struct Options {
    Duration baseLatency = microseconds(100);  // one way, every link
    Duration jitter = microseconds(50);        // uniform extra in [0, jitter]
    Duration retransmitTimeout = milliseconds(200);
  };

  NetworkModel(EventLoop& loop, Random rng, Trace* trace = nullptr);
  NetworkModel(EventLoop& loop, Random rng, Options opts, Trace* trace = nullptr);

  // Endpoint ids: interned IPs, so the hot path never compares strings.
  NetNodeId intern(std::string_view ip);
  const std::string& ipOf(NetNodeId id) const { return ips_[id]; }

  // --- faults -------------------------------------------------------------------------
  // Cut every link to and from ip until heal()/reconnect(ip).
  void isolate(std::string_view ip);
  void reconnect(std::string_view ip);
  // Split into groups: endpoints in different groups cannot talk. Endpoints in no group
  // keep reaching everyone. Replaces the previous split.
  void partition(const std::vector<std::vector<std::string>>& groups);
  // One-way cut: packets from -> to are dropped; to -> from still flow.
  void cut(std::string_view from, std::string_view to);
  void cutBoth(std::string_view a, std::string_view b);
  void restore(std::string_view from, std::string_view to);
  // Added one-way latency on from -> to.
  void addLatency(std::string_view from, std::string_view to, Duration extra);
  // Each transmission from -> to is lost with probability num/den (and retransmitted).
  void setLoss(std::string_view from, std::string_view to, std::uint64_t num, std::uint64_t den);
  // Remove every cut, split, added latency and loss.
  void heal();

  // --- queries and traffic --------------------------------------------------------------
  bool reachable(NetNodeId from, NetNodeId to) const;
  bool reachable(std::string_view from, std::string_view to);
  bool healthy() const;  // no fault of any kind is active

  // Delivers `deliver` after the link's latency, unless the link is cut at send time or at
  // delivery time (then it is dropped and the sender is not told).
  void send(NetNodeId from, NetNodeId to, EventLoop::Task deliver);
  // For a blocking exchange that takes no virtual time (RedisAdmin): true when a packet
  // from -> to would be delivered now. Draws loss like a transmission; a lost draw is a
  // failure here (the blocking caller times out).
  bool probe(NetNodeId from, NetNodeId to);

  EventLoop& loop() { return loop_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t dropped() const { return dropped_; }

 private:
  struct Link {
    Duration extra{0};
    std::uint64_t lossNum = 0, lossDen = 1;
    bool cut = false;
    TimePoint lastDelivery{};
  };
  Link& link(NetNodeId from, NetNodeId to);
  const Link* findLink(NetNodeId from, NetNodeId to) const;
  void note(std::string text);

  EventLoop& loop_;
  Random rng_;
  Options opts_;
  Trace* trace_;
  std::vector<std::string> ips_;
  std::vector<std::pair<std::string, NetNodeId>> byIp_;  // sorted by ip
  std::vector<bool> isolated_;
  std::vector<int> group_;  // 0 = in no group
  // Keyed by from << 32 | to. Only looked up (heal() resets every entry), so the hash
  // order never reaches behaviour.
  std::unordered_map<std::uint64_t, Link> links_;
  std::uint64_t sent_ = 0, dropped_ = 0;
};

}  // namespace kun
