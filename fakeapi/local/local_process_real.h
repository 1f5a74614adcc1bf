#pragma once
// One real child process (redis-server or redis-sentinel) owned by this object: SIGKILL
// and reaped when the object goes away, so a failing test or measurement never leaves a
// process behind. Children also get PR_SET_PDEATHSIG(SIGKILL): if this process dies
// without running destructors, the kernel kills them. (The signal fires when the thread
// that spawned them exits, so spawn from a thread that outlives the processes.)
#include <sys/types.h>

#include <string>
#include <vector>

#include "core/runtime/result.h"

namespace kun::local {

class LocalProcess {
 public:
  LocalProcess() = default;
  // argv[0] is looked up in PATH; stdout and stderr go to logPath (appended).
  static Result<LocalProcess> spawn(const std::vector<std::string>& argv,
                                    const std::string& logPath);
  ~LocalProcess();
  LocalProcess(LocalProcess&& o) noexcept;
  LocalProcess& operator=(LocalProcess&& o) noexcept;
  LocalProcess(const LocalProcess&) = delete;
  LocalProcess& operator=(const LocalProcess&) = delete;

  pid_t pid() const { return pid_; }
  // True until the process has exited (a stopped process is running).
  bool running();
  // SIGKILL and wait for it (works on a stopped process too). No-op if already gone.
  Status kill();
  Status stop();    // SIGSTOP: the process hangs, its sockets stay open
  Status resume();  // SIGCONT
  bool stopped() const { return stopped_; }

 private:
  explicit LocalProcess(pid_t pid) : pid_(pid) {}
  Status signal(int sig, const char* what);
  pid_t pid_ = -1;
  bool stopped_ = false;
};

}  // namespace kun::local
