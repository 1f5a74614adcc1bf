#include "scenarios/failover_attempts.h"

#include <sstream>

#include "fakeapi/redis/redis_sim.h"

namespace kun::scenario {

namespace {

// A master's event text: "master <name> <ip> <port>[ <extra>]".
struct MasterEvent {
  std::string ip, extra;
};

std::optional<MasterEvent> parseMasterEvent(const std::string& msg) {
  std::istringstream in(msg);
  std::string type, name, ip, port;
  if (!(in >> type >> name >> ip >> port) || type != "master") return std::nullopt;
  MasterEvent e{ip, {}};
  in >> e.extra;
  return e;
}

}  // namespace

FailoverAttempts::FailoverAttempts(redissim::RedisSim& sim) : sim_(sim) {
  sim_.setSentinelEventListener([this](const redissim::SentinelNode& s, const std::string& type, const std::string& msg) {
    if (type == "+new-epoch" || type == "+try-failover" || type == "+odown" || type == "-odown") onEvent(s.myId(), type, msg);
  });
}

FailoverAttempts::~FailoverAttempts() { sim_.setSentinelEventListener({}); }

void FailoverAttempts::onEvent(const std::string& sentinel, const std::string& type, const std::string& msg) {
  const auto e = parseMasterEvent(msg);
  if (!e) return;
  if (type == "+new-epoch") {
    // startFailover announces the epoch it takes just before the attempt.
    try {
      lastNewEpoch_[sentinel] = std::stoll(e->extra);
    } catch (const std::exception&) {
    }
    return;
  }
  if (type == "+odown" || type == "-odown") {
    objectivelyDown_[{sentinel, e->ip}] = type == "+odown";
    return;
  }
  // Sentinel starts a failover of its own only on a master it holds objectively down.
  const auto ep = lastNewEpoch_.find(sentinel);
  const auto down = objectivelyDown_.find({sentinel, e->ip});
  attempts_.push_back({sim_.loop().now(), e->ip, ep == lastNewEpoch_.end() ? 0 : ep->second,
                       down == objectivelyDown_.end() || !down->second});
}

std::optional<FailoverAttempts::Attempt> FailoverAttempts::find(const std::string& masterIp, std::int64_t epoch,
                                                                TimePoint since) const {
  const Attempt* exact = nullptr;
  const Attempt* after = nullptr;
  for (const auto& a : attempts_) {
    if (a.masterIp != masterIp) continue;
    if (a.epoch == epoch && !exact) exact = &a;
    if (a.at > since && !after) after = &a;
  }
  if (const Attempt* a = exact ? exact : after) return *a;
  return std::nullopt;
}

}  // namespace kun::scenario
