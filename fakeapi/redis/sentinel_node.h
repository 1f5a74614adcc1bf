#pragma once
// A simulated redis-sentinel 7.0, following sentinel.c's algorithm and timers:
// - a timer at a randomized 10-19 Hz runs, for every master and its replicas and
//   sentinels: reconnect the links, send PING (every second), INFO (every 10 s, every
//   second for replicas while the master is ODOWN / failing over / they report a broken
//   link) and a hello (every 2 s) to the instance's __sentinel__:hello channel;
// - SDOWN when the oldest unanswered PING is older than down-after-milliseconds;
//   ODOWN when quorum sentinels (asked with SENTINEL is-master-down-by-addr every second)
//   agree; failover with a leader elected by a majority of the known sentinels (and at
//   least quorum) for an epoch, one vote per epoch, start times desynchronized by up to
//   1 s and retries after twice the failover-timeout; replica selection, promotion,
//   reconfiguration of the others (parallel-syncs), +switch-master, and configuration
//   propagation to the other sentinels by hello messages carrying the config epoch;
// - TILT when the timer sees time jump (e.g. after the process was hung);
// - (the simulator's own economy) the timer's periods come from a random stream of their
//   own, so the tick times are known ahead: a tick that would find nothing due is passed by
//   without an event, and runs would be the same tick for tick if it were not (check mode);
// - instances that disappear stay listed (s_down) until SENTINEL RESET.
// Events (+sdown, +odown, +switch-master, ...) go to the trace as Sentinel logs them, and
// to subscribers of the event's channel.
#include <algorithm>
#include <cstdint>
#include <functional>
#include <map>
#include <memory>
#include <optional>
#include <set>
#include <string>
#include <string_view>
#include <vector>

#include "core/runtime/random.h"
#include "fakeapi/redis/sim_process.h"

namespace kun::redissim {

struct ViewHash;  // view_digest.h

struct SentinelMasterConfig {
  std::string name;
  std::string host;
  int port = 6379;
  int quorum = 2;
  std::int64_t downAfterMs = 30000;
  std::int64_t failoverTimeoutMs = 180000;
  int parallelSyncs = 1;
  std::string authPass;
};

// What sentinel.conf holds after Sentinel rewrote it (it does so on every state change).
struct SentinelSavedConfig {
  struct Master {
    SentinelMasterConfig config;
    std::uint64_t configEpoch = 0;
    std::uint64_t leaderEpoch = 0;
    std::vector<std::pair<std::string, int>> knownReplicas;
    struct KnownSentinel {
      std::string host;
      int port;
      std::string runid;
    };
    std::vector<KnownSentinel> knownSentinels;
  };
  std::string myid;
  std::uint64_t currentEpoch = 0;
  std::vector<Master> masters;
};

struct SentinelOptions {
  std::string ip;
  int port = 26379;
  std::vector<SentinelMasterConfig> monitors;      // "sentinel monitor ..." lines
  std::optional<SentinelSavedConfig> savedConfig;  // a sentinel.conf it rewrote before
  // Whether the rewritten sentinel.conf survives a restart of this process.
  bool keepConfigOnRestart = true;
  Duration bootDelay = milliseconds(50);
  bool startNow = true;
};

class SentinelNode final : public SimProcess {
 public:
  SentinelNode(Fabric& fabric, Random rng, SentinelOptions opts, Trace* trace = nullptr);
  ~SentinelNode() override;

  RedisEndpoint endpoint() const { return {ip(), port_}; }
  std::string traceName() const override;
  RedisReply executeAdmin(const Argv& argv, const std::string& password) override;
  bool adminInstances(const Argv& argv, SentinelFieldSink& sink) const override;

  // --- inspection for tests and checkers ------------------------------------------------
  const std::string& myId() const { return myid_; }
  std::uint64_t currentEpoch() const { return currentEpoch_; }
  bool tilt() const { return tilt_; }
  // The address this sentinel gives clients for the master (GET-MASTER-ADDR-BY-NAME).
  std::optional<RedisEndpoint> masterAddress(const std::string& name) const;
  bool failoverInProgress(const std::string& name) const;
  std::vector<RedisEndpoint> knownReplicas(const std::string& name) const;
  std::size_t knownReplicaCount(const std::string& name) const;  // knownReplicas().size(), no copies
  // masterAddress, knownReplicaCount (0 without an address) and failoverInProgress from
  // one look-up and no copies, for the readiness probe that polls all three. host is null
  // when masterAddress would be empty; it points into this node until it next runs.
  struct MasterProbe {
    const std::string* host = nullptr;
    int port = 0;
    std::size_t replicas = 0;
    bool failover = false;
  };
  MasterProbe masterProbe(const std::string& name) const;
  std::size_t knownSentinels(const std::string& name) const;
  bool masterSdown(const std::string& name) const;
  bool masterOdown(const std::string& name) const;
  // The config a restart would read (what Sentinel last flushed to sentinel.conf).
  SentinelSavedConfig savedConfig() const;
  std::string infoText(const std::string& section) const;
  // Appends what SENTINEL MASTER/REPLICAS/SENTINELS say of `master` that does not drift
  // with time (addresses, flags, links, epochs, settings, votes — not ping ages): as
  // RedisNode::appendViewDigest, for readers that keep what they derived.
  void appendViewDigest(const std::string& master, ViewHash& out) const;
  // Moves whenever what appendViewDigest or masterProbe read may have changed, apart from
  // the process' state (SimProcess::state: a reader compares that, and the incarnation,
  // itself). Counted where those fields are written, and on every event Sentinel logs
  // (+sdown, +odown, the failover's steps, +slave, ...: each marks such a change); while it
  // stays, a reader may keep what it derived from them (the harness's sampler and the
  // readiness poll do, and check it with their verify options).
  std::uint64_t viewVersion() const { return viewVersion_; }
  // Called for every Sentinel event (type "+switch-master", message as logged after it),
  // as a client subscribed to every event channel would see them, without the network hop.
  using EventListener = std::function<void(const SentinelNode&, const std::string& type, const std::string& msg)>;
  void setEventListener(EventListener l) { listener_ = std::move(l); }
  // For tests of the timer's plans: the timer also runs the instances it would pass by, and
  // counts the runs that did something (a plan that skipped work: must stay 0).
  void checkTimerPlans(bool on) { checkPlans_ = on; }
  std::uint64_t timerPlanMisses() const { return planMisses_; }
  // Timer ticks passed by with nothing to do (in check mode: that the rule would pass by).
  std::uint64_t timerTicksPassedBy() const { return ticksPassed_; }
  std::uint64_t timerTicksRun() const { return ticksRun_; }
  std::uint64_t timerPlanSkips() const { return planSkips_; }
  // Failovers this sentinel led and ended (+switch-master to its promoted replica) under a
  // config epoch newer than the one it won. sentinel.c takes a newer epoch from a hello
  // that names the address the failing-over sentinel still holds (the old master's), keeps
  // failing over, and then publishes its own replica under that epoch: the other
  // sentinels, at the same epoch, never take it, and this one never takes theirs — a split
  // real Sentinel does not heal (FIDELITY.md, "a failover that ends under a newer epoch").
  std::uint64_t failoverEndsUnderNewerEpoch() const { return staleEnds_; }
  // A SENTINEL subcommand is about to run: one that may change what the timer acts on
  // voids the timer's plans.
  void noteSentinelCommand(std::string_view sub);

 protected:
  void onBoot() override;
  void onDown() override;
  void onAccept(ConnId c) override;
  void onRequest(ConnId c, RequestId r, const Argv& argv) override;
  void onPeerClosed(ConnId c) override;

 private:
  // Instance flags, as sentinel.c names them.
  enum : int {
    kMaster = 1 << 0, kSlave = 1 << 1, kSentinel = 1 << 2, kSDown = 1 << 3, kODown = 1 << 4,
    kMasterDown = 1 << 5, kFailoverInProgress = 1 << 6, kPromoted = 1 << 7, kReconfSent = 1 << 8,
    kReconfInprog = 1 << 9, kReconfDone = 1 << 10, kForceFailover = 1 << 11,
  };
  enum FailoverState { kNone = 0, kWaitStart, kSelectSlave, kSendSlaveofNoone, kWaitPromotion,
                       kReconfSlaves, kUpdateConfig };
  struct Link {
    bool operator==(const Link&) const = default;
    bool disconnected = true;
    int pendingCommands = 0;
    ConnId cc = 0, pc = 0;
    std::uint64_t ccGen = 0, pcGen = 0;
    std::int64_t ccConnTime = 0, pcConnTime = 0, pcLastActivity = 0;
    std::int64_t lastAvailTime = 0, actPingTime = 0, lastPingTime = 0, lastPongTime = 0,
                 lastReconnTime = 0;
  };
  struct Instance {
    std::uint64_t uid = 0;
    int flags = 0;
    std::string name;
    std::string runid;
    std::uint64_t configEpoch = 0;
    std::string host;
    int port = 0;
    Link link;
    std::int64_t lastPubTime = 0, lastHelloTime = 0, lastMasterDownReplyTime = 0;
    std::int64_t sDownSince = 0, oDownSince = 0, downAfter = 30000, infoRefresh = 0;
    int roleReported = 0;
    std::int64_t roleReportedTime = 0, slaveConfChangeTime = 0;
    // master
    std::map<std::string, std::unique_ptr<Instance>> slaves;     // by "ip:port"
    std::map<std::string, std::unique_ptr<Instance>> sentinels;  // by run id
    int quorum = 2;
    int parallelSyncs = 1;
    std::string authPass;
    // slave
    std::int64_t masterLinkDownTime = 0;
    int slavePriority = 100;
    int replicaAnnounced = 1;
    std::int64_t slaveReconfSentTime = 0;
    Instance* master = nullptr;
    std::string slaveMasterHost;
    int slaveMasterPort = 0;
    bool slaveMasterLinkUp = false;
    std::int64_t slaveReplOffset = 0;
    // failover
    std::string leader;
    std::uint64_t leaderEpoch = 0;
    std::uint64_t failoverEpoch = 0;
    int failoverState = kNone;
    std::int64_t failoverStateChangeTime = 0, failoverStartTime = 0, failoverTimeout = 180000,
                 failoverDelayLogged = 0;
    Instance* promotedSlave = nullptr;
    std::string info;
    // master: our hello for it, as last written, and what it was written from (the same
    // text goes to the master and every replica and sentinel of it every 2 s).
    struct Hello {
      std::string text;
      SharedArgv publish;  // PUBLISH __sentinel__:hello text, sent while text stays
      std::uint64_t currentEpoch = 0, configEpoch = 0;
      std::string host;
      int port = -1;  // none written yet
    } hello;
    // The timer's plan for it (see planFor): while planGen is the node's planGen_, the
    // timer has nothing to do for it before planDue.
    std::int64_t planDue = 0;
    std::uint64_t planGen = 0;
  };
  struct Client {
    std::set<std::string> channels;
  };

  // Sentinel's clock: Unix milliseconds, as mstime() in sentinel.c (its "never" is 0).
  // The simulated clock stands still during a tick, so the tick's reading serves every
  // call in it (each would be a virtual call and a division).
  std::int64_t mstime() const { return inTick_ ? tickMs_ : wallMicros() / 1000; }

  // instances (sentinel_node.cpp)
  Instance* createInstance(const std::string& name, int flags, const std::string& host, int port, int quorum,
                           Instance* master);
  void releaseChildren(Instance& m);
  Instance* byUid(std::uint64_t uid) const { return byUid_.find(uid); }  // every reply and push
  Instance* masterByName(const std::string& name) const;
  Instance* masterByAddr(const std::string& host, int port) const;
  void resetMaster(Instance& m, bool keepSentinels, bool event);
  int resetByPattern(const std::string& pattern);
  void resetMasterAndChangeAddress(Instance& m, const std::string& host, int port);
  std::pair<std::string, int> currentMasterAddress(const Instance& m) const;
  // The instance whose host and port currentMasterAddress(m) gives (no copies).
  static const Instance& currentMasterAt(const Instance& m);
  void event(const std::string& type, const Instance* ri, const std::string& extra = {});
  std::string describe(const Instance& ri) const;

  // links and periodic commands (sentinel_monitor.cpp)
  //
  // Each timer rule as the time from which it acts on an instance, given the instance's
  // state: the timer acts when now >= that time, and plans (planFor) from the earliest.
  static constexpr std::int64_t kNever = INT64_MAX, kAlways = INT64_MIN;
  static std::int64_t reconnectDueAt(const Instance& ri);
  static std::int64_t infoDueAt(const Instance& ri);
  static std::int64_t pingDueAt(const Instance& ri);
  static std::int64_t helloDueAt(const Instance& ri);
  static std::int64_t closeCcDueAt(const Instance& ri);
  static std::int64_t closePcDueAt(const Instance& ri);
  static std::int64_t sdownFrom(const Instance& ri);  // from then on checkSdown finds it down
  // The earliest time from which handleInstance(ri) could do anything, if nothing but the
  // clock changes; <= now when it could act now.
  std::int64_t planFor(const Instance& ri, std::int64_t now) const;
  void replan(Instance& ri) {
    ri.planGen = planGen_;
    ri.planDue = planFor(ri, mstime());
    lowerWake(ri.planDue);
  }
  void unplan(Instance& ri) {
    ri.planDue = kAlways;
    lowerWake(kAlways);
  }
  // Something changed that plans of other instances may depend on: every one is redone.
  void unplanAll() {
    ++planGen_;
    lowerWake(kAlways);
  }
  // A field viewVersion covers was (or may have been) written.
  void viewChanged() {
    ++viewVersion_;
    fabric().noteViewChange();
  }
  // Writes such a field, counting it only when its value moves (some are rewritten on
  // every INFO reply, most often with what they held).
  template <class T, class V>
  void setViewed(T& field, const V& value) {
    if (field == value) return;
    field = value;
    viewChanged();
  }
  void lowerWake(std::int64_t due) {
    // A wake not lowered leaves the tick the rule picks where it is (the ticks only get
    // later ones drawn): rewake would pick the same, which check mode verifies.
    if (due >= wake_) {
      if (checkPlans_) checkUnloweredWake();
      return;
    }
    wake_ = due;
    // Between ticks, an earlier wake may need an earlier tick than the one waited for.
    if (wake_ < wantMs_ && !inTick_) rewake();
  }
  // Check mode, a wake not lowered: rewake as before (its tie bookkeeping), counting a
  // moved pick as a plan miss. Out of line: lowerWake is inlined into every reply.
  void checkUnloweredWake();
  // The timer may pass ri by (its plan holds, and nothing outside ri it depends on moved).
  bool quiet(const Instance& ri, std::int64_t now) const;
  // checkPlans_ mode: runs ri, which the plans pass by, and counts it if it did something
  // (what probe sees changed).
  void checkQuietRun(Instance& ri, std::int64_t now, bool allQuiet);
  std::vector<std::int64_t> probe(const Instance& ri) const;
  // The timer's ticks. Their periods come from tickRng_ (drawn ahead as needed), so the
  // tick times are known in advance: a tick that would find nothing to do (before wake_,
  // no TILT) is passed by, and the timer event waits for the first one that could act.
  void timer();
  void scheduleTimer();  // after a tick: the next one to run, from now
  Duration drawTickPeriod();
  std::int64_t msAt(TimePoint t) { return (wallMicros() + (t - loop().now()).count()) / 1000; }
  TimePoint timeOfMs(std::int64_t ms);  // the first loop time at which mstime() >= ms
  // The tick (index into tickTimes_, 1-based, and time) of the first after `after` that
  // could act: TILT, or wake_ reached; or the kMaxTicksAhead-th, which runs anyway.
  std::pair<std::size_t, TimePoint> firstActingTick(TimePoint after);
  void setTick(std::size_t idx, TimePoint at);  // (re)schedules the timer event for it
  void rewake();
  void onHang() override;
  // now: mstime() when the tick started (the simulated clock stands still during it).
  void checkTilt(std::int64_t now);
  void handleAll(std::int64_t now);
  void handleInstance(Instance& ri);
  void reconnect(Instance& ri);
  void closeCc(Instance& ri);
  void closePc(Instance& ri);
  // Sends cmd on ri's command link; onReply(Instance&, RedisReply&) runs when the reply
  // comes back on that same link (nullptr: nothing to run).
  // Cmd: Argv, or SharedArgv for a command sent unchanged again and again.
  template <class F, class Cmd = Argv>
  void send(Instance& ri, Cmd cmd, F onReply);
  void sendAuthIfNeeded(Instance& ri, ConnId conn);
  void sendPeriodic(Instance& ri);
  void sendPing(Instance& ri);
  void sendHello(Instance& ri);
  void forceHelloUpdate(Instance& m);
  void checkSdown(Instance& ri);
  void checkOdown(Instance& m);
  void refreshInfo(Instance& ri, const std::string& info);
  // seen: seenHello(hello).
  struct HelloSeen;
  void processHello(std::string_view hello, const HelloSeen* seen);
  // A hello heard before (see helloSeen_), or nullptr.
  const HelloSeen* seenHello(std::string_view hello) const;
  // Does what processHello would for a repeat of h, if that is only noting when the
  // sentinel was heard (now: mstime()); false when it would do more (processHello must
  // parse it).
  bool repeatHello(const HelloSeen& h, std::int64_t now);
  // The entry for hello, made if there is none (the oldest goes past a few).
  HelloSeen& rememberHello(std::string_view hello);
  void askOthers(Instance& m, bool forced);
  bool masterLooksSane(const Instance& m) const;
  bool noDownFor(const Instance& ri, std::int64_t ms) const;
  bool sendSlaveOf(Instance& ri, const std::string& host, int port);

  // failover (sentinel_failover.cpp)
  std::string voteLeader(Instance& m, std::uint64_t reqEpoch, const std::string& reqRunid,
                         std::uint64_t* leaderEpoch);
  std::string getLeader(Instance& m, std::uint64_t epoch);
  bool startFailoverIfNeeded(Instance& m);
  void startFailover(Instance& m);
  Instance* selectSlave(Instance& m);
  void failoverStateMachine(Instance& m);
  void failoverWaitStart(Instance& m);
  void failoverSelectSlave(Instance& m);
  void failoverSendSlaveofNoone(Instance& m);
  void failoverReconfNextSlave(Instance& m);
  void failoverDetectEnd(Instance& m);
  void switchToPromoted(Instance& m);
  void abortFailover(Instance& m);

  // commands (sentinel_commands.cpp)
  RedisReply dispatch(Client& cl, ConnId c, const Argv& argv);
  RedisReply sentinelCommand(const Argv& argv);
  RedisReply sentinelSet(const Argv& argv);
  RedisReply instanceReply(const Instance& ri) const;
  RedisReply instancesReply(const std::map<std::string, std::unique_ptr<Instance>>& d) const;
  void instanceFields(const Instance& ri, SentinelFieldSink& out) const;
  void instancesFields(const std::map<std::string, std::unique_ptr<Instance>>& d, SentinelFieldSink& out) const;

  Random rng_;
  Random tickRng_;  // the timer's periods, apart from rng_ (votes) so they can be drawn ahead
  // The tick sequence: the times of the ticks after the last run of timer(), drawn ahead
  // as far as needed. The timer event is for tick tickIdx_ (1-based; 0: the boot tick, not
  // from the sequence) at tickAt_; wantAt_ is the tick the skipping rule picks, which the
  // event is for except in checkPlans_ mode (every tick runs, and one that the rule passes
  // by but that acts counts as a plan miss).
  std::vector<TimePoint> tickTimes_;
  TimerId tickEvent_ = 0;
  std::size_t tickIdx_ = 0;
  TimePoint tickAt_{}, wantAt_{};
  TimePoint tieAt_ = TimePoint::min();  // check mode: see rewake
  std::int64_t wantMs_ = kAlways;
  bool inTick_ = false;
  std::int64_t tickMs_ = 0;  // mstime() at the start of the running tick (while inTick_)
  std::uint64_t ticksPassed_ = 0, ticksRun_ = 0;
  static constexpr std::size_t kMaxTicksAhead = 64;
  SentinelOptions opts_;
  int port_;
  std::optional<SentinelSavedConfig> saved_;
  std::string myid_;
  std::string runId_;  // INFO's run_id: this process, not the sentinel id
  std::uint64_t currentEpoch_ = 0;
  std::map<std::string, std::unique_ptr<Instance>> masters_;
  // Instances by uid. Uids are handed out in order and never reused, so this is a table
  // indexed by uid: every reply and push looks its instance up here.
  struct UidIndex {
    std::vector<Instance*> at;
    void set(std::uint64_t uid, Instance* p) {
      if (uid >= at.size()) at.resize(uid + 1, nullptr);
      at[uid] = p;
    }
    void erase(std::uint64_t uid) {
      if (uid < at.size()) at[uid] = nullptr;
    }
    void clear() { at.clear(); }
    Instance* find(std::uint64_t uid) const { return uid < at.size() ? at[uid] : nullptr; }
  };
  UidIndex byUid_;
  std::uint64_t nextUid_ = 1;
  bool tilt_ = false;
  std::int64_t tiltStart_ = 0;
  std::int64_t previousTime_ = 0;
  std::int64_t bootMs_ = 0;
  bool simCrashAfterElection_ = false, simCrashAfterPromotion_ = false;
  // The last few hello payloads heard, with what processing them found. A peer repeats
  // the same hello (to every instance, every 2 s) until its epochs or master change, and
  // each copy reaches this sentinel once per instance it subscribes to: a repeat whose
  // master and sentinel entries still exist and whose epochs are not newer than ours only
  // refreshes the sentinel's last-hello time, with no parsing.
  struct HelloSeen {
    std::string text;
    std::uint64_t key = 0;  // helloKey(text): a seen hello is only compared with entries of its key
    bool mine = false;  // holds our id: the pub/sub link ignores it
    std::uint64_t masterUid = 0, sentinelUid = 0;  // 0: none known
    std::uint64_t currentEpoch = 0, masterConfigEpoch = 0;
  };
  std::vector<HelloSeen> helloSeen_;
  std::uint64_t planGen_ = 1;  // instances start with planGen 0: no plan
  // The earliest plan of all instances: until then a tick has nothing to do.
  std::int64_t wake_ = kAlways;
  bool checkPlans_ = false;
  std::uint64_t planMisses_ = 0, planSkips_ = 0;
  std::uint64_t staleEnds_ = 0;
  std::uint64_t activity_ = 0;  // commands sent and events: what a probe sees of a tick
  std::uint64_t viewVersion_ = 0;
  std::map<ConnId, Client> clients_;
  std::map<std::string, std::set<ConnId>> channels_;
  EventListener listener_;
};

}  // namespace kun::redissim
