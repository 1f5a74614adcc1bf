#include "fakeapi/local/ack_writer_real.h"

#include "core/redis/sentinel_parser.h"

namespace kun::local {

using Steady = std::chrono::steady_clock;  // wall-clock ok: a real client's pace

AckWriter::AckWriter(std::string keyPrefix, Target target, std::chrono::milliseconds interval,
                     HiredisOptions client)
    : prefix_(std::move(keyPrefix)),
      target_(std::move(target)),
      interval_(interval),
      clientOpts_(std::move(client)) {}

AckWriter::~AckWriter() { stop(); }

void AckWriter::start() {
  if (thread_.joinable()) return;
  stop_ = false;
  thread_ = std::thread([this] { loop(); });
}

void AckWriter::stop() {
  stop_ = true;
  if (thread_.joinable()) thread_.join();
}

std::vector<AckedWrite> AckWriter::acked() const {
  std::lock_guard<std::mutex> l(mu_);
  return acked_;
}

void AckWriter::loop() {
  HiredisAdmin admin(clientOpts_);
  std::int64_t seq = 0;
  auto next = Steady::now();  // wall-clock ok
  while (!stop_.load()) {
    if (auto ep = target_(admin)) {
      ++seq;
      attempts_ = seq;
      const std::string s = std::to_string(seq);
      auto r = admin.command(*ep, {"SET", prefix_ + s, s});
      if (r && r->isOk()) {
        std::lock_guard<std::mutex> l(mu_);
        acked_.push_back({seq, *ep, Steady::now()});  // wall-clock ok
      }
    }
    next += interval_;
    const auto now = Steady::now();  // wall-clock ok
    if (next < now) next = now;      // a slow write (timeout) does not cause a burst after it
    std::this_thread::sleep_until(next);  // wall-clock ok
  }
}

std::optional<RedisEndpoint> masterFromSentinels(HiredisAdmin& admin,
                                                 const std::vector<RedisEndpoint>& sentinels,
                                                 const std::string& masterName) {
  for (const auto& s : sentinels) {
    auto r = admin.command(s, {"SENTINEL", "GET-MASTER-ADDR-BY-NAME", masterName});
    if (!r) continue;
    auto addr = parseMasterAddr(*r);
    if (addr && addr->has_value()) return **addr;
  }
  return std::nullopt;
}

Result<std::int64_t> countMissing(HiredisAdmin& admin, const RedisEndpoint& node,
                                  const AckWriter& writer, const std::vector<AckedWrite>& writes,
                                  std::string_view password) {
  constexpr std::size_t kBatch = 500;
  std::int64_t missing = 0;
  for (std::size_t i = 0; i < writes.size(); i += kBatch) {
    std::vector<std::string> argv{"MGET"};
    const std::size_t end = std::min(writes.size(), i + kBatch);
    for (std::size_t j = i; j < end; ++j) argv.push_back(writer.key(writes[j].seq));
    auto r = admin.command(node, argv, password);
    if (!r) return r.error();
    if (r->type != RedisReply::Type::Array || r->elements.size() != end - i) {
      return makeError(Reason::Internal, "MGET on " + node.toString() + ": unexpected reply");
    }
    for (std::size_t j = i; j < end; ++j) {
      const RedisReply& v = r->elements[j - i];
      if (v.type != RedisReply::Type::String || v.str != std::to_string(writes[j].seq)) ++missing;
    }
  }
  return missing;
}

}  // namespace kun::local
