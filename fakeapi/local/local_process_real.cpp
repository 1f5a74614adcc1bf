#include "fakeapi/local/local_process_real.h"

#include <fcntl.h>
#include <signal.h>
#include <sys/prctl.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kun::local {

Result<LocalProcess> LocalProcess::spawn(const std::vector<std::string>& argv,
                                         const std::string& logPath) {
  if (argv.empty()) return makeError(Reason::BadRequest, "spawn: empty argv");
  // Everything the child needs is prepared before fork: after fork in a threaded process
  // only async-signal-safe calls are allowed.
  std::vector<char*> args;
  for (const auto& a : argv) args.push_back(const_cast<char*>(a.c_str()));
  args.push_back(nullptr);
  const int logFd = ::open(logPath.c_str(), O_WRONLY | O_CREAT | O_APPEND | O_CLOEXEC, 0644);
  if (logFd < 0) {
    return makeError(Reason::Internal, "spawn: cannot open " + logPath + ": " + std::strerror(errno));
  }
  const pid_t parent = ::getpid();
  const pid_t pid = ::fork();
  if (pid < 0) {
    const int e = errno;
    ::close(logFd);
    return makeError(Reason::Internal, std::string("spawn: fork: ") + std::strerror(e));
  }
  if (pid == 0) {
    ::prctl(PR_SET_PDEATHSIG, SIGKILL);
    if (::getppid() != parent) ::_exit(127);  // the parent died before prctl took effect
    ::setpgid(0, 0);  // a terminal's Ctrl-C goes to us, not straight to the children
    ::dup2(logFd, STDOUT_FILENO);
    ::dup2(logFd, STDERR_FILENO);
    const int devnull = ::open("/dev/null", O_RDONLY);
    if (devnull >= 0) ::dup2(devnull, STDIN_FILENO);
    ::execvp(args[0], args.data());
    ::_exit(127);
  }
  ::close(logFd);
  return LocalProcess(pid);
}

LocalProcess::~LocalProcess() { (void)kill(); }

LocalProcess::LocalProcess(LocalProcess&& o) noexcept : pid_(o.pid_), stopped_(o.stopped_) {
  o.pid_ = -1;
}

LocalProcess& LocalProcess::operator=(LocalProcess&& o) noexcept {
  if (this != &o) {
    (void)kill();
    pid_ = o.pid_;
    stopped_ = o.stopped_;
    o.pid_ = -1;
  }
  return *this;
}

bool LocalProcess::running() {
  if (pid_ <= 0) return false;
  int status = 0;
  const pid_t r = ::waitpid(pid_, &status, WNOHANG);
  if (r == pid_) {
    pid_ = -1;  // exited and reaped
    return false;
  }
  return r == 0;
}

Status LocalProcess::kill() {
  if (pid_ <= 0) return {};
  ::kill(pid_, SIGKILL);
  int status = 0;
  while (::waitpid(pid_, &status, 0) < 0 && errno == EINTR) {
  }
  pid_ = -1;
  stopped_ = false;
  return {};
}

Status LocalProcess::signal(int sig, const char* what) {
  if (pid_ <= 0) return makeError(Reason::NotFound, std::string(what) + ": process not running");
  if (::kill(pid_, sig) != 0) {
    return makeError(Reason::Internal, std::string(what) + ": " + std::strerror(errno));
  }
  return {};
}

Status LocalProcess::stop() {
  Status s = signal(SIGSTOP, "SIGSTOP");
  if (s) stopped_ = true;
  return s;
}

Status LocalProcess::resume() {
  Status s = signal(SIGCONT, "SIGCONT");
  if (s) stopped_ = false;
  return s;
}

}  // namespace kun::local
