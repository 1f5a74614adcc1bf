#pragma once
// A test client that writes `SET <prefix><n> <n>` at a steady pace from its own thread and
// remembers every write the server acknowledged (+OK), and where. Where it writes is asked
// before every write (a fixed address, or the master Sentinel names), so the same class is
// the "follows Sentinel" client and the "pinned to one address" client.
#include <atomic>
#include <chrono>
#include <cstdint>
#include <functional>
#include <mutex>
#include <optional>
#include <string>
#include <thread>
#include <vector>

#include "core/redis/hiredis_admin_real.h"
#include "core/redis/redis_admin.h"

namespace kun::local {

struct AckedWrite {
  std::int64_t seq = 0;
  RedisEndpoint node;
  std::chrono::steady_clock::time_point at;  // when the +OK arrived
};

class AckWriter {
 public:
  // Called on the writer's thread with the writer's own client; nullopt = skip this tick.
  using Target = std::function<std::optional<RedisEndpoint>(HiredisAdmin&)>;

  AckWriter(std::string keyPrefix, Target target, std::chrono::milliseconds interval,
            HiredisOptions client);
  ~AckWriter();  // stops and joins
  AckWriter(const AckWriter&) = delete;
  AckWriter& operator=(const AckWriter&) = delete;

  void start();
  void stop();
  std::vector<AckedWrite> acked() const;
  std::int64_t attempts() const { return attempts_.load(); }
  std::string key(std::int64_t seq) const { return prefix_ + std::to_string(seq); }

 private:
  void loop();

  std::string prefix_;
  Target target_;
  std::chrono::milliseconds interval_;
  HiredisOptions clientOpts_;
  std::atomic<bool> stop_{false};
  std::atomic<std::int64_t> attempts_{0};
  mutable std::mutex mu_;
  std::vector<AckedWrite> acked_;
  std::thread thread_;
};

// Asks each sentinel in order for the master's address; the first answer wins.
std::optional<RedisEndpoint> masterFromSentinels(HiredisAdmin& admin,
                                                 const std::vector<RedisEndpoint>& sentinels,
                                                 const std::string& masterName);

// How many of `writes` are missing from (or differ on) `node`: MGET in batches.
// Unavailable/Timeout if `node` cannot be read.
Result<std::int64_t> countMissing(HiredisAdmin& admin, const RedisEndpoint& node,
                                  const AckWriter& writer, const std::vector<AckedWrite>& writes,
                                  std::string_view password = {});

}  // namespace kun::local
