#pragma once
// RedisAdmin over hiredis (synchronous API): the real side of the Redis seam.
//
// Thread-safety: an instance is NOT thread-safe — it owns a cache of connections that
// calls mutate. Use one instance per worker thread (instances share nothing); with the
// controller's workers > 0, wrap it in a PerThreadRedisAdmin (per_thread_redis_admin.h).
//
// Connections are kept per endpoint and reused; a transport error, a timeout or a
// protocol error drops the endpoint's connection so the next call reconnects.
#include <chrono>
#include <map>
#include <memory>
#include <string>
#include <string_view>
#include <vector>

#include "core/redis/redis_admin.h"

struct redisContext;

namespace kun {

struct HiredisOptions {
  std::chrono::milliseconds connectTimeout{1000};
  std::chrono::milliseconds commandTimeout{1000};
  // Source address for outgoing connections ("" = let the kernel choose). Local mode binds
  // each client to its own 127.x address, as a pod would have its own IP.
  std::string bindSource;
};

class HiredisAdmin : public RedisAdmin {
 public:
  explicit HiredisAdmin(HiredisOptions opts = {});
  ~HiredisAdmin() override;
  HiredisAdmin(const HiredisAdmin&) = delete;
  HiredisAdmin& operator=(const HiredisAdmin&) = delete;

  // Transport failures: Unavailable (refused, unreachable, closed by the peer), Timeout
  // (connect or reply did not come in time), Internal (protocol error). A RESP error reply
  // is returned as a reply; a failing AUTH returns AUTH's error reply.
  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password = {}) override;

  // Drops every cached connection (e.g. before a process this client talks to restarts).
  void disconnectAll();
  void disconnect(const RedisEndpoint& to);
  std::size_t openConnections() const { return conns_.size(); }

 private:
  struct Conn;
  Result<Conn*> connection(const RedisEndpoint& to);

  HiredisOptions opts_;
  std::map<RedisEndpoint, std::unique_ptr<Conn>> conns_;
};

}  // namespace kun
