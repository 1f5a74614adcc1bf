#include "fakeapi/redis/fabric.h"

#include <algorithm>

#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

ProcId Fabric::attach(SimProcess* p) {
  const ProcId id = procs_.size();
  procs_.push_back(p);
  return id;
}

void Fabric::detach(ProcId id) {
  ++listenerChanges_;
  processDown(id);
  for (auto it = listeners_.begin(); it != listeners_.end();) {
    if (it->second == id)
      it = listeners_.erase(it);
    else
      ++it;
  }
  if (id < procs_.size()) procs_[id] = nullptr;
}

SimProcess* Fabric::process(ProcId id) const { return id < procs_.size() ? procs_[id] : nullptr; }

void Fabric::listen(const RedisEndpoint& ep, ProcId id) {
  ++listenerChanges_;
  listeners_[ep] = id;
}

void Fabric::unlisten(const RedisEndpoint& ep, ProcId id) {
  ++listenerChanges_;
  auto it = listeners_.find(ep);
  if (it != listeners_.end() && it->second == id) listeners_.erase(it);
}

SimProcess* Fabric::listener(const RedisEndpoint& ep) const {
  auto it = listeners_.find(ep);
  return it == listeners_.end() ? nullptr : process(it->second);
}

SimProcess* Fabric::liveServer(const Conn& c) const {
  SimProcess* p = process(c.server);
  return p != nullptr && p->incarnation() == c.serverInc && p->up() ? p : nullptr;
}

bool Fabric::isEstablished(ConnId id) const {
  const Conn* c = find(id);
  return c != nullptr && c->established && !c->dead;
}

NetNodeId Fabric::peerIp(ConnId id) const {
  const Conn* c = find(id);
  return c == nullptr ? 0 : c->clientIp;
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

bool Fabric::clientRunsNow(const Conn& c) const {
  if (c.owner == 0) return true;
  const SimProcess* p = process(c.owner);
  return p != nullptr && p->incarnation() == c.ownerInc && p->runsNow();
}

void Fabric::processDown(ProcId id) {
  std::vector<ConnId> asServer, asClient;
  for (ConnId cid = 1; cid < conns_.size(); ++cid) {
    const Conn* c = conns_[cid].get();
    if (c == nullptr) continue;
    if (c->owner == id)
      asClient.push_back(cid);
    else if (c->server == id && !c->dead)
      asServer.push_back(cid);
  }
  for (ConnId cid : asServer) resetToClient(cid);
  for (ConnId cid : asClient) {
    std::unique_ptr<Conn> c = std::move(conns_[cid]);
    // The kernel sends a FIN for the dead client: the server drops its side.
    if (c->server != 0 && !c->dead) {
      net_.send(c->clientIp, c->serverIp, cid, [this, cid, server = c->server, inc = c->serverInc] {
        SimProcess* p = process(server);
        if (p == nullptr || p->incarnation() != inc) return;
        p->deliver([p, cid] { p->onPeerClosed(cid); });
      });
    }
  }
}

void Fabric::resetToClient(ConnId id) {
  Conn* c = find(id);
  if (c == nullptr) return;
  c->dead = true;
  net_.send(c->serverIp, c->clientIp, id, [this, id] {
    if (find(id) == nullptr) return;
    std::unique_ptr<Conn> gone = std::move(conns_[id]);
    const bool wasEstablished = gone->established;
    toClient(*gone, [h = std::move(gone->h), wasEstablished] {
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
  const ConnId id = conns_.size();
  auto c = std::make_unique<Conn>();
  c->owner = owner;
  if (owner != 0) {
    if (SimProcess* p = process(owner)) c->ownerInc = p->incarnation();
  }
  c->clientIp = clientIp;
  c->endpoint = to;
  c->serverIp = net_.intern(to.host);
  c->h = std::make_shared<const ClientHandlers>(std::move(h));
  const NetNodeId serverIp = c->serverIp;
  conns_.push_back(std::move(c));
  net_.send(clientIp, serverIp, id, [this, id] { arriveSyn(id); });
  return id;
}

void Fabric::arriveSyn(ConnId id) {
  Conn* c = find(id);
  if (c == nullptr) return;  // the client gave up
  SimProcess* p = listener(c->endpoint);
  if (p == nullptr || !p->up()) {  // nothing listening: connection refused
    resetToClient(id);
    return;
  }
  c->server = p->procId();
  c->serverInc = p->incarnation();
  p->deliver([p, id] { p->onAccept(id); });  // a hung process's kernel still accepts
  net_.send(c->serverIp, c->clientIp, id, [this, id] {
    Conn* c2 = find(id);
    if (c2 == nullptr || c2->dead) return;
    c2->established = true;
    if (c2->h->onConnect) toClient(*c2, [h = c2->h] { h->onConnect(true); });
  });
}

namespace {
const Argv& argvOf(const Argv& a) { return a; }
const Argv& argvOf(const SharedArgv& a) { return *a; }
}  // namespace

void Fabric::request(ConnId id, Argv argv, ReplyFn onReply) { sendRequest(id, std::move(argv), std::move(onReply)); }

void Fabric::request(ConnId id, SharedArgv argv, ReplyFn onReply) {
  sendRequest(id, std::move(argv), std::move(onReply));
}

template <class Cmd>
void Fabric::sendRequest(ConnId id, Cmd&& cmd, ReplyFn&& onReply) {
  Conn* c = find(id);
  if (c == nullptr) return;
  const RequestId r = c->nextReq++;
  if (onReply) {
    if (c->pendingHead == c->pending.size()) {  // nothing waits: reuse the storage from the start
      c->pending.clear();
      c->pendingHead = 0;
    }
    c->pending.emplace_back(r, std::move(onReply));
  }
  net_.send(c->clientIp, c->serverIp, id,
            [this, id, r, cmd = std::move(cmd)]() mutable { arriveRequest(id, r, std::move(cmd)); });
}

template <class Cmd>
void Fabric::arriveRequest(ConnId id, RequestId r, Cmd&& cmd) {
  const Conn* c = find(id);
  if (c == nullptr) return;
  SimProcess* p = c->dead ? nullptr : liveServer(*c);
  if (p == nullptr) {  // data to a socket nobody holds: reset
    resetToClient(id);
    return;
  }
  if (p->runsNow()) {  // the usual case: no task to wrap the request in
    p->onRequest(id, r, argvOf(cmd));
    return;
  }
  p->deliver([this, p, id, r, cmd = std::move(cmd)] {
    if (find(id) == nullptr) return;
    p->onRequest(id, r, argvOf(cmd));
  });
}

// Inline: called once, for every reply that arrives (the compiler kept it a call).
inline ReplyFn Fabric::takePending(Conn& c, RequestId r) {
  auto& q = c.pending;
  // Nearly always the front; otherwise, as ids grow along the list, a binary search.
  const auto head = q.begin() + static_cast<std::ptrdiff_t>(c.pendingHead);
  auto pit = head != q.end() && head->id == r
                 ? head
                 : std::lower_bound(head, q.end(), r, [](const Conn::Pending& p, RequestId id) { return p.id < id; });
  // One named result, returned on every path: the callback is then moved once, into the
  // caller's (a second return of another object made the compiler move it twice).
  ReplyFn cb;
  if (pit == q.end() || pit->id != r || !pit->onReply) return cb;
  cb = std::move(pit->onReply);
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

void Fabric::reply(ConnId id, RequestId r, RedisReply&& rep) {
  const Conn* c = find(id);
  if (c == nullptr || c->dead) return;
  net_.send(c->serverIp, c->clientIp, id, [this, id, r, rep = std::move(rep)]() mutable {
    Conn* c2 = find(id);
    if (c2 == nullptr || c2->dead) return;
    ReplyFn cb = takePending(*c2, r);
    if (!cb) return;
    if (clientRunsNow(*c2)) {  // the usual case: no task to wrap the callback and reply in
      cb(std::move(rep));
      return;
    }
    toClient(*c2, [cb = std::move(cb), rep = std::move(rep)]() mutable { cb(std::move(rep)); });
  });
}

void Fabric::push(ConnId id, RedisReply msg) { push(id, std::make_shared<const RedisReply>(std::move(msg))); }

void Fabric::push(ConnId id, std::shared_ptr<const RedisReply> msg) {
  const Conn* c = find(id);
  if (c == nullptr || c->dead) return;
  net_.send(c->serverIp, c->clientIp, id, [this, id, msg = std::move(msg)]() mutable {
    const Conn* c2 = find(id);
    if (c2 == nullptr || c2->dead || !(c2->h->onPush || c2->h->onSharedPush)) return;
    const auto deliver = [](const ClientHandlers& h, const std::shared_ptr<const RedisReply>& m) {
      if (h.onSharedPush) h.onSharedPush(m);
      else h.onPush(*m);
    };
    if (clientRunsNow(*c2)) {  // the usual case: no task to wrap the handlers and message in
      const std::shared_ptr<const ClientHandlers> h = c2->h;  // the handler may close the connection
      deliver(*h, msg);
      return;
    }
    toClient(*c2, [h = c2->h, msg = std::move(msg), deliver] { deliver(*h, msg); });
  });
}

void Fabric::serverClose(ConnId id) { resetToClient(id); }

void Fabric::close(ConnId id) {
  if (find(id) == nullptr) return;
  std::unique_ptr<Conn> c = std::move(conns_[id]);
  if (c->server == 0 || c->dead) return;
  net_.send(c->clientIp, c->serverIp, id, [this, id, server = c->server, inc = c->serverInc] {
    SimProcess* p = process(server);
    if (p == nullptr || p->incarnation() != inc) return;
    p->deliver([p, id] { p->onPeerClosed(id); });
  });
}

}  // namespace kun::redissim
