#pragma once
// A simulated OS process (redis-server or redis-sentinel) on one IP: its lifecycle
// (down, starting, running, hung like SIGSTOP) and the rule that everything it does runs
// "inside" it — network arrivals and its own timers run now when it is running, wait in
// its inbox while it is hung (and run, late and in order, when it resumes), and vanish
// when it is down.
#include <cstdint>
#include <deque>
#include <functional>
#include <memory>
#include <optional>
#include <string>
#include <string_view>

#include "core/runtime/trace.h"
#include "fakeapi/redis/fabric.h"

namespace kun::redissim {

class SimProcess {
 public:
  enum class State { Down, Starting, Running, Hung };
  using Task = kun::Task;

  SimProcess(Fabric& fabric, std::string ip, Trace* trace);
  virtual ~SimProcess();
  SimProcess(const SimProcess&) = delete;
  SimProcess& operator=(const SimProcess&) = delete;

  const std::string& ip() const { return ip_; }
  NetNodeId netId() const { return netId_; }
  ProcId procId() const { return id_; }
  State state() const { return state_; }
  // Running or hung: the process exists and holds its sockets.
  bool up() const { return state_ == State::Running || state_ == State::Hung; }
  std::uint64_t incarnation() const { return incarnation_; }
  // When the current incarnation was started (exec), in loop time.
  TimePoint startedAt() const { return startedAt_; }
  // What a readiness probe would say: running and serving (a redis-server still loading
  // its dataset is not ready).
  virtual bool ready() const { return state_ == State::Running; }

  // deliver() would run a task at once (running, nothing waiting in the inbox).
  bool runsNow() const { return state_ == State::Running && inbox_.empty(); }
  // Runs task as this process (see the file comment). A template, so that what runs at
  // once (the common case) is called as it is, not first wrapped into a Task.
  template <class F>
  void deliver(F&& task) {
    switch (state_) {
      case State::Down:
      case State::Starting:
        return;
      case State::Hung:
        inbox_.emplace_back(std::forward<F>(task));
        return;
      case State::Running:
        if (!runsNow()) {  // still working through what piled up while hung
          inbox_.emplace_back(std::forward<F>(task));
          return;
        }
        task();
        return;
    }
  }
  // A timer of this incarnation; it dies with the process. The callable is captured as it
  // is (not as a Task inside the timer's Task), so a small one needs no allocation.
  template <class F>
  TimerId after(Duration d, F&& task) {
    return loop().runAfter(d, [this, alive = std::weak_ptr<int>(alive_), inc = incarnation_,
                               task = std::forward<F>(task)]() mutable {
      if (alive.expired() || inc != incarnation_) return;
      deliver(std::move(task));
    });
  }
  void cancelTimer(TimerId id) { loop().cancel(id); }

  // --- lifecycle, driven by chaos or by a simulated kubelet -------------------------------
  void crash();                          // kill -9: sockets reset, memory gone
  void hang();                           // SIGSTOP
  void resume();                         // SIGCONT
  void start(Duration bootDelay = {});   // a new process; refuses connections until booted

  Fabric& fabric() { return fabric_; }
  EventLoop& loop() { return fabric_.loop(); }
  std::int64_t nowMs() const { return sinceStartMillis(fabric_.loop().now()); }
  std::int64_t wallMicros() const { return fabric_.loop().wallMicros(); }
  Trace* trace() const { return trace_; }
  void record(std::string_view text);
  // How this process names itself in the trace, e.g. "redis 10.0.0.1:6379".
  virtual std::string traceName() const = 0;
  // Runs one command for a blocking external client (RedisAdmin) on a fresh connection,
  // now. A non-empty password is sent with AUTH first; if AUTH fails its error is the
  // reply (as the hiredis RedisAdmin reports it) and the command does not run.
  virtual RedisReply executeAdmin(const Argv& argv, const std::string& password) = 0;
  // For a SENTINEL MASTER|REPLICAS|SENTINELS command that executeAdmin(argv, "") would answer
  // with instances: hands them to `sink` instead (RedisAdmin::sentinelInstances) and is
  // true. False, with nothing handed over, for any other command or answer.
  virtual bool adminInstances(const Argv& argv, SentinelFieldSink& sink) const {
    (void)argv;
    (void)sink;
    return false;
  }
  // executeAdmin(argv, password) for INFO replication (argv), for a caller that reads the
  // fields (RedisAdmin::replicationInfo): nullopt when they went to `out` as
  // parseReplicationInfo reads them from the answer, else the answer (`out` untouched).
  // This default always answers.
  virtual std::optional<RedisReply> adminReplicationInfo(const Argv& argv, const std::string& password,
                                                         ReplicationInfo& out) {
    (void)out;
    return executeAdmin(argv, password);
  }

 protected:
  virtual void onBoot() = 0;   // the process has started: build state from disk/config
  virtual void onDown() {}     // it died: drop in-memory state
  virtual void onHang() {}     // it was just stopped (SIGSTOP)
  virtual void onAccept(ConnId) {}
  virtual void onRequest(ConnId c, RequestId r, const Argv& argv) = 0;
  virtual void onPeerClosed(ConnId) {}

 private:
  friend class Fabric;
  void drainInbox();

  Fabric& fabric_;
  std::string ip_;
  NetNodeId netId_;
  Trace* trace_;
  ProcId id_;
  State state_ = State::Down;
  std::uint64_t incarnation_ = 0;
  TimePoint startedAt_{};
  std::deque<Task> inbox_;
  bool draining_ = false;
  std::shared_ptr<int> alive_ = std::make_shared<int>(0);
};

}  // namespace kun::redissim
