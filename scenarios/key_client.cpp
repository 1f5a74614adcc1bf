#include "scenarios/key_client.h"

#include <algorithm>
#include <charconv>

#include <fmt/format.h>

#include "core/rediscluster/layout.h"
#include "fakeapi/redis/redis_node.h"
#include "scenarios/scenario_world.h"

namespace kun::scenario {

namespace {

constexpr Duration kRetry = milliseconds(200);
constexpr Duration kConnectTimeout = milliseconds(250);
constexpr Duration kCommandTimeout = milliseconds(500);

std::optional<RedisEndpoint> masterAddress(const Result<RedisReply>& r) {
  if (!r || r->type != RedisReply::Type::Array || r->elements.size() != 2) return std::nullopt;
  int port = 0;
  const std::string& p = r->elements[1].str;
  if (std::from_chars(p.data(), p.data() + p.size(), port).ec != std::errc()) return std::nullopt;
  return RedisEndpoint{r->elements[0].str, port};
}

}  // namespace

KeyClient::KeyClient(ScenarioWorld& world, std::string ns, std::string cluster, std::function<std::string()> password)
    : world_(world),
      ns_(std::move(ns)),
      cluster_(std::move(cluster)),
      password_(std::move(password)),
      client_(std::make_unique<redissim::SimClient>(world.world().redis().fabric(), ScenarioWorld::kClientIp,
                                                    kConnectTimeout, kCommandTimeout)) {}

KeyClient::~KeyClient() = default;

std::vector<RedisEndpoint> KeyClient::sentinels() {
  // The sentinel pods that are not terminating, by name (as a client's list of addresses).
  std::vector<const rediscluster::PodInfo*> pods;
  if (auto rc = world_.cluster(ns_, cluster_))
    for (const auto& p : world_.pods(*rc).sentinels)
      if (!p.terminating && !p.ip.empty()) pods.push_back(&p);
  std::sort(pods.begin(), pods.end(), [](const auto* a, const auto* b) { return a->name < b->name; });
  std::vector<RedisEndpoint> out;
  for (const auto* p : pods) out.push_back({p->ip, rediscluster::layout::kSentinelPort});
  return out;
}

// A Sentinel-aware client makes sure the node it was given is a master (ROLE, as the
// Sentinel client guidelines ask) and otherwise asks the sentinels again: they keep naming
// a master that crashed and restarted empty, as a replica of nobody, until they fail it
// over, and its empty answers then are no loss (a read right after such a crash counted
// every write as lost, though every node but that one still held them). The role is read
// off the simulator at the answer, not asked with a command, which would cost every
// command a round trip.
bool KeyClient::answeredAsMaster(const RedisEndpoint& at) const {
  const redissim::RedisNode* n = world_.world().redis().redis(at);
  return n != nullptr && n->isMaster();
}

bool KeyClient::onMaster(std::vector<std::string> argv, TimePoint deadline, RedisReply& reply, std::string& master) {
  SimLoop& loop = world_.loop();
  while (loop.now() < deadline) {
    const auto ss = sentinels();
    if (!ss.empty()) {
      // One attempt: ask one sentinel (the next one each time), then AUTH and the command
      // on one connection to the master it names.
      struct Attempt {
        bool done = false, ok = false;
        RedisReply reply;
        std::string master;
      };
      auto a = std::make_shared<Attempt>();
      const RedisEndpoint s = ss[nextSentinel_++ % ss.size()];
      const std::string pw = password_();
      client_->command(s, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", "mymaster"},
                       [this, a, pw, argv](Result<RedisReply> r) {
                         auto m = masterAddress(r);
                         if (!m) {
                           a->done = true;
                           return;
                         }
                         a->master = m->host;
                         if (!pw.empty()) client_->command(*m, {"AUTH", pw}, [](Result<RedisReply>) {});
                         client_->command(*m, argv, [this, a, at = *m](Result<RedisReply> r) {
                           a->done = true;
                           if (r && !r->isError() && answeredAsMaster(at)) {
                             a->ok = true;
                             a->reply = *r;
                           }
                         });
                       });
      loop.runUntil([&] { return a->done; }, deadline);
      if (a->ok) {
        reply = a->reply;
        master = a->master;
        return true;
      }
    }
    loop.runUntil(std::min(deadline, loop.now() + kRetry));
  }
  return false;
}

int KeyClient::write(const std::string& prefix, int n, Duration timeout, Duration pause) {
  TimePoint deadline = world_.loop().now() + timeout;
  int acked = 0;
  for (int i = 0; i < n; ++i) {
    if (i > 0 && pause > Duration::zero()) {
      world_.loop().runFor(pause);
      deadline += pause;
    }
    const std::string key = fmt::format("{}-{}", prefix, i);
    const std::string value = fmt::format("{}@{}", key, ++seq_);
    tried_[key].push_back(value);
    RedisReply r;
    std::string master;
    if (!onMaster({"SET", key, value}, deadline, r, master) || !r.isOk()) continue;
    acked_[key] = AckedWrite{value, world_.loop().now(), master};
    tried_[key] = {value};
    ++acks_;
    ++acked;
  }
  return acked;
}

bool KeyClient::holds(const std::string& key, const std::string& value) const {
  auto it = tried_.find(key);
  return it != tried_.end() && std::find(it->second.begin(), it->second.end(), value) != it->second.end();
}

bool KeyClient::readKeys(const std::vector<std::string>& keys, Duration timeout, std::vector<LostWrite>& lost) {
  const TimePoint deadline = world_.loop().now() + timeout;
  for (const auto& key : keys) {
    auto it = acked_.find(key);
    if (it == acked_.end()) continue;
    RedisReply r;
    std::string master;
    if (!onMaster({"GET", key}, deadline, r, master)) return false;
    const std::string found = r.type == RedisReply::Type::String ? r.str : std::string();
    // A write sent after the last acknowledged one may have landed without its OK coming
    // back: any value sent since counts as found.
    bool ok = false;
    for (const auto& v : tried_[key]) ok = ok || v == found;
    if (!ok) lost.push_back(LostWrite{key, it->second, found});
  }
  return true;
}

bool KeyClient::read(const std::string& prefix, int n, Duration timeout, std::vector<LostWrite>& lost) {
  std::vector<std::string> keys;
  for (int i = 0; i < n; ++i) keys.push_back(fmt::format("{}-{}", prefix, i));
  return readKeys(keys, timeout, lost);
}

bool KeyClient::readAll(Duration timeout, std::vector<LostWrite>& lost) {
  std::vector<std::string> keys;
  for (const auto& [k, w] : acked_) keys.push_back(k);
  return readKeys(keys, timeout, lost);
}

}  // namespace kun::scenario
