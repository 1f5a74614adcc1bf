#include "core/redis/hiredis_admin_real.h"

#include <hiredis/hiredis.h>

#include <fcntl.h>
#include <poll.h>
#include <sys/socket.h>

#include <cerrno>
#include <cstring>

#include "core/redis/hiredis_reply.h"

namespace kun {

namespace {

timeval toTimeval(std::chrono::milliseconds ms) {
  timeval tv{};
  tv.tv_sec = static_cast<time_t>(ms.count() / 1000);
  tv.tv_usec = static_cast<suseconds_t>((ms.count() % 1000) * 1000);
  return tv;
}

// hiredis reports I/O failures with REDIS_ERR_IO and the errno text; errno itself is still
// set right after the failing call, which is what we switch on.
Error transportError(const redisContext* c, int savedErrno, const RedisEndpoint& to,
                     std::string_view during) {
  std::string msg = std::string(during) + " " + to.toString() + ": " +
                    (c != nullptr && c->errstr[0] != '\0' ? c->errstr : std::strerror(savedErrno));
  if (c == nullptr) return makeError(Reason::Internal, msg);
  switch (c->err) {
    case REDIS_ERR_EOF: return makeError(Reason::Unavailable, msg);
    case REDIS_ERR_PROTOCOL: return makeError(Reason::Internal, msg);
    case REDIS_ERR_IO:
      if (savedErrno == EAGAIN || savedErrno == EWOULDBLOCK || savedErrno == ETIMEDOUT ||
          savedErrno == EINPROGRESS || std::strstr(c->errstr, "timed out") != nullptr ||
          std::strstr(c->errstr, "temporarily unavailable") != nullptr) {
        return makeError(Reason::Timeout, msg);
      }
      return makeError(Reason::Unavailable, msg);
    default: return makeError(Reason::Unavailable, msg);
  }
}

}  // namespace

struct HiredisAdmin::Conn {
  redisContext* ctx = nullptr;
  bool authenticated = false;
  std::string password;  // the one AUTH succeeded with
  ~Conn() {
    if (ctx != nullptr) redisFree(ctx);
  }
};

HiredisAdmin::HiredisAdmin(HiredisOptions opts) : opts_(std::move(opts)) {}
HiredisAdmin::~HiredisAdmin() = default;

void HiredisAdmin::disconnectAll() { conns_.clear(); }
void HiredisAdmin::disconnect(const RedisEndpoint& to) { conns_.erase(to); }

Result<HiredisAdmin::Conn*> HiredisAdmin::connection(const RedisEndpoint& to) {
  if (auto it = conns_.find(to); it != conns_.end()) return it->second.get();
  auto conn = std::make_unique<Conn>();
  // Connect non-blocking and wait ourselves: hiredis 0.14 has no blocking connect that
  // takes both a source address and a timeout, and this way errno is ours to read.
  errno = 0;
  conn->ctx = opts_.bindSource.empty()
                  ? redisConnectNonBlock(to.host.c_str(), to.port)
                  : redisConnectBindNonBlock(to.host.c_str(), to.port, opts_.bindSource.c_str());
  if (conn->ctx == nullptr) return makeError(Reason::Internal, "hiredis: out of memory");
  if (conn->ctx->err != 0) return transportError(conn->ctx, errno, to, "connect");
  pollfd pfd{conn->ctx->fd, POLLOUT, 0};
  const int ready = ::poll(&pfd, 1, static_cast<int>(opts_.connectTimeout.count()));
  if (ready == 0) {
    return makeError(Reason::Timeout, "connect " + to.toString() + ": timed out after " +
                                          std::to_string(opts_.connectTimeout.count()) + " ms");
  }
  int soError = 0;
  socklen_t len = sizeof soError;
  if (ready < 0 || ::getsockopt(conn->ctx->fd, SOL_SOCKET, SO_ERROR, &soError, &len) != 0) {
    soError = errno;
  }
  if (soError != 0) {
    const bool timeout = soError == ETIMEDOUT;
    return makeError(timeout ? Reason::Timeout : Reason::Unavailable,
                     "connect " + to.toString() + ": " + std::strerror(soError));
  }
  // From here on hiredis's synchronous API: blocking socket, send/receive timeouts.
  const int fl = ::fcntl(conn->ctx->fd, F_GETFL);
  if (fl < 0 || ::fcntl(conn->ctx->fd, F_SETFL, fl & ~O_NONBLOCK) != 0) {
    return makeError(Reason::Internal, "connect " + to.toString() + ": fcntl: " + std::strerror(errno));
  }
  conn->ctx->flags |= REDIS_BLOCK;
  if (redisSetTimeout(conn->ctx, toTimeval(opts_.commandTimeout)) != REDIS_OK) {
    return transportError(conn->ctx, errno, to, "set timeout");
  }
  Conn* raw = conn.get();
  conns_[to] = std::move(conn);
  return raw;
}

Result<RedisReply> HiredisAdmin::command(const RedisEndpoint& to,
                                         const std::vector<std::string>& argv,
                                         std::string_view password) {
  if (argv.empty()) return makeError(Reason::BadRequest, "empty Redis command");
  auto conn = connection(to);
  if (!conn) return conn.error();
  Conn* c = *conn;

  auto send = [&](const std::vector<std::string>& args) -> Result<RedisReply> {
    std::vector<const char*> ptrs;
    std::vector<size_t> lens;
    ptrs.reserve(args.size());
    lens.reserve(args.size());
    for (const auto& a : args) {
      ptrs.push_back(a.data());
      lens.push_back(a.size());
    }
    errno = 0;
    void* raw = redisCommandArgv(c->ctx, static_cast<int>(args.size()), ptrs.data(), lens.data());
    const int savedErrno = errno;
    if (raw == nullptr) {
      Error e = transportError(c->ctx, savedErrno, to, args.front());
      conns_.erase(to);  // a failed context cannot be reused
      return e;
    }
    RedisReply reply = fromHiredis(*static_cast<redisReply*>(raw));
    freeReplyObject(raw);
    return reply;
  };

  if (!password.empty() && (!c->authenticated || c->password != password)) {
    auto auth = send({"AUTH", std::string(password)});
    if (!auth) return auth.error();
    if (auth->isError()) {
      conns_.erase(to);
      return auth;
    }
    c->authenticated = true;
    c->password = std::string(password);
  }
  return send(argv);
}

}  // namespace kun
