#pragma once
// An asynchronous client outside every process (a test client, an application), talking
// through the network model with timeouts, like a hiredis client with connect and command
// timeouts: one connection per endpoint, kept and reused; a refused connect, a reset or a
// timeout drops it and the next command reconnects.
#include <cstdint>
#include <deque>
#include <functional>
#include <map>
#include <memory>
#include <string>

#include "core/redis/redis_admin.h"
#include "fakeapi/redis/fabric.h"

namespace kun::redissim {

class SimClient {
 public:
  using Callback = std::function<void(Result<RedisReply>)>;

  SimClient(Fabric& fabric, std::string ip, Duration connectTimeout, Duration commandTimeout);
  ~SimClient();
  SimClient(const SimClient&) = delete;
  SimClient& operator=(const SimClient&) = delete;

  void command(const RedisEndpoint& to, Argv argv, Callback cb);
  const std::string& ip() const { return ip_; }

 private:
  struct Op {
    Argv argv;
    Callback cb;
    TimerId timer = 0;
  };
  struct Conn {
    ConnId id = 0;
    std::uint64_t gen = 0;
    bool established = false;
    TimerId connectTimer = 0;
    std::deque<std::uint64_t> waiting;  // ops queued until connected
  };
  void open(const RedisEndpoint& to);
  void send(const RedisEndpoint& to, std::uint64_t op);
  void fail(const RedisEndpoint& to, std::uint64_t gen, const Error& e);

  Fabric& fabric_;
  std::string ip_;
  NetNodeId ipId_;
  Duration connectTimeout_, commandTimeout_;
  std::map<RedisEndpoint, Conn> conns_;
  std::map<std::uint64_t, Op> ops_;
  std::map<std::uint64_t, RedisEndpoint> opTarget_;
  std::uint64_t nextOp_ = 1, nextGen_ = 1;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace kun::redissim
