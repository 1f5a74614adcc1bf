#pragma once
// A simulated redis-server 7.0: one process on ip:port with its dataset, its
// configuration, its replication state (as master and as replica) and the commands the
// operator, Sentinel and the checks use, answering as Redis answers.
//
// Replication follows Redis: a replica handshakes (PING, AUTH masterauth, REPLCONF,
// PSYNC replid offset), the master answers +CONTINUE from its backlog or +FULLRESYNC (a
// diskless transfer after repl-diskless-sync-delay); writes are acknowledged to the
// client first and streamed to replicas afterwards, so a crash or partition loses what
// has not reached them. A demoted master that diverged is resynced in full and its own
// writes are discarded. See FIDELITY.md for what is simplified.
#include <array>
#include <cstdint>
#include <deque>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/random.h"
#include "fakeapi/redis/redis_config.h"
#include "fakeapi/redis/resp.h"
#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

struct ViewHash;  // view_digest.h

using Dataset = std::map<std::string, std::string>;

// What the node's volume holds across restarts.
struct RedisDisk {
  std::optional<Dataset> rdb;           // last RDB snapshot
  std::string rdbReplId;                // replication info saved in the RDB
  std::int64_t rdbReplOffset = -1;
  std::optional<Dataset> aof;           // the append-only file, as of its last fsync
  std::optional<std::map<std::string, std::string>> rewrittenConfig;  // CONFIG REWRITE
  bool empty() const { return !rdb && !aof && !rewrittenConfig; }
};

struct RedisNodeOptions {
  std::string ip;
  int port = 6379;
  // redis.conf directives, applied at every boot (e.g. {"replicaof", "10.0.0.1 6379"}).
  std::vector<std::pair<std::string, std::string>> config;
  // A PersistentVolumeClaim: the disk outlives the pod. With emptyDir it survives only a
  // container restart. Informational here; RedisSim::recreateRedis honours it.
  bool persistentVolume = false;
  RedisDisk disk;                        // what the volume already holds
  // The config file can be written (CONFIG REWRITE). One on a read-only volume (a mounted
  // ConfigMap) cannot: the command fails, and every start reads the file as it was, however
  // the process is restarted.
  bool configWritable = true;
  Duration bootDelay = milliseconds(50); // exec -> listening
  bool startNow = true;
};

class RedisNode final : public SimProcess {
 public:
  RedisNode(Fabric& fabric, Random rng, RedisNodeOptions opts, Trace* trace = nullptr);
  ~RedisNode() override;

  RedisEndpoint endpoint() const { return {ip(), port_}; }
  std::string traceName() const override;

  // Graceful stop (SIGTERM): saves an RDB when save points are set, then exits.
  void shutdown();
  // The machine loses power (node failure): unlike a process crash, which keeps what
  // redis-server already wrote to the kernel, the AOF loses what was not fsynced yet.
  void powerLoss();
  RedisReply executeAdmin(const Argv& argv, const std::string& password) override;
  std::optional<RedisReply> adminReplicationInfo(const Argv& argv, const std::string& password,
                                                 ReplicationInfo& out) override;

  // --- inspection for tests, checkers and the kubelet (not through the network) -------
  bool isMaster() const { return masterHost_.empty(); }
  bool loading() const;
  bool ready() const override { return state() == State::Running && !loading(); }
  const std::string& runId() const { return runId_; }
  const std::string& replId() const { return replId_; }
  std::int64_t replOffset() const { return replOffset_; }
  std::string masterHost() const { return masterHost_; }
  int masterPort() const { return masterPort_; }
  bool masterLinkUp() const { return link_.state == LinkState::Connected; }
  std::size_t connectedReplicas() const;
  const Dataset& data() const { return data_; }
  const RedisConfig& config() const { return config_; }
  RedisDisk& disk() { return disk_; }
  RedisDisk takeDisk();
  void wipeDisk() { disk_ = RedisDisk{}; }
  bool persistentVolume() const { return persistentVolume_; }
  const RedisNodeOptions& options() const { return opts_; }
  void setPersistentVolume(bool v) { persistentVolume_ = v; }
  std::uint64_t fullSyncs() const { return statFullSyncs_; }
  std::uint64_t partialSyncs() const { return statPartialOk_; }
  // Commands dispatched (INFO's total_commands_processed). A reader that answers from
  // what it kept instead of sending its commands again counts them (countCommands), so
  // the server's statistics read as if it had sent them.
  std::uint64_t commandsProcessed() const { return statCommands_; }
  void countCommands(std::uint64_t n) { statCommands_ += n; }
  // The text INFO and ROLE would return (also used by tests of their layout).
  std::string infoText(const std::string& section);
  RedisReply roleReply() const;
  // What a simulated Sentinel is answered to INFO (its command connection is marked, see
  // Fabric::markSentinelClient): of infoText("default"), the lines SentinelNode::refreshInfo
  // reads, in their order, each as it is there up to where the parse stops reading it. The
  // parse skips every other line and section, so it does with these what it does with the
  // whole text, without the text being written and read. False, `out` untouched, when a
  // value holds a line break (the whole text is answered then).
  bool sentinelInfoText(std::string& out) const;
  // Appends what INFO replication says that does not drift with time: the process state,
  // role, master link, priorities, the password it wants, its replicas and their states —
  // not offsets, lags or ages. While this stays the same, so does every verdict drawn from
  // INFO replication, so a reader may keep what it derived (the harness's sampler does).
  void appendViewDigest(ViewHash& out) const;
  // Moves whenever what appendViewDigest reads, or the replica side of the readiness
  // probe's inputs (role, link, requirepass), may have changed — apart from the process'
  // state and loading(), which depends on the clock: a reader compares those, and the
  // incarnation, itself. While it stays, a reader may keep what it derived (the harness's
  // sampler and the readiness poll do, and check it with their verify options).
  std::uint64_t viewVersion() const { return viewVersion_; }

 protected:
  void onBoot() override;
  void onDown() override;
  void onAccept(ConnId c) override;
  void onRequest(ConnId c, RequestId r, const Argv& argv) override;
  void onPeerClosed(ConnId c) override;

 private:
  enum class LinkState { None, Connect, Connecting, Handshake, Sync, Connected };
  // One command of the replication stream as it is pushed to replicas (str "stream",
  // integer: the offset of its first byte, elements: the command). Made once, then shared:
  // by the master's backlog and every replica it is pushed to, and by each replica's own
  // backlog and chained replicas, so the command's text is not copied on its way.
  using StreamEntry = std::shared_ptr<const RedisReply>;
  struct Client {
    NetNodeId peer = 0;
    bool authed = false;
    bool inMulti = false;
    bool multiError = false;
    std::vector<Argv> queued;
    std::set<std::string> channels;
    std::string name;
    bool isReplica = false;  // this connection is a replica of ours
    int replPort = 0;        // REPLCONF listening-port
    std::string replIp;      // REPLCONF ip-address (replica-announce-ip)
  };
  struct ReplicaInfo {
    std::string ip;
    int port = 0;
    enum class State { WaitBgsave, SendBulk, Online } state = State::WaitBgsave;
    std::int64_t ackOffset = 0;
    std::int64_t lastAckMs = 0;
    RequestId psyncReq = 0;           // deferred +FULLRESYNC reply
    std::vector<StreamEntry> pendingStream;  // stream produced while the RDB is on its way
  };
  struct BacklogEntry {
    std::int64_t start;  // offset of its first byte
    std::int64_t len;
    StreamEntry entry;
  };
  struct MasterLink {
    LinkState state = LinkState::None;
    ConnId conn = 0;
    std::int64_t lastIoMs = 0;
    std::int64_t downSinceMs = 0;  // 0: never lost (INFO shows -1)
    std::int64_t stateSinceMs = 0;
    // INFO's master_link_down_since_seconds at now (every INFO form reports it alike).
    std::int64_t downSinceSeconds(std::int64_t now) const {
      return downSinceMs != 0 ? (now - downSinceMs) / 1000 : -1;
    }
    std::uint64_t attempt = 0;     // invalidates callbacks of an abandoned handshake
    bool failoverPsync = false;    // we are the old master of a FAILOVER
    std::string syncReplId;        // from +FULLRESYNC, until the RDB arrives
  };
  using Handler = RedisReply (RedisNode::*)(Client&, ConnId, RequestId, const Argv&, bool*);
  struct Command {
    std::string_view name;  // lower case
    Handler fn;
    int arity;  // Redis convention: > 0 exact, < 0 at least -arity
    int flags;
  };
  static constexpr int kWrite = 1, kLoadingOk = 2, kNoAuth = 4, kStaleOk = 8, kPubSubOk = 16,
                       kNoMulti = 32;
  // The command named (in any case), or nullptr.
  static const Command* findCommand(std::string_view name);
  // Settings read on every command, INFO and view digest, cached from config_ (refreshed
  // on every change, and from the start).
  struct HotConfig {
    std::int64_t backlogSize = 0, minReplicas = 0, minLag = 0;
    bool readOnly = true, serveStale = true, needsAuth = false, appendonly = false, fsyncAlways = false;
    std::int64_t hz = 0, maxclients = 0, maxmemory = 0, replicaPriority = 0;
    bool replicaAnnounced = true;
    std::string requirepass, maxmemoryPolicy;
    // Read by the crons every second: parsed once per change, not looked up by name.
    std::int64_t replPingPeriod = 0, replTimeout = 0, replBacklogTtl = 0;
    std::vector<std::int64_t> saveRules;  // "save": the numbers it lists, in order
  };
  void refreshHotConfig();
  // A field viewVersion covers was (or may have been) written.
  void viewChanged() {
    ++viewVersion_;
    fabric().noteViewChange();
  }
  void recountData();

  // dispatch (redis_node.cpp)
  RedisReply dispatch(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred);
  RedisReply execCommand(Client& cl, ConnId c, RequestId r, const Argv& argv, bool* deferred);
  // By reference, as Fabric::reply takes it: each move of a reply copies its string.
  void replyTo(ConnId c, RequestId r, RedisReply&& reply);
  void cron();
  void scheduleCron();

  // data and generic commands (redis_commands.cpp)
  RedisReply cmdPing(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdEcho(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdAuth(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdSet(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdGet(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdMget(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdDel(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdExists(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdIncr(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdDbsize(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdFlushall(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdSelect(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdInfo(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdRole(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdConfig(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdClient(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdMulti(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdExec(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdDiscard(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdPublish(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdSubscribe(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdUnsubscribe(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdSave(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdShutdown(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdQuit(Client&, ConnId, RequestId, const Argv&, bool*);
  // Applies a write to the dataset (clients and the replication stream alike).
  void applyWrite(const Argv& argv);
  // Returns the number of subscribers it went to.
  std::size_t deliverPublish(const std::string& channel, const std::string& message);

  // replication, master side (redis_replication_master.cpp)
  RedisReply cmdReplconf(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdPsync(Client&, ConnId, RequestId, const Argv&, bool*);
  RedisReply cmdFailover(Client&, ConnId, RequestId, const Argv&, bool*);
  // By value, down to the backlog, which keeps the command: moved there, not copied.
  void propagate(Argv argv);
  void feedBacklog(StreamEntry entry, std::int64_t len);
  void createBacklog();
  void trimBacklog();
  void startFullSync();
  void finishTransfer(ConnId c, std::shared_ptr<const Dataset> snapshot, std::string replid,
                      std::int64_t offset);
  void emit(Argv argv);
  // A replication stream entry as pushed to replicas (shared when several get it).
  static StreamEntry streamEntry(Argv argv, std::int64_t start);
  void dropReplica(ConnId c);
  void refreshGoodReplicas();
  void masterCron();
  void failoverCron();
  void abortFailover(const std::string& why);
  void releasePausedWrites();
  void shiftReplicationId();
  std::int64_t rdbSizeBytes() const;

  // replication, replica side (redis_replication_replica.cpp)
  RedisReply cmdReplicaof(Client&, ConnId, RequestId, const Argv&, bool*);
  void setMaster(const std::string& host, int port);
  void unsetMaster();
  void connectToMaster();
  void handshakeStep(std::uint64_t attempt, int step, RedisReply reply);
  void sendHandshake(std::uint64_t attempt, int step, Argv argv);
  void linkLost(const std::string& why);
  void onMasterPush(std::uint64_t attempt, const StreamEntry& msg);
  void replicaCron();
  void disconnectReplicas();

  // persistence (redis_persistence.cpp)
  void loadFromDisk();
  void saveRdb();
  void persistCron();
  void flushAof();  // fsync: the pending AOF writes reach the disk
  void noteWrite(const Argv& argv);
  void rewriteConfig();

  // INFO / ROLE (redis_info.cpp)
  void infoServer(std::string& out);
  void infoReplication(std::string& out);
  void infoPersistence(std::string& out);
  void infoClients(std::string& out);
  void infoMemory(std::string& out);
  void infoStats(std::string& out);
  void infoKeyspace(std::string& out);
  // What infoReplication writes, as parseReplicationInfo reads it back; false, `out`
  // untouched, when a text value would not read back as it is (INFO must then be written).
  bool replicationFields(ReplicationInfo& out) const;
  ReplicationInfo* replicationOut_ = nullptr;  // set while adminReplicationInfo runs INFO

  Random rng_;
  RedisNodeOptions opts_;
  int port_;
  bool persistentVolume_;
  RedisDisk disk_;
  RedisConfig config_;
  HotConfig hot_;
  std::int64_t dataBytes_ = 0;  // keys + values, for INFO memory and RDB sizes
  std::string runId_;
  std::int64_t bootMs_ = 0;
  std::int64_t loadingUntilMs_ = 0;
  Dataset data_;
  std::map<ConnId, Client> clients_;
  std::map<std::string, std::set<ConnId>> channels_;
  // The last few messages delivered (deliverPublish): each sentinel publishes the same
  // hello every 2 s until its epochs change, so one is mostly delivered as made before.
  std::array<std::shared_ptr<const RedisReply>, 4> published_;
  std::size_t publishedNext_ = 0;
  TimerId cronTimer_ = 0;

  // replication state
  std::string replId_, replId2_;
  std::int64_t replOffset_ = 0;
  std::int64_t secondReplOffset_ = -1;
  bool backlogActive_ = false;
  std::deque<BacklogEntry> backlog_;
  std::int64_t backlogFirstByte_ = 0;
  std::int64_t backlogHistlen_ = 0;
  std::int64_t noReplicasSinceMs_ = 0;
  int streamDb_ = -1;
  std::map<ConnId, ReplicaInfo> replicas_;
  int goodReplicas_ = 0;
  bool fullSyncScheduled_ = false;
  std::int64_t lastReplPingMs_ = 0;
  std::string masterHost_;
  int masterPort_ = 0;
  MasterLink link_;
  std::uint64_t viewVersion_ = 0;
  bool psyncCached_ = false;  // we know a replid/offset worth a partial resync

  // FAILOVER command
  enum class FailoverState { None, WaitForSync, InProgress } failoverState_ = FailoverState::None;
  std::string failoverHost_;
  int failoverPort_ = 0;
  std::int64_t failoverDeadlineMs_ = 0;
  bool failoverForce_ = false;
  struct PausedWrite {
    ConnId conn;
    RequestId req;
    Argv argv;
  };
  std::vector<PausedWrite> pausedWrites_;

  // persistence state
  std::int64_t dirty_ = 0;
  std::int64_t lastSaveMs_ = 0;
  std::vector<std::pair<std::string, std::optional<std::string>>> aofPending_;
  bool powerLost_ = false;  // set while powerLoss() takes the process down
  bool aofFlushAll_ = false;

  // stats
  std::uint64_t statCommands_ = 0, statConnections_ = 0, statFullSyncs_ = 0,
                statPartialOk_ = 0, statPartialErr_ = 0;
  std::uint64_t processId_;
};

}  // namespace kun::redissim
