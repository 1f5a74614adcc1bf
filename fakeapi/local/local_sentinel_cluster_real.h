#pragma once
// A real Redis Sentinel deployment on loopback: 1 master, N replicas and M sentinels, each
// a redis-server / redis-sentinel process on its own 127.77.K.x address (ports 6379 and
// 26379, as in pods), configured from files in a private temp directory.
//
// Everything is owned: destroying the cluster (also on an error path) SIGKILLs every
// process, removes the temp directory and releases the addresses. Not thread-safe; call
// it from one thread (the one that created it, see LocalProcess on PDEATHSIG).
#include <chrono>
#include <cstdint>
#include <memory>
#include <string>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"
#include "fakeapi/local/address_block_real.h"
#include "fakeapi/local/local_process_real.h"

namespace kun::local {

struct LocalClusterOptions {
  int replicas = 2;
  int sentinels = 3;
  int quorum = 2;
  std::string masterName = "mymaster";
  std::int64_t downAfterMs = 5000;
  std::int64_t failoverTimeoutMs = 60000;
  int parallelSyncs = 1;
  bool persistence = false;  // false: save "" + appendonly no; a restarted node starts empty
  std::string password;
  std::string redisServer = "redis-server";
  std::string redisSentinel = "redis-sentinel";
  std::chrono::milliseconds startTimeout{30000};
  bool keepDirForTest = false;  // leave the temp dir (configs, logs) for inspection
};

// Redis node i: 0 is the initial master, 1..replicas the replicas.
struct NodeRef {
  enum class Kind { Redis, Sentinel };
  Kind kind = Kind::Redis;
  int index = 0;
  static NodeRef redis(int i) { return {Kind::Redis, i}; }
  static NodeRef sentinel(int i) { return {Kind::Sentinel, i}; }
};

class LocalSentinelCluster {
 public:
  // Starts the Redis nodes, waits for every replica's link, starts the sentinels and waits
  // until each one knows all replicas and all other sentinels.
  static Result<std::unique_ptr<LocalSentinelCluster>> start(const LocalClusterOptions& opts);
  ~LocalSentinelCluster();

  const LocalClusterOptions& options() const { return opts_; }
  int redisCount() const { return static_cast<int>(redis_.size()); }
  int sentinelCount() const { return static_cast<int>(sentinels_.size()); }
  RedisEndpoint redis(int i) const;
  RedisEndpoint sentinel(int i) const;
  std::vector<RedisEndpoint> sentinels() const;
  const std::string& dir() const { return dir_; }
  std::string logPath(NodeRef n);

  Status kill(NodeRef n);     // SIGKILL
  Status hang(NodeRef n);     // SIGSTOP
  Status resume(NodeRef n);   // SIGCONT
  // Starts a killed node again from its config file; without persistence its data files
  // are removed first (a new pod on an emptyDir). Waits until it answers PING.
  Status restart(NodeRef n);
  bool running(NodeRef n);
  // pids of every process still running (for tests that check cleanup).
  std::vector<int> livePids();

 private:
  struct Node {
    RedisEndpoint ep;
    std::string dir;
    std::string config;
    LocalProcess proc;
  };
  LocalSentinelCluster(LocalClusterOptions opts, AddressBlock block, std::string dir)
      : opts_(std::move(opts)), block_(std::move(block)), dir_(std::move(dir)) {}
  Node& node(NodeRef n);
  Status launch(NodeRef n);
  Status waitPing(const RedisEndpoint& ep);
  Status waitReplicasLinked();
  Status waitSentinelsDiscovered();

  LocalClusterOptions opts_;
  AddressBlock block_;
  std::string dir_;
  std::vector<Node> redis_;
  std::vector<Node> sentinels_;
};

}  // namespace kun::local
