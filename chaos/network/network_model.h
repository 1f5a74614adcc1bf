#pragma once
// The simulated network: who can reach whom, how long a packet takes, how often one is
// lost. Endpoints are IP strings (ports do not matter to reachability). Every message the
// Redis/Sentinel simulator sends goes through send(), which delivers it on the event loop
// after the link's latency, in FIFO order per (from, to) pair — the order a TCP stream
// keeps — except that a retransmission holds back only its own stream (a connection),
// not the other connections between the same two addresses.
//
// Everything above is TCP, so the model behaves as TCP does for it:
// - A packet on a cut link (sent while cut, or in flight when the cut came) is held and
//   delivered, in order, once the link is reachable again — as TCP retransmits — unless
//   the cut lasts longer than tcpGiveUp, after which it is dropped (the connection would
//   have timed out). Connections whose ends died meanwhile discard what arrives.
// - "Loss" is a lost transmission retransmitted after an RTO (200 ms, doubling): delay,
//   with the stream order kept, never a hole in a stream.
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <utility>
#include <vector>

#include "core/runtime/event_loop.h"
#include "core/runtime/random.h"
#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"

namespace kun {

using NetNodeId = std::uint32_t;

class NetworkModel {
 public:
  struct Options {
    Duration baseLatency = microseconds(100);  // one way, every link
    Duration jitter = microseconds(50);        // uniform extra in [0, jitter]
    Duration retransmitTimeout = milliseconds(200);
    Duration tcpGiveUp = seconds(900);  // Linux tcp_retries2 = 15: about 15 minutes
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
  // Checked twice per packet: with no cut, isolation or split anywhere (most of a run)
  // the answer needs no look-up.
  bool reachable(NetNodeId from, NetNodeId to) const {
    return from == to || !mayBlock_ || reachableSlow(from, to);
  }
  bool reachable(std::string_view from, std::string_view to);
  // No cut, isolation or split, and no loss, anywhere: probe() is true for every pair,
  // without a draw.
  bool probesCertain() const { return !mayBlock_ && lossyLinks_ == 0; }
  bool healthy() const;  // no fault of any kind is active

  // Delivers `deliver` after the link's latency; across a cut, after the heal (see above).
  // A template, so that the callable is made into the packet's Task where the packet is
  // kept, not first into a Task that is then moved there.
  // `stream` names the connection the packet belongs to (0: the link's one stream).
  template <class F>
  void send(NetNodeId from, NetNodeId to, F&& deliver) {
    send(from, to, 0, std::forward<F>(deliver));
  }
  template <class F>
  void send(NetNodeId from, NetNodeId to, std::uint64_t stream, F&& deliver) {
    ++sent_;
    Link& l = link(from, to);
    const std::uint64_t seq = l.nextSeq++;
    if (!reachable(from, to)) {
      hold(from, to, seq, stream, now(), EventLoop::Task(std::forward<F>(deliver)));
      return;
    }
    const std::uint32_t i = newPacket(l, seq, stream, now());
    // A free packet's task is empty: the callable is made in its place rather than into
    // a Task that is then moved there.
    EventLoop::Task& task = packet(i).task;
    task.~Task();
    ::new (static_cast<void*>(&task)) EventLoop::Task(std::forward<F>(deliver));
    place(l, i, from, to);
  }
  // For a blocking exchange that takes no virtual time (RedisAdmin): true when a packet
  // from -> to would be delivered now. Draws loss like a transmission; a lost draw is a
  // failure here (the blocking caller times out).
  bool probe(NetNodeId from, NetNodeId to);

  EventLoop& loop() { return loop_; }
  std::uint64_t sent() const { return sent_; }
  std::uint64_t dropped() const { return dropped_; }
  std::size_t held() const;
  // Packets on their way behind a retransmission (each arrives late, as TCP's backed-off
  // retransmissions do, up to minutes after a loss ended).
  std::size_t delayed() const { return delayed_; }

 private:
  static constexpr std::uint32_t kNoPacket = ~std::uint32_t{0};
  // A packet on its way. Packets live in a pool of fixed chunks (see packet()), so one
  // stays where it is while its delivery runs, even when that sends more: it is run in
  // place rather than moved out of its link's queue first (a move of a Task is an
  // indirect call, and a reply's copies its bytes).
  struct InFlight {
    std::uint64_t seq = 0;
    std::uint64_t stream = 0;
    bool alone = false;      // retransmitted, or behind a retransmission of its stream: not on the link's list
    bool lost = false;       // retransmitted
    TimePoint sentAt{};      // when this transmission began (its retransmissions count from it)
    TimerId timer = 0;       // an alone packet's arrival event
    TimePoint since{};
    TimePoint at{};          // when it arrives
    std::uint64_t order = 0; // its place among events due at `at` (EventLoop::reserveOrder)
    std::uint32_t next = kNoPacket;  // the packet after it on its link
    EventLoop::Task task;   // empty while the packet is free
  };
  struct Link {
    Duration extra{0};
    std::uint64_t lossNum = 0, lossDen = 1;
    bool cut = false;
    TimePoint lastDelivery{};
    std::uint64_t nextSeq = 0;  // send order, kept across a cut
    // Packets on their way, in send order, as a list through the pool. Arrival times on
    // a link never decrease, so only the front packet's arrival is in the loop, with the
    // order reserved when it was sent; its arrival posts the next one's. The loop's queue
    // then holds a packet per busy link, not every packet (a slow link under a latency
    // fault had thousands on the way), and the event carries only the link, not the
    // packet (a wrapper around the packet's task would not fit in a Task and would cost
    // an allocation per packet).
    std::uint32_t head = kNoPacket, tail = kNoPacket;
    // Streams held back by a retransmission, and until when: their packets arrive no
    // earlier, each on its own event, while the other streams' go by on the list.
    std::vector<std::pair<std::uint64_t, TimePoint>> stalled;
    std::vector<std::uint32_t> alonePackets;  // on their way, in send order
  };
  struct Held {
    TimePoint since;
    std::uint64_t seq;
    std::uint64_t stream;
    EventLoop::Task task;
  };
  // The link, made on first use (growing the table if an id is past it).
  Link& link(NetNodeId from, NetNodeId to) {
    if (from < linkStride_ && to < linkStride_) {
      if (Link* l = links_[from * linkStride_ + to].get()) return *l;
    }
    return makeLink(from, to);
  }
  Link& makeLink(NetNodeId from, NetNodeId to);
  const Link* findLink(NetNodeId from, NetNodeId to) const;
  bool reachableSlow(NetNodeId from, NetNodeId to) const;
  void updateMayBlock();  // after any change of isolation, split or cut
  void note(std::string text);
  void hold(NetNodeId from, NetNodeId to, std::uint64_t seq, std::uint64_t stream, TimePoint since,
            EventLoop::Task&& task);
  // l is link(from, to), looked up once by the caller.
  void schedule(Link& l, NetNodeId from, NetNodeId to, std::uint64_t seq, std::uint64_t stream, TimePoint since,
                EventLoop::Task&& task);
  // The packet pool: chunks of kPacketChunk that never move, and the free packets.
  static constexpr std::uint32_t kPacketChunkBits = 6, kPacketChunk = 1u << kPacketChunkBits;
  InFlight& packet(std::uint32_t i) { return packetChunks_[i >> kPacketChunkBits][i & (kPacketChunk - 1)]; }
  // A free packet for one sent now on l, with its arrival drawn (arrivalTime) and its
  // order reserved; its task is empty and it is on no link yet.
  std::uint32_t newPacket(Link& l, std::uint64_t seq, std::uint64_t stream, TimePoint since) {
    std::uint32_t i;
    if (!freePackets_.empty()) {
      i = freePackets_.back();
      freePackets_.pop_back();
    } else {
      i = growPackets();
    }
    InFlight& p = packet(i);
    p.seq = seq;
    p.stream = stream;
    p.since = since;
    p.sentAt = now();
    p.at = arrivalTime(l, p);
    p.order = sim_ != nullptr ? sim_->reserveOrder() : loop_.reserveOrder();
    p.next = kNoPacket;
    return i;
  }
  std::uint32_t growPackets();  // a packet never used before
  // Puts packet i on its way: at the back of l (from -> to), or alone (InFlight::alone).
  void place(Link& l, std::uint32_t i, NetNodeId from, NetNodeId to) {
    if (packet(i).alone) {
      ++delayed_;
      l.alonePackets.push_back(i);
      postAlone(i, from, to);
    } else {
      enqueue(l, i, from, to);
    }
  }
  void postAlone(std::uint32_t i, NetNodeId from, NetNodeId to);
  void arriveAlone(std::uint32_t i, NetNodeId from, NetNodeId to);
  // Runs packet i's delivery (or holds it, on a link cut meanwhile) and frees it.
  void deliver(std::uint32_t i, NetNodeId from, NetNodeId to);
  // The loss on l ended: what waits for a retransmission arrives with the next one (which
  // gets through), no longer at the time the losses drawn at its send gave.
  void lossEnded(Link& l, NetNodeId from, NetNodeId to);
  // Puts packet i at the back of l (from -> to); the front one's arrival is in the loop.
  void enqueue(Link& l, std::uint32_t i, NetNodeId from, NetNodeId to) {
    if (l.tail == kNoPacket) {
      l.head = l.tail = i;
      postArrival(l, from, to);
    } else {
      packet(l.tail).next = i;
      l.tail = i;
    }
  }
  // arrivalTime and postArrival are defined here, inline: every packet draws its arrival
  // and most post one, and a call each was a visible share of a packet's cost.
  // When a packet sent now on l arrives (draws its jitter and losses): never before the
  // link's previous packet. A retransmitted one, and those of its stream behind it, go
  // alone: they do not hold the link's other streams back.
  // p.stream and p.sentAt are set; sets p.alone and p.lost.
  TimePoint arrivalTime(Link& l, InFlight& p) {
    Duration d = opts_.baseLatency + l.extra;
    if (opts_.jitter.count() > 0)
      d += Duration(static_cast<Duration::rep>(rng_.below(static_cast<std::uint64_t>(opts_.jitter.count()) + 1)));
    p.alone = p.lost = false;
    if (l.lossNum != 0 || !l.stalled.empty()) return stalledArrival(l, p, now() + d);
    TimePoint at = now() + d;
    if (at < l.lastDelivery) at = l.lastDelivery;  // a stream never overtakes itself
    l.lastDelivery = at;
    return at;
  }
  TimePoint stalledArrival(Link& l, InFlight& p, TimePoint at);
  // What lost transmissions add to a packet on a lossy link (draws the losses).
  Duration retransmissionDelay(const Link& l);
  // The arrival event of l's front packet.
  void postArrival(Link& l, NetNodeId from, NetNodeId to) {
    const InFlight& f = packet(l.head);
    // Links are held by pointer: l stays where it is while the table grows.
    auto event = [this, lp = &l, from, to] { arrive(*lp, from, to); };
    if (sim_ != nullptr)
      sim_->runAtReserved(f.at, f.order, event);
    else
      loop_.runAtReserved(f.at, f.order, event);
  }
  void arrive(Link& l, NetNodeId from, NetNodeId to);  // the front packet in flight on l
  void releaseHeld();  // after any change of reachability

  EventLoop& loop_;
  // loop_ as a SimLoop when it is one (in every simulation): its now(), reserveOrder()
  // and runAtReserved() are then called directly, not through the EventLoop interface —
  // three virtual calls per packet.
  SimLoop* sim_;
  TimePoint now() const { return sim_ != nullptr ? sim_->now() : loop_.now(); }
  Random rng_;
  Options opts_;
  Trace* trace_;
  std::vector<std::string> ips_;
  std::vector<std::pair<std::string, NetNodeId>> byIp_;  // sorted by ip
  std::vector<bool> isolated_;
  std::vector<int> group_;  // 0 = in no group
  // Some ip is isolated or in a group, or some link is cut: reachable() must look.
  bool mayBlock_ = false;
  std::size_t lossyLinks_ = 0;  // links with a loss set
  // Link from -> to at from * linkStride_ + to, created on first use: a packet's send and
  // arrival look their link up three times, and a hash look-up each time was a visible
  // share of a message's cost. Held by pointer, so growing the table keeps links in place.
  std::vector<std::unique_ptr<Link>> links_;
  std::size_t linkStride_ = 0;
  // Packets waiting for a cut link to come back, per (from, to), in send order. Ordered
  // map: the release order is part of the run.
  std::map<std::pair<NetNodeId, NetNodeId>, std::deque<Held>> held_;
  std::vector<std::unique_ptr<InFlight[]>> packetChunks_;
  std::uint32_t packetCount_ = 0;  // packets in the chunks, free or not
  std::size_t delayed_ = 0;  // alone packets on their way
  std::vector<std::uint32_t> freePackets_;
  std::uint64_t sent_ = 0, dropped_ = 0;
};

}  // namespace kun
