#pragma once
// TCP-like connections between simulated processes (and external clients), carried by
// the NetworkModel. A connection has a client side (owned by a process, or external) and
// a server side (the process listening on an endpoint when the SYN arrived). Requests are
// answered by request id, so a dropped request just never gets its reply — as a real
// client sees a command that never comes back. Server pushes (pub/sub messages, the
// replication stream) travel on the same connection in order.
//
// A process that crashes resets its connections: peers learn it after one network hop if
// the path is up, otherwise the next time they send something (they get a reset back).
// A hung process keeps its connections; what arrives waits in its inbox.
#include <cstdint>
#include <cstring>
#include <functional>
#include <memory>
#include <string>
#include <string_view>
#include <unordered_map>
#include <vector>

#include "chaos/network/network_model.h"
#include "core/redis/redis_admin.h"
#include "fakeapi/redis/reply_fn.h"

namespace kun::redissim {

using Argv = std::vector<std::string>;
// A command sent again and again unchanged (a Sentinel's PING and hello): made once and
// shared by every request that carries it, where an Argv is made (and freed) per request.
using SharedArgv = std::shared_ptr<const Argv>;
using ConnId = std::uint64_t;
using RequestId = std::uint64_t;
using ProcId = std::uint64_t;

class SimProcess;

// For tables looked up by endpoint on every probe and digest: an ordered map compared
// host strings at every level. Hosts are IPs (or names) that differ in their first or
// last characters, so the first and last eight bytes, read as two words, with the length
// and the port tell them apart in a few instructions; std::hash ran a byte hash over the
// whole host on every look-up. Equal hosts hash equal, which is all a table needs.
struct EndpointHash {
  std::size_t operator()(const RedisEndpoint& e) const noexcept {
    const std::size_t n = e.host.size();
    std::uint64_t h = n ^ (static_cast<std::uint64_t>(e.port) << 32);
    if (n >= 8) {
      std::uint64_t first, last;
      std::memcpy(&first, e.host.data(), 8);
      std::memcpy(&last, e.host.data() + n - 8, 8);
      h ^= first * 0x9E3779B97F4A7C15ull ^ last;
    } else {
      for (const char ch : e.host) h = (h << 8) | static_cast<unsigned char>(ch);
    }
    return static_cast<std::size_t>((h ^ (h >> 29)) * 0xBF58476D1CE4E5B9ull >> 16);
  }
};

struct ClientHandlers {
  std::function<void(bool ok)> onConnect;     // SYN answered: accepted or refused
  // Server-initiated message. By reference: one pushed message (a pub/sub delivery, a
  // replication stream entry) is shared by every connection it fans out to.
  std::function<void(const RedisReply&)> onPush;
  // In place of onPush, for a client that keeps the messages it is pushed (a replica keeps
  // its master's stream in its own backlog): the shared message itself, not a copy.
  std::function<void(const std::shared_ptr<const RedisReply>&)> onSharedPush;
  std::function<void()> onClose;              // closed by the server, or reset
};

class Fabric {
 public:
  Fabric(EventLoop& loop, NetworkModel& net) : loop_(loop), net_(net) {}

  EventLoop& loop() { return loop_; }
  NetworkModel& net() { return net_; }

  // --- processes (SimProcess calls these) ---------------------------------------------
  ProcId attach(SimProcess* p);
  void detach(ProcId id);  // the process object is going away: resets its connections
  SimProcess* process(ProcId id) const;
  // The process listening on an endpoint, or nullptr.
  void listen(const RedisEndpoint& ep, ProcId id);
  void unlisten(const RedisEndpoint& ep, ProcId id);
  SimProcess* listener(const RedisEndpoint& ep) const;
  // Moves whenever listener() may answer otherwise for some endpoint (listen, unlisten,
  // detach): a reader may keep what it answered while this stays.
  std::uint64_t listenerChanges() const { return listenerChanges_; }
  // Moves whenever any process' view version moves, or its state: a reader that digests
  // every process' view may keep its digest while this (with the listeners, the
  // processes and the network) stays.
  std::uint64_t viewChanges() const { return viewChanges_; }
  void noteViewChange() { ++viewChanges_; }
  // The process went down (crash, stop): every connection it has, either side, is reset.
  void processDown(ProcId id);

  // --- client side ----------------------------------------------------------------------
  // owner 0 = an external client (always running). Callbacks run in the owner process.
  ConnId connect(ProcId owner, NetNodeId clientIp, const RedisEndpoint& to, ClientHandlers h);
  void request(ConnId c, Argv argv, ReplyFn onReply);
  void request(ConnId c, SharedArgv argv, ReplyFn onReply);
  void close(ConnId c);  // client hangs up; the server sees the peer closed
  bool isOpen(ConnId c) const { return find(c) != nullptr; }
  bool isEstablished(ConnId c) const;
  // The client is a simulated Sentinel, whose INFO parse reads a few lines only: a
  // simulated redis-server may answer its INFO with those (RedisNode::sentinelInfoText).
  void markSentinelClient(ConnId c) {
    if (Conn* x = find(c)) x->sentinelClient = true;
  }
  bool isSentinelClient(ConnId c) const {
    const Conn* x = find(c);
    return sentinelInfoLines_ && x != nullptr && x->sentinelClient;
  }
  // Off: Sentinels are answered the whole INFO text (tests compare the two).
  void setSentinelInfoLines(bool on) { sentinelInfoLines_ = on; }

  // --- server side ----------------------------------------------------------------------
  // The reply is moved once, into the packet: by value it was moved on every call on the
  // way (RedisNode::onRequest -> replyTo -> here), and a move copies a short string's bytes.
  void reply(ConnId c, RequestId r, RedisReply&& reply);
  void push(ConnId c, RedisReply msg);
  void push(ConnId c, std::shared_ptr<const RedisReply> msg);
  void serverClose(ConnId c);  // e.g. CLIENT KILL: the client gets onClose
  NetNodeId peerIp(ConnId c) const;

 private:
  struct Conn {
    ProcId owner = 0;
    std::uint64_t ownerInc = 0;
    NetNodeId clientIp = 0;
    RedisEndpoint endpoint;
    NetNodeId serverIp = 0;
    ProcId server = 0;
    std::uint64_t serverInc = 0;
    bool established = false;
    bool dead = false;  // the server side is gone; the client has not heard yet
    bool sentinelClient = false;  // markSentinelClient
    // Shared, so a delivery holds the handlers while one of them closes the connection
    // (copying a std::function per push allocated).
    std::shared_ptr<const ClientHandlers> h;
    RequestId nextReq = 1;
    // Requests awaiting their reply, in request order. Replies come back in order almost
    // always, so the front is the one answered; an answered entry out of order is left
    // empty and dropped once it reaches the front (a std::map allocated a node per request).
    struct Pending {
      Pending(RequestId i, ReplyFn&& f) : id(i), onReply(std::move(f)) {}  // emplaced: one move of f
      RequestId id;
      ReplyFn onReply;
    };
    std::vector<Pending> pending;
    std::size_t pendingHead = 0;      // entries before it are answered
    std::size_t pendingAnswered = 0;  // answered entries at or after the head
  };
  // The open connection id, or nullptr.
  Conn* find(ConnId id) const { return id < conns_.size() ? conns_[id].get() : nullptr; }
  // The reply callback of request r, taken out of c's pending list (empty if none waits).
  static ReplyFn takePending(Conn& c, RequestId r);
  // Runs task in the client side's process (queued when hung, dropped when it is down).
  template <class F>
  void toClient(const Conn& c, F&& task);
  // toClient would run a task at once (so the caller may just do it).
  bool clientRunsNow(const Conn& c) const;
  // The server side is gone: the client learns after one hop (or, if that notice is lost,
  // when it next sends something).
  void resetToClient(ConnId id);
  void arriveSyn(ConnId id);
  // Cmd: Argv or SharedArgv.
  template <class Cmd>
  void sendRequest(ConnId id, Cmd&& cmd, ReplyFn&& onReply);
  template <class Cmd>
  void arriveRequest(ConnId id, RequestId r, Cmd&& cmd);
  // The server side's process when it is the incarnation the connection was made to and
  // it is up; nullptr otherwise.
  SimProcess* liveServer(const Conn& c) const;

  EventLoop& loop_;
  NetworkModel& net_;
  // Processes and connections by id: ids are handed out in order and never reused, so a
  // table indexed by id (an entry per id ever given: a few hundred a run) finds one
  // without a search, and walking it visits connections in id order.
  std::vector<SimProcess*> procs_{nullptr};  // id 0: no process
  std::unordered_map<RedisEndpoint, ProcId, EndpointHash> listeners_;
  std::uint64_t listenerChanges_ = 0;
  std::uint64_t viewChanges_ = 0;
  bool sentinelInfoLines_ = true;
  std::vector<std::unique_ptr<Conn>> conns_{1};  // id 0: no connection
};

}  // namespace kun::redissim
