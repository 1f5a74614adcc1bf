// Persistence: RDB snapshots (save points, SAVE/BGSAVE, shutdown), the append-only file
// with appendfsync everysec or always, loading at boot, CONFIG REWRITE.
//
// redis-server write()s the AOF buffer before it replies (beforeSleep), and fsyncs once a
// second with everysec: a killed process loses nothing it acknowledged (the kernel holds
// the pages), a machine that loses power loses the last second. aofPending_ stands for
// what was written but not fsynced: onDown() flushes it, powerLoss() drops it.
//
// Simplification: a BGSAVE is instantaneous (no fork, no child time); the AOF is kept as
// the dataset it would replay to, not as a log.
#include <fmt/format.h>

#include "fakeapi/redis/redis_node.h"
#include "fakeapi/redis/resp.h"

namespace kun::redissim {

void RedisNode::loadFromDisk() {
  const Dataset* src = nullptr;
  if (config_.flag("appendonly") && disk_.aof) {
    src = &*disk_.aof;
  } else if (disk_.rdb) {
    src = &*disk_.rdb;
  }
  if (src) data_ = *src;
  if (config_.flag("appendonly") && !disk_.aof) disk_.aof = data_;  // a new AOF on first start
  // Loading takes time proportional to the dataset; clients get -LOADING meanwhile.
  if (!data_.empty()) loadingUntilMs_ = nowMs() + 1 + static_cast<std::int64_t>(data_.size()) / 1000;
  else loadingUntilMs_ = 0;
}

void RedisNode::saveRdb() {
  disk_.rdb = data_;
  if (!isMaster() || backlogActive_) {
    disk_.rdbReplId = replId_;
    disk_.rdbReplOffset = replOffset_;
  } else {
    disk_.rdbReplId.clear();
    disk_.rdbReplOffset = -1;
  }
  dirty_ = 0;
  lastSaveMs_ = nowMs();
  record(fmt::format("DB saved on disk ({} keys)", data_.size()));
}

void RedisNode::noteWrite(const Argv& argv) {
  ++dirty_;
  if (!hot_.appendonly) return;
  const std::string name = lower(argv[0]);
  if (name == "flushall" || name == "flushdb") {
    aofPending_.clear();
    aofFlushAll_ = true;
  } else if (name == "set") {
    aofPending_.emplace_back(argv[1], argv[2]);
  } else if (name == "del") {
    for (std::size_t i = 1; i < argv.size(); ++i) aofPending_.emplace_back(argv[i], std::nullopt);
  }
  if (hot_.fsyncAlways) persistCron();
}

void RedisNode::flushAof() {
  if (!hot_.appendonly) return;
  if (!disk_.aof) disk_.aof = Dataset{};
  if (aofFlushAll_) disk_.aof->clear();
  aofFlushAll_ = false;
  for (auto& [k, v] : aofPending_) {
    if (v) (*disk_.aof)[k] = *v;
    else disk_.aof->erase(k);
  }
  aofPending_.clear();
}

void RedisNode::powerLoss() {
  powerLost_ = true;
  crash();
  powerLost_ = false;
}

void RedisNode::persistCron() {
  flushAof();
  const std::vector<std::int64_t>& nums = hot_.saveRules;  // none when "save" is empty
  if (nums.empty() || dirty_ == 0) return;
  const std::int64_t elapsed = nowMs() - lastSaveMs_;
  for (std::size_t i = 0; i + 1 < nums.size(); i += 2) {
    if (dirty_ >= nums[i + 1] && elapsed >= nums[i] * 1000) {
      saveRdb();
      return;
    }
  }
}

void RedisNode::rewriteConfig() {
  auto conf = config_.snapshot();
  conf["replicaof"] = isMaster() ? "" : masterHost_ + " " + std::to_string(masterPort_);
  conf["port"] = std::to_string(port_);
  disk_.rewrittenConfig = std::move(conf);
}

}  // namespace kun::redissim
