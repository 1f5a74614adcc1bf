#pragma once
// The bridge between the simulated kubelet and the Redis simulator: a pod's "redis" or
// "sentinel" container that starts runs a simulated redis-server / redis-sentinel at the
// pod IP, configured from what the pod mounts (its ConfigMap and Secret volumes, read
// from the store when the container starts, as the kubelet would project them); a
// container that stops takes its process with it. The kubelet's readiness hook is the
// readiness scripts' verdict, its termination hook the preStop shutdown script.
//
// Volumes: a data volume that is a PVC keeps its disk under the claim (it outlives the pod
// and follows the claim to a recreated pod with a new IP); an emptyDir keeps it only
// across container restarts of the same pod (uid). Sentinel's rewritten sentinel.conf
// lives in an emptyDir too: kept across a container restart, lost with the pod.
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <vector>

#include "core/redis/redis_admin.h"
#include "core/runtime/result.h"
#include "fakeapi/controllers/sim_cluster.h"
#include "fakeapi/redis/redis_sim.h"

namespace kun::sim {

struct PodBridgeOptions {
  Duration redisBootDelay = milliseconds(50);     // exec -> listening
  Duration sentinelBootDelay = milliseconds(50);
  // How long shutdown.sh waits for Sentinel to name another master (its loop bound).
  Duration preStopFailoverWait = seconds(10);
  // Re-probe a pod's readiness as soon as its process' role or link changes (checked on
  // a short timer), instead of only every readiness period.
  bool probeOnChange = true;
  Duration changePoll = milliseconds(200);
  // The readiness probes answer from their last verdict while their inputs
  // (refreshReadinessInputs) stay the same. With this set it probes every time all the
  // same and counts where the kept verdict differs from the fresh one (readinessCheck()):
  // the test that those inputs cover what the probe reads.
  bool verifyReadinessCache = false;
};

// With verifyReadinessCache: verdicts the kept one would have answered, and the first few
// that differed from a fresh probe.
struct ReadinessCacheCheck {
  std::uint64_t compared = 0;
  std::vector<std::string> mismatches;
};

class PodBridge {
 public:
  // Registers as the kubelet's container listener, readiness hook and preStop hook.
  PodBridge(SimCluster& cluster, redissim::RedisSim& redis, PodBridgeOptions opts = {});
  ~PodBridge();
  PodBridge(const PodBridge&) = delete;
  PodBridge& operator=(const PodBridge&) = delete;

  // The process a pod's container runs now (nullptr: none).
  redissim::RedisNode* redisOf(std::string_view ns, std::string_view pod) const;
  redissim::SentinelNode* sentinelOf(std::string_view ns, std::string_view pod) const;
  // Why the pod's container could not get a process (its ConfigMap/Secret missing, a
  // config it cannot read); nullopt when it runs or never tried.
  std::optional<Error> startError(std::string_view ns, std::string_view pod) const;

  // What the volumes hold (for tests and checkers): a PVC's disk, by namespace/claim.
  const redissim::RedisDisk* claimDisk(std::string_view ns, std::string_view claim) const;

  std::uint64_t processesStarted() const { return started_; }
  std::uint64_t processesStopped() const { return stopped_; }
  const ReadinessCacheCheck& readinessCheck() const { return readinessCheck_; }

 private:
  // A volume's contents the bridge keeps: files (an init container's copy, Sentinel's
  // rewritten sentinel.conf) and a redis-server's data directory.
  struct VolumeData {
    std::map<std::string, std::string> files;                             // by path in the volume
    std::map<std::string, redissim::SentinelSavedConfig> sentinelConfigs;  // by path in the volume
    std::optional<redissim::RedisDisk> disk;
  };
  // Everything a container's readiness verdict depends on (the process' state and role or
  // monitored master, the password it wants and the one the probe reads from the mounted
  // Secret): while these stay the same, so does the probe's answer. Kept field by field and
  // compared in place, so an unchanged container costs no copies.
  struct ReadinessInputs {
    std::string uid;
    bool sentinel = false;
    bool present = false;  // the process exists; the sides below are empty when it does not
    struct RedisSide {
      redissim::SimProcess::State state{};
      bool loading = false, master = false, linkUp = false;
      std::string requirepass, password;
      bool operator==(const RedisSide&) const = default;
      // == RedisSide{}, without building one.
      bool isEmpty() const {
        return state == redissim::SimProcess::State{} && !loading && !master && !linkUp && requirepass.empty() &&
               password.empty();
      }
    } redis;
    struct SentinelSide {
      redissim::SimProcess::State state{};
      // The address the probe greps is the monitored one, which a failover in progress hides.
      std::optional<RedisEndpoint> master;
      std::size_t replicas = 0;
      bool failover = false;
      bool operator==(const SentinelSide&) const = default;
      // == SentinelSide{}, without building one.
      bool isEmpty() const {
        return state == redissim::SimProcess::State{} && !master && replicas == 0 && !failover;
      }
    } sentinelSide;
    // The process whose role, link and requirepass (redis) or monitored master (sentinel)
    // the sides hold, with its view version and state when they were read: while these
    // stay, so do those inputs, and they are not read again (RedisNode/SentinelNode::
    // viewVersion). proc 0: none read.
    struct ViewAt {
      redissim::ProcId proc = 0;
      std::uint64_t incarnation = 0, version = 0;
      redissim::SimProcess::State state{};
      bool operator==(const ViewAt&) const = default;
    } viewAt;
    // What all of the above is read from: the process started (Running::serial), the
    // processes RedisSim has (processChanges), the one at the endpoint with its state,
    // view version and loading flag, and the store's version (the password's Secret).
    // While it stays the same, none of it is read again: nothing above can have moved.
    struct Stamp {
      std::uint64_t running = 0, processChanges = 0, storeVersion = 0;
      ViewAt process;
      bool loading = false;
      bool operator==(const Stamp&) const = default;
    } stamp;
  };
  // Where a running process' state goes when it stops.
  struct Running {
    std::uint64_t serial = 0;  // processesStarted() when it started: tells it from one before at its key
    std::string uid, ns, pod, container;
    bool sentinel = false;
    RedisEndpoint endpoint;
    std::string dataVolume;     // "" when the data dir is on the container's own filesystem
    std::string claimUid;       // the data volume is this PVC
    bool configWritable = false;  // config file on a writable volume (CONFIG REWRITE, Sentinel)
    std::string configVolume, configFile;
    std::shared_ptr<const Object> podSpec;  // the pod as it started (its spec is immutable)
    // What the readiness probe last read as the password, and from which stored version of
    // the Secret it mounts: re-read only when that Secret changes (probePassword).
    struct PasswordSeen {
      bool resolved = false;
      std::string secret;  // "" when the password file is not on a Secret volume
      bool read = false;
      std::uint64_t checkedAt = 0;  // the store's version when last checked
      std::shared_ptr<const Object> from;
      std::string password;
    };
    mutable PasswordSeen passwordSeen;
    // The probe's last verdict, the inputs it was drawn from, and how many commands the
    // probe sent for it: a redis probe that reuses the verdict counts them on the server
    // as if sent (INFO's total_commands_processed reads the same either way; Sentinel
    // counts none).
    struct VerdictSeen {
      bool known = false;
      bool verdict = false;
      std::uint64_t commands = 0;
      ReadinessInputs inputs;
    };
    mutable VerdictSeen verdictSeen;
    // The processes RedisSim has at the endpoint, as it answered while its
    // processChanges() read `at`.
    struct NodesSeen {
      std::optional<std::uint64_t> at;
      redissim::RedisNode* redis = nullptr;
      redissim::SentinelNode* sentinel = nullptr;
    };
    mutable NodesSeen nodesSeen;
  };

  // RedisSim's redis() / sentinel() at r's endpoint, looked up again only when its
  // processes changed (poll() asks for every container every changePoll).
  const Running::NodesSeen& nodesOf(const Running& r) const;
  void onContainer(const ContainerEvent& ev);
  void start(const ContainerEvent& ev);
  void stop(const ContainerEvent& ev);
  // start() failed for a missing volume source: tried again after the kubelet's backoff,
  // while the container is meant to run (mountRetries_ keeps the attempts, by retryKey).
  void retryStart(const ContainerEvent& ev);
  static std::string retryKey(const ContainerEvent& ev);
  Result<std::string> readFile(const Object& pod, const Object& container, const std::string& file);
  // The first copy that cannot read its source fails them all (the kubelet runs none of
  // the containers until the init containers succeed); they run again on the next start.
  Status runInitContainers(const Object& pod);
  bool ready(const Object& pod);
  bool redisReady(const Running& r);
  // What redisReady's probe concludes, asked of the server now (no kept verdict).
  bool probeRedis(redissim::RedisNode& n, const std::string& password);
  bool sentinelReady(const Running& r);
  // What sentinelReady's probe concludes, asked of the sentinel now.
  static bool probeSentinel(redissim::SentinelNode& n);
  // r's probe verdict: the kept one while r's readiness inputs stay the same, else
  // probe() (see verifyReadinessCache). n is the process probed.
  template <class Node, class Probe>
  bool keptOrProbed(const Running& r, Node& n, Probe&& probe);
  std::string mountedPassword(const Object& pod, const Object& container);
  void preStop(const Object& pod, Duration grace, std::function<void()> done);
  struct PreStop;  // pod_prestop.cpp
  // What the shutdown script does, read from its text (pod_prestop.cpp).
  struct ShutdownScript {
    bool failover = false, save = false;
    std::string sentinelHost, masterName;
    int sentinelPort = 0;
    int rounds = -1;  // -1: the script names no bound
  };
  const ShutdownScript& shutdownScript(const std::string& text);
  void preStopLoop(std::shared_ptr<PreStop> ps, int i);
  void preStopFinish(const PreStop& ps);
  std::string askSentinelMaster(const PreStop& ps);
  void armPoll();
  void poll();
  // Brings kept up to date with r's readiness inputs now; true when any of them differed
  // (poll() and keptOrProbed() skip the probe otherwise).
  bool refreshReadinessInputs(ReadinessInputs& kept, const Running& r);
  ReadinessInputs::Stamp stampOf(const Running& r) const;
  bool readReadinessInputs(ReadinessInputs& kept, const Running& r);  // refreshReadinessInputs' reading
  // The password the redis readiness probe reads now (mountedPassword), kept per container
  // while the Secret it is mounted from stays the same stored version.
  const std::string& probePassword(const Running& r);
  // A pod's entry in polled_ gains / loses one of its running containers.
  void pollAdd(const std::string& pk, Running& r);
  void pollRemove(const std::string& pk, const Running* r);
  VolumeData& volume(const std::string& uid, const std::string& volume);
  // A ClusterIP Service's address as kube-proxy resolves it for one connection: a random
  // Ready endpoint (nullopt: none).
  std::optional<RedisEndpoint> serviceEndpoint(const std::string& ns, const std::string& host, int port);
  void note(std::string_view text) const;

  SimCluster& cluster_;
  redissim::RedisSim& redis_;
  PodBridgeOptions opts_;
  Random rng_;
  std::shared_ptr<bool> alive_;  // hooks and timers left in the kubelet and loop check it
  std::map<std::string, Running> running_;  // by "ns/pod/container"
  std::map<std::string, ShutdownScript> scripts_;  // by the script's text
  std::map<std::string, Error> errors_;     // by "ns/pod"
  std::map<std::string, int> mountRetries_;  // by retryKey: failed starts so far
  // What poll() keeps per pod, across polls (it runs every changePoll, and rebuilding this
  // from running_ each time was most of its cost).
  struct Polled {
    std::string ns, pod;
    std::vector<Running*> containers;  // running_'s entries of the pod, in running_'s order
    bool known = false;                // a verdict was drawn since the pod's last container stop
    bool verdict = false;              // the last readiness seen by poll()
    std::vector<ReadinessInputs> inputs;  // what that verdict was drawn from, by container
  };
  std::map<std::string, Polled> polled_;  // by "ns/pod"
  std::string readyKeyScratch_;           // ready()'s running_ key, likewise
  ReadinessCacheCheck readinessCheck_;
  std::map<std::string, std::map<std::string, VolumeData>> emptyDirs_;  // pod uid -> volume
  std::set<std::string> initialized_;       // pod uids whose init containers succeeded
  std::map<std::string, redissim::RedisDisk> claimDisks_;  // by PVC uid
  std::uint64_t started_ = 0, stopped_ = 0;
  TimerId pollTimer_ = 0;
};

}  // namespace kun::sim
