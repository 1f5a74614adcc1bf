#include "scenarios/prop_jobs.h"

#include <poll.h>
#include <signal.h>
#include <sys/wait.h>
#include <unistd.h>

#include <cerrno>
#include <cstdlib>
#include <charconv>
#include <cstdio>
#include <cstring>
#include <optional>
#include <string_view>
#include <vector>

#include <fmt/format.h>

namespace kun::scenario {

namespace {

// What a job tells the parent, over its pipe: records of a type byte, the payload's length
// in decimal, ':' and the payload. 'P' a progress line, 'R' the result (fields encoded
// the same way, without the type).
void appendField(std::string& out, std::string_view s) {
  out += std::to_string(s.size());
  out += ':';
  out += s;
}

// Reads one length-prefixed field at pos; nullopt while the buffer does not hold all of it.
std::optional<std::string_view> takeField(std::string_view buf, std::size_t& pos) {
  const std::size_t colon = buf.find(':', pos);
  if (colon == std::string_view::npos) return std::nullopt;
  std::size_t n = 0;
  const auto [p, ec] = std::from_chars(buf.data() + pos, buf.data() + colon, n);
  if (ec != std::errc() || p != buf.data() + colon || buf.size() - colon - 1 < n) return std::nullopt;
  pos = colon + 1 + n;
  return buf.substr(colon + 1, n);
}

void writeAll(int fd, std::string_view s) {
  while (!s.empty()) {
    const ssize_t n = ::write(fd, s.data(), s.size());
    if (n < 0 && errno == EINTR) continue;
    if (n <= 0) return;  // the parent is gone: nobody to tell
    s.remove_prefix(static_cast<std::size_t>(n));
  }
}

void sendRecord(int fd, char type, std::string_view payload) {
  std::string rec(1, type);
  appendField(rec, payload);
  writeAll(fd, rec);
}

std::string encodeResult(const PropResult& r) {
  std::string out;
  for (const std::string& f :
       {std::to_string(r.trials), std::to_string(r.shrinkCut), std::to_string(r.passedBeforeFailure),
        std::to_string(r.failed), r.file, r.replay, std::to_string(static_cast<int>(r.report.failure)),
        r.report.failureDetail, r.report.traceHash, r.error})
    appendField(out, f);
  return out;
}

std::optional<PropResult> decodeResult(std::string_view payload) {
  std::vector<std::string_view> f;
  std::size_t pos = 0;
  while (pos < payload.size()) {
    const auto field = takeField(payload, pos);
    if (!field) return std::nullopt;
    f.push_back(*field);
  }
  if (f.size() != 10) return std::nullopt;
  const auto number = [](std::string_view s) {
    int v = 0;
    std::from_chars(s.data(), s.data() + s.size(), v);
    return v;
  };
  PropResult r;
  r.trials = number(f[0]);
  r.shrinkCut = number(f[1]) != 0;
  r.passedBeforeFailure = number(f[2]);
  r.failed = number(f[3]) != 0;
  r.file = f[4];
  r.replay = f[5];
  r.report.failure = static_cast<FailureClass>(number(f[6]));
  r.report.failureDetail = f[7];
  r.report.traceHash = f[8];
  r.error = f[9];
  return r;
}

[[noreturn]] void runJob(const PropOptions& opts, const PropJob& job, int fd) {
  PropOptions o = opts;
  o.seed = job.seed;
  o.runs = job.runs;
  o.progress = [fd](const std::string& line) { sendRecord(fd, 'P', line); };
  // RapidCheck reads its configuration on first use, which is here, and announces it: let
  // it name this job's seed (the sequence is the seed given to runProperty either way).
  ::setenv("RC_PARAMS", ("seed=" + std::to_string(job.seed)).c_str(), 1);
  const PropResult r = runProperty(o);
  sendRecord(fd, 'R', encodeResult(r));
  ::close(fd);
  // Not exit(): the parent's atexit handlers and stdio buffers are not this process's.
  ::_exit(0);
}

struct Child {
  PropJob job;
  pid_t pid = -1;
  int fd = -1;
  std::string buf;
  std::optional<PropResult> result;
};

// Hands on the complete records in c.buf; false on a malformed one.
bool drain(Child& c, const PropOptions& opts) {
  std::size_t pos = 0;
  while (pos < c.buf.size()) {
    const char type = c.buf[pos];
    std::size_t at = pos + 1;
    const auto payload = takeField(c.buf, at);
    if (!payload) break;  // the rest has not arrived yet
    if (type == 'P') {
      if (opts.progress) opts.progress(fmt::format("[job {}] {}", c.job.index, *payload));
    } else if (type == 'R') {
      c.result = decodeResult(*payload);
      if (!c.result) return false;
    } else {
      return false;
    }
    pos = at;
  }
  c.buf.erase(0, pos);
  return true;
}

std::string endedHow(int status) {
  if (WIFSIGNALED(status)) return fmt::format("killed by signal {} ({})", WTERMSIG(status), ::strsignal(WTERMSIG(status)));
  return fmt::format("exit status {}", WEXITSTATUS(status));
}

}  // namespace

PropJob propJob(const PropOptions& opts, int jobs, int k) {
  PropJob j;
  j.index = k;
  j.seed = opts.seed + static_cast<std::uint64_t>(k);
  j.runs = opts.runs / jobs + (k < opts.runs % jobs ? 1 : 0);
  return j;
}

PropJobsResult runPropertyJobs(const PropOptions& opts, int jobs) {
  PropJobsResult out;
  out.jobs = std::max(1, std::min(jobs, opts.runs));
  if (out.jobs == 1) {
    out.result = runProperty(opts);
    out.failed = propJob(opts, 1, 0);
    return out;
  }
  std::vector<Child> children(static_cast<std::size_t>(out.jobs));
  std::fflush(nullptr);  // nothing buffered here is written twice by a child
  for (int k = 0; k < out.jobs; ++k) {
    Child& c = children[static_cast<std::size_t>(k)];
    c.job = propJob(opts, out.jobs, k);
    int pipeFds[2];
    if (::pipe(pipeFds) != 0) {
      out.result.error = fmt::format("cannot start job {}: pipe: {}", k, std::strerror(errno));
      break;
    }
    c.pid = ::fork();
    if (c.pid < 0) {
      out.result.error = fmt::format("cannot start job {}: fork: {}", k, std::strerror(errno));
      ::close(pipeFds[0]);
      ::close(pipeFds[1]);
      break;
    }
    if (c.pid == 0) {
      ::close(pipeFds[0]);
      for (int j = 0; j < k; ++j) ::close(children[static_cast<std::size_t>(j)].fd);
      runJob(opts, c.job, pipeFds[1]);
    }
    ::close(pipeFds[1]);
    c.fd = pipeFds[0];
  }
  const auto stopOthers = [&](const Child* keep) {
    for (Child& c : children)
      if (&c != keep && c.pid > 0 && c.fd >= 0) ::kill(c.pid, SIGTERM);
  };
  if (!out.result.error.empty()) stopOthers(nullptr);

  const Child* first = nullptr;  // the first job to report a failure
  std::size_t open = 0;
  for (const Child& c : children) open += c.fd >= 0;
  while (open > 0) {
    std::vector<pollfd> fds;
    std::vector<Child*> of;
    for (Child& c : children)
      if (c.fd >= 0) {
        fds.push_back({c.fd, POLLIN, 0});
        of.push_back(&c);
      }
    if (::poll(fds.data(), fds.size(), -1) < 0) {
      if (errno == EINTR) continue;
      out.result.error = fmt::format("poll: {}", std::strerror(errno));
      stopOthers(nullptr);
      break;
    }
    for (std::size_t i = 0; i < fds.size(); ++i) {
      if (fds[i].revents == 0) continue;
      Child& c = *of[i];
      char chunk[4096];
      const ssize_t n = ::read(c.fd, chunk, sizeof chunk);
      if (n < 0 && errno == EINTR) continue;
      if (n > 0) {
        c.buf.append(chunk, static_cast<std::size_t>(n));
        if (!drain(c, opts) && out.result.error.empty())
          out.result.error = fmt::format("job {} (seed {}) sent something unreadable", c.job.index, c.job.seed);
        if (c.result && c.result->failed && !first) {
          first = &c;
          stopOthers(&c);  // the answer is found: the other jobs' runs no longer matter
        }
        continue;
      }
      ::close(c.fd);
      c.fd = -1;
      --open;
    }
  }

  for (Child& c : children) {
    if (c.fd >= 0) ::close(c.fd);  // left open only when poll failed
    if (c.pid <= 0) continue;
    int status = 0;
    while (::waitpid(c.pid, &status, 0) < 0 && errno == EINTR) {
    }
    const bool stopped = first && &c != first;
    if (!c.result && !stopped && out.result.error.empty())
      out.result.error = fmt::format("job {} (seed {}) ended without an answer: {}", c.job.index, c.job.seed,
                                     endedHow(status));
    if (!c.result) continue;
    out.result.trials += c.result->trials;
    if (!c.result->error.empty() && out.result.error.empty())
      out.result.error = fmt::format("job {} (seed {}): {}", c.job.index, c.job.seed, c.result->error);
  }
  if (first) {
    // The failing job's own account: the stopped jobs' runs were cut short, uncounted.
    std::string error = std::move(out.result.error);
    out.failed = first->job;
    out.result = *first->result;
    if (out.result.error.empty()) out.result.error = std::move(error);
  } else {
    out.result.passedBeforeFailure = out.result.trials;
  }
  return out;
}

}  // namespace kun::scenario
