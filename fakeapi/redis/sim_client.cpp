#include "fakeapi/redis/sim_client.h"

namespace kun::redissim {

SimClient::SimClient(Fabric& fabric, std::string ip, Duration connectTimeout, Duration commandTimeout)
    : fabric_(fabric),
      ip_(std::move(ip)),
      ipId_(fabric.net().intern(ip_)),
      connectTimeout_(connectTimeout),
      commandTimeout_(commandTimeout) {}

SimClient::~SimClient() {
  for (auto& [ep, c] : conns_) {
    if (c.connectTimer) fabric_.loop().cancel(c.connectTimer);
    fabric_.close(c.id);
  }
  for (auto& [id, op] : ops_)
    if (op.timer) fabric_.loop().cancel(op.timer);
}

void SimClient::command(const RedisEndpoint& to, Argv argv, Callback cb) {
  const std::uint64_t id = nextOp_++;
  ops_[id] = Op{std::move(argv), std::move(cb), 0};
  opTarget_[id] = to;
  auto it = conns_.find(to);
  if (it == conns_.end()) {
    open(to);
    it = conns_.find(to);
  }
  if (it->second.established) send(to, id);
  else it->second.waiting.push_back(id);
}

void SimClient::open(const RedisEndpoint& to) {
  Conn& c = conns_[to];
  c.gen = nextGen_++;
  const std::uint64_t gen = c.gen;
  std::weak_ptr<int> alive = alive_;
  ClientHandlers h;
  h.onConnect = [this, alive, to, gen](bool ok) {
    if (alive.expired()) return;
    auto it = conns_.find(to);
    if (it == conns_.end() || it->second.gen != gen) return;
    if (!ok) {
      fail(to, gen, makeError(Reason::Unavailable, "connect " + to.toString() + ": Connection refused"));
      return;
    }
    Conn& cc = it->second;
    cc.established = true;
    if (cc.connectTimer) fabric_.loop().cancel(cc.connectTimer);
    cc.connectTimer = 0;
    std::deque<std::uint64_t> waiting = std::move(cc.waiting);
    cc.waiting.clear();
    for (std::uint64_t op : waiting) send(to, op);
  };
  h.onClose = [this, alive, to, gen] {
    if (alive.expired()) return;
    fail(to, gen, makeError(Reason::Unavailable, to.toString() + ": connection reset by peer"));
  };
  c.id = fabric_.connect(0, ipId_, to, std::move(h));
  c.connectTimer = fabric_.loop().runAfter(connectTimeout_, [this, alive, to, gen] {
    if (alive.expired()) return;
    auto it = conns_.find(to);
    if (it != conns_.end() && it->second.gen == gen) it->second.connectTimer = 0;
    fail(to, gen, makeError(Reason::Timeout, "connect " + to.toString() + ": timed out"));
  });
}

void SimClient::send(const RedisEndpoint& to, std::uint64_t opId) {
  auto it = conns_.find(to);
  auto op = ops_.find(opId);
  if (it == conns_.end() || op == ops_.end()) return;
  const std::uint64_t gen = it->second.gen;
  std::weak_ptr<int> alive = alive_;
  fabric_.request(it->second.id, op->second.argv, [this, alive, opId](RedisReply r) {
    if (alive.expired()) return;
    auto o = ops_.find(opId);
    if (o == ops_.end()) return;
    Op done = std::move(o->second);
    ops_.erase(o);
    opTarget_.erase(opId);
    if (done.timer) fabric_.loop().cancel(done.timer);
    done.cb(std::move(r));
  });
  op->second.timer = fabric_.loop().runAfter(commandTimeout_, [this, alive, to, gen, opId] {
    if (alive.expired()) return;
    auto o = ops_.find(opId);
    if (o != ops_.end()) o->second.timer = 0;
    fail(to, gen, makeError(Reason::Timeout, "read from " + to.toString() + ": timed out"));
  });
}

void SimClient::fail(const RedisEndpoint& to, std::uint64_t gen, const Error& e) {
  auto it = conns_.find(to);
  if (it == conns_.end() || it->second.gen != gen) return;
  if (it->second.connectTimer) fabric_.loop().cancel(it->second.connectTimer);
  fabric_.close(it->second.id);
  conns_.erase(it);
  // Every command on that connection fails with it.
  std::vector<std::uint64_t> victims;
  for (const auto& [id, ep] : opTarget_)
    if (ep == to) victims.push_back(id);
  for (std::uint64_t id : victims) {
    auto o = ops_.find(id);
    if (o == ops_.end()) continue;
    Op done = std::move(o->second);
    ops_.erase(o);
    opTarget_.erase(id);
    if (done.timer) fabric_.loop().cancel(done.timer);
    done.cb(e);
  }
}

}  // namespace kun::redissim
