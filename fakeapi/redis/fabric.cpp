#include "fakeapi/redis/fabric.h"

#include <algorithm>

#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

ProcId Fabric::attach(SimProcess* p) {
  const ProcId id = nextProc_++;
  procs_[id] = p;
  return id;
}

void Fabric::detach(ProcId id) {
  processDown(id);
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    if (it->second == id)
      it = listeners_.erase(it);
    else
      ++it;
  }
  procs_.erase(id);
}

SimProcess* Fabric::process(ProcId id) const {
  auto it = procs_.find(id);
  return it == procs_.end() ? nullptr : it->second;
}

void Fabric::listen(const RedisEndpoint& ep, ProcId id) { listeners_[ep] = id; }

void Fabric::unlisten(const RedisEndpoint& ep, ProcId id) {
  auto it = listeners_.find(ep);
  if (it != listeners_.end() && it->second == id) listeners_.erase(it);
}

SimProcess* Fabric::listener(const RedisEndpoint& ep) const {
  auto it = listeners_.find(ep);
  return it == listeners_.end() ? nullptr : process(it->second);
}

bool Fabric::serverAlive(const Conn& c) const {
  SimProcess* p = process(c.server);
  return p != nullptr && p->incarnation() == c.serverInc && p->up();
}

bool Fabric::isEstablished(ConnId c) const {
  auto it = conns_.find(c);
  return it != conns_.end() && it->second.established && !it->second.dead;
}

NetNodeId Fabric::peerIp(ConnId c) const {
  auto it = conns_.find(c);
  return it == conns_.end() ? 0 : it->second.clientIp;
}

template <class F>
void Fabric::toClient(const Conn& c, F&& task) {
  if (c.owner == 0) {
    task();
    return;
  }
  SimProcess* p = process(c.owner);
  if (p == nullptr || p->incarnation() != c.ownerInc) return;
  p->deliver(std::forward<F>(task));
}

void Fabric::processDown(ProcId id) {
  std::vector<ConnId> asServer, asClient;
  for (auto& [cid, c] : conns_) {
    if (c.owner == id)
      asClient.push_back(cid);
    else if (c.server == id && !c.dead)
      asServer.push_back(cid);
  }
  for (ConnId cid : asServer) resetToClient(cid);
  for (ConnId cid : asClient) {
    auto it = conns_.find(cid);
    Conn c = std::move(it->second);
    conns_.erase(it);
    // The kernel sends a FIN for the dead client: the server drops its side.
    if (c.server != 0 && !c.dead) {
      net_.send(c.clientIp, c.serverIp, [this, cid, server = c.server, inc = c.serverInc] {
        SimProcess* p = process(server);
        if (p == nullptr || p->incarnation() != inc) return;
        p->deliver([p, cid] { p->onPeerClosed(cid); });
      });
    }
  }
}

void Fabric::resetToClient(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  it->second.dead = true;
  net_.send(it->second.serverIp, it->second.clientIp, [this, id] {
    auto it2 = conns_.find(id);
    if (it2 == conns_.end()) return;
    Conn c = std::move(it2->second);
    conns_.erase(it2);
    const bool wasEstablished = c.established;
    toClient(c, [h = std::move(c.h), wasEstablished] {
      if (!wasEstablished) {
        if (h->onConnect) h->onConnect(false);
      } else if (h->onClose) {
        h->onClose();
      }
    });
  });
}

ConnId Fabric::connect(ProcId owner, NetNodeId clientIp, const RedisEndpoint& to,
                       ClientHandlers h) {
  const ConnId id = nextConn_++;
  Conn c;
  c.owner = owner;
  if (owner != 0) {
    if (SimProcess* p = process(owner)) c.ownerInc = p->incarnation();
  }
  c.clientIp = clientIp;
  c.endpoint = to;
  c.serverIp = net_.intern(to.host);
  c.h = std::make_shared<const ClientHandlers>(std::move(h));
  const NetNodeId serverIp = c.serverIp;
  conns_.emplace(id, std::move(c));
  net_.send(clientIp, serverIp, [this, id] { arriveSyn(id); });
  return id;
}

void Fabric::arriveSyn(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;  // the client gave up
  Conn& c = it->second;
  SimProcess* p = listener(c.endpoint);
  if (p == nullptr || !p->up()) {  // nothing listening: connection refused
    resetToClient(id);
    return;
  }
  c.server = p->procId();
  c.serverInc = p->incarnation();
  p->deliver([p, id] { p->onAccept(id); });  // a hung process's kernel still accepts
  net_.send(c.serverIp, c.clientIp, [this, id] {
    auto it2 = conns_.find(id);
    if (it2 == conns_.end() || it2->second.dead) return;
    it2->second.established = true;
    if (it2->second.h->onConnect) toClient(it2->second, [h = it2->second.h] { h->onConnect(true); });
  });
}

void Fabric::request(ConnId id, Argv argv, std::function<void(RedisReply)> onReply) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  const RequestId r = c.nextReq++;
  if (onReply) {
    if (c.pendingHead == c.pending.size()) {  // nothing waits: reuse the storage from the start
      c.pending.clear();
      c.pendingHead = 0;
    }
    c.pending.push_back({r, std::move(onReply)});
  }
  net_.send(c.clientIp, c.serverIp,
            [this, id, r, argv = std::move(argv)]() mutable { arriveRequest(id, r, std::move(argv)); });
}

void Fabric::arriveRequest(ConnId id, RequestId r, Argv argv) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn& c = it->second;
  if (c.dead || !serverAlive(c)) {  // data to a socket nobody holds: reset
    resetToClient(id);
    return;
  }
  SimProcess* p = process(c.server);
  p->deliver([this, p, id, r, argv = std::move(argv)]() mutable {
    if (conns_.count(id) == 0) return;
    p->onRequest(id, r, std::move(argv));
  });
}

std::function<void(RedisReply)> Fabric::takePending(Conn& c, RequestId r) {
  auto& q = c.pending;
  // Ids grow along the list, so the entry is found by binary search (it is nearly always
  // the front).
  auto pit = std::lower_bound(q.begin() + static_cast<std::ptrdiff_t>(c.pendingHead), q.end(), r,
                              [](const Conn::Pending& p, RequestId id) { return p.id < id; });
  if (pit == q.end() || pit->id != r || !pit->onReply) return {};
  auto cb = std::move(pit->onReply);
  pit->onReply = nullptr;
  ++c.pendingAnswered;
  while (c.pendingHead < q.size() && !q[c.pendingHead].onReply) {
    ++c.pendingHead;
    --c.pendingAnswered;
  }
  // Entries answered behind one that is not (a deferred reply) are swept out once they
  // are the majority, so the list stays bounded by what really waits.
  if (c.pendingAnswered > 32 && c.pendingAnswered * 2 > q.size() - c.pendingHead) {
    q.erase(std::remove_if(q.begin(), q.end(), [](const Conn::Pending& p) { return !p.onReply; }), q.end());
    c.pendingHead = 0;
    c.pendingAnswered = 0;
  }
  return cb;
}

void Fabric::reply(ConnId id, RequestId r, RedisReply rep) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.dead) return;
  net_.send(it->second.serverIp, it->second.clientIp,
            [this, id, r, rep = std::move(rep)]() mutable {
              auto it2 = conns_.find(id);
              if (it2 == conns_.end() || it2->second.dead) return;
              auto cb = takePending(it2->second, r);
              if (!cb) return;
              toClient(it2->second, [cb = std::move(cb), rep = std::move(rep)]() mutable {
                cb(std::move(rep));
              });
            });
}

void Fabric::push(ConnId id, RedisReply msg) { push(id, std::make_shared<const RedisReply>(std::move(msg))); }

void Fabric::push(ConnId id, std::shared_ptr<const RedisReply> msg) {
  auto it = conns_.find(id);
  if (it == conns_.end() || it->second.dead) return;
  net_.send(it->second.serverIp, it->second.clientIp, [this, id, msg = std::move(msg)]() mutable {
    auto it2 = conns_.find(id);
    if (it2 == conns_.end() || it2->second.dead || !it2->second.h->onPush) return;
    toClient(it2->second, [h = it2->second.h, msg = std::move(msg)] { h->onPush(*msg); });
  });
}

void Fabric::serverClose(ConnId id) { resetToClient(id); }

void Fabric::close(ConnId id) {
  auto it = conns_.find(id);
  if (it == conns_.end()) return;
  Conn c = std::move(it->second);
  conns_.erase(it);
  if (c.server == 0 || c.dead) return;
  net_.send(c.clientIp, c.serverIp, [this, id, server = c.server, inc = c.serverInc] {
    SimProcess* p = process(server);
    if (p == nullptr || p->incarnation() != inc) return;
    p->deliver([p, id] { p->onPeerClosed(id); });
  });
}

}  // namespace kun::redissim
