#pragma once
// A simulated world for the Redis/Sentinel tests: loop, trace, network, simulator.
#include <cstdio>
#include <cstdlib>
#include <functional>
#include <string>

#include "chaos/network/network_model.h"
#include "core/runtime/sim_loop.h"
#include "core/runtime/trace.h"
#include "fakeapi/redis/redis_sim.h"
#include "fakeapi/redis/topology.h"

namespace kun::redissim::test {

struct SimWorld {
  explicit SimWorld(std::uint64_t seed = 1)
      : rng(seed), net(loop, rng.fork("net"), &trace), sim(loop, net, rng.fork("redis"), &trace) {}
  // KUN_TRACE_DUMP=1 prints the trace of every world (to read what a test did).
  ~SimWorld() {
    if (std::getenv("KUN_TRACE_DUMP")) std::fputs(lastTrace(1u << 30).c_str(), stdout);
  }

  Result<RedisReply> cmd(const RedisEndpoint& ep, const Argv& argv, const std::string& pw = {}) {
    return sim.admin(Topology::kClientIp).command(ep, argv, pw);
  }
  // The reply, which must have come back (no transport error).
  RedisReply must(const RedisEndpoint& ep, const Argv& argv, const std::string& pw = {}) {
    auto r = cmd(ep, argv, pw);
    if (!r.ok()) return RedisReply::error("TRANSPORT " + r.error().message);
    return *r;
  }
  void runFor(Duration d) { loop.runFor(d); }
  bool runUntil(const std::function<bool()>& pred, Duration limit) {
    return loop.runUntil(pred, loop.now() + limit);
  }
  std::string lastTrace(std::size_t n = 80) const {
    auto e = trace.entries();
    std::string out;
    for (std::size_t i = e.size() > n ? e.size() - n : 0; i < e.size(); ++i)
      out += formatLoopTime(e[i].time) + " " + e[i].component + " | " + e[i].text + "\n";
    return out;
  }
  // Times (ms since start) of trace entries whose text starts with prefix.
  std::vector<std::int64_t> eventTimes(const std::string& prefix) const {
    std::vector<std::int64_t> out;
    for (const auto& e : trace.entries())
      if (e.text.rfind(prefix, 0) == 0) out.push_back(sinceStartMillis(e.time));
    return out;
  }
  std::size_t count(const std::string& prefix) const { return eventTimes(prefix).size(); }

  SimLoop loop;
  Trace trace{200000};
  Random rng;
  NetworkModel net;
  RedisSim sim;
};

// Field `name` of an INFO text, or "" when absent.
inline std::string infoField(const std::string& info, const std::string& name) {
  const std::string key = "\r\n" + name + ":";
  std::string text = "\r\n" + info;
  auto p = text.find(key);
  if (p == std::string::npos) return {};
  p += key.size();
  auto e = text.find("\r\n", p);
  return text.substr(p, e - p);
}

}  // namespace kun::redissim::test
