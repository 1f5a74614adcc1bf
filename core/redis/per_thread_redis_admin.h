#pragma once
// A RedisAdmin for the worker threads of real mode, over an admin that is not thread-safe
// (HiredisAdmin owns a connection cache that every call mutates): each calling thread gets
// its own inner instance, made by the factory on that thread's first call and kept until
// this object goes away. Commands then run in parallel with no lock held across them; only
// finding the calling thread's instance is locked.
//
// Connections are per thread as a result (workers x nodes at most), which is what a
// thread-safe client with a pool would open under full load anyway.
#include <cstddef>
#include <functional>
#include <map>
#include <memory>
#include <mutex>
#include <thread>

#include "core/redis/redis_admin.h"

namespace kun {

class PerThreadRedisAdmin final : public RedisAdmin {
 public:
  using Factory = std::function<std::unique_ptr<RedisAdmin>()>;
  explicit PerThreadRedisAdmin(Factory make) : make_(std::move(make)) {}

  Result<RedisReply> command(const RedisEndpoint& to, const std::vector<std::string>& argv,
                             std::string_view password = {}) override;

  // How many threads have sent a command (instances made).
  std::size_t instances() const;

 private:
  RedisAdmin& mine();

  Factory make_;
  mutable std::mutex mu_;  // guards byThread_ (its entries are never erased while in use)
  std::map<std::thread::id, std::unique_ptr<RedisAdmin>> byThread_;
};

}  // namespace kun
