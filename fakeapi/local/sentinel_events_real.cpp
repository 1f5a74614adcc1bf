#include "fakeapi/local/sentinel_events_real.h"

#include <hiredis/hiredis.h>
#include <poll.h>

#include <charconv>
#include <sstream>

#include "core/redis/hiredis_reply.h"

namespace kun::local {

using Steady = std::chrono::steady_clock;  // wall-clock ok: timestamps of real events

std::optional<RedisEndpoint> switchMasterTarget(std::string_view payload) {
  std::istringstream in{std::string(payload)};
  std::string name, oldIp, oldPort, newIp, newPort;
  if (!(in >> name >> oldIp >> oldPort >> newIp >> newPort)) return std::nullopt;
  RedisEndpoint ep{newIp, 0};
  auto [p, ec] = std::from_chars(newPort.data(), newPort.data() + newPort.size(), ep.port);
  if (ec != std::errc() || p != newPort.data() + newPort.size()) return std::nullopt;
  return ep;
}

struct SentinelEventLog::Subscription {
  redisContext* ctx = nullptr;
  std::thread thread;
  ~Subscription() {
    if (thread.joinable()) thread.join();
    if (ctx != nullptr) redisFree(ctx);
  }
};

Result<std::unique_ptr<SentinelEventLog>> SentinelEventLog::start(
    const std::vector<RedisEndpoint>& sentinels) {
  std::unique_ptr<SentinelEventLog> log(new SentinelEventLog());
  for (std::size_t i = 0; i < sentinels.size(); ++i) {
    const RedisEndpoint& ep = sentinels[i];
    auto sub = std::make_unique<Subscription>();
    sub->ctx = redisConnectWithTimeout(ep.host.c_str(), ep.port, timeval{2, 0});
    if (sub->ctx == nullptr || sub->ctx->err != 0) {
      std::string why = sub->ctx != nullptr ? sub->ctx->errstr : "out of memory";
      return makeError(Reason::Unavailable, "subscribe " + ep.toString() + ": " + why);
    }
    redisSetTimeout(sub->ctx, timeval{2, 0});
    void* confirm = redisCommand(sub->ctx, "PSUBSCRIBE *");
    if (confirm == nullptr) {
      return makeError(Reason::Unavailable, "PSUBSCRIBE " + ep.toString() + ": " + sub->ctx->errstr);
    }
    freeReplyObject(confirm);
    redisContext* ctx = sub->ctx;
    const int index = static_cast<int>(i);
    SentinelEventLog* self = log.get();
    sub->thread = std::thread([self, ctx, index] {
      while (!self->stop_.load()) {
        pollfd pfd{ctx->fd, POLLIN, 0};
        if (::poll(&pfd, 1, 50) <= 0) continue;
        const auto at = Steady::now();  // wall-clock ok
        if (redisBufferRead(ctx) != REDIS_OK) return;  // sentinel gone: stop recording
        for (;;) {
          void* raw = nullptr;
          if (redisGetReplyFromReader(ctx, &raw) != REDIS_OK || raw == nullptr) break;
          RedisReply m = fromHiredis(*static_cast<redisReply*>(raw));
          freeReplyObject(raw);
          // ["pmessage", pattern, channel, payload]
          if (m.elements.size() == 4 && m.elements[0].str == "pmessage") {
            self->record({at, index, m.elements[2].str, m.elements[3].str});
          }
        }
      }
    });
    log->subs_.push_back(std::move(sub));
  }
  return log;
}

SentinelEventLog::~SentinelEventLog() {
  stop_ = true;
  subs_.clear();  // joins each thread, then frees its connection
}

void SentinelEventLog::record(SentinelEvent e) {
  std::lock_guard<std::mutex> l(mu_);
  events_.push_back(std::move(e));
}

std::vector<SentinelEvent> SentinelEventLog::events() const {
  std::lock_guard<std::mutex> l(mu_);
  return events_;
}

std::vector<SentinelEvent> SentinelEventLog::eventsOf(std::string_view type,
                                                      Steady::time_point after) const {
  std::lock_guard<std::mutex> l(mu_);
  std::vector<SentinelEvent> out;
  for (const auto& e : events_) {
    if (e.type == type && e.at >= after) out.push_back(e);
  }
  return out;
}

}  // namespace kun::local
