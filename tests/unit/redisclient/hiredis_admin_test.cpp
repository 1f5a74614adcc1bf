// HiredisAdmin against a scripted RESP server on 127.0.0.1 in this process: reply
// conversion, AUTH, connection reuse and the mapping of transport failures.
#include "core/redis/hiredis_admin_real.h"

#include <gtest/gtest.h>
#include <netinet/in.h>
#include <poll.h>
#include <sys/socket.h>
#include <unistd.h>

#include <atomic>
#include <functional>
#include <mutex>
#include <thread>

#include "core/redis/hiredis_reply.h"

namespace kun {
namespace {

// Answers each request with handler(argv); an empty answer means "never reply",
// "<close>" closes the connection.
class ScriptedServer {
 public:
  using Handler = std::function<std::string(const std::vector<std::string>&)>;
  explicit ScriptedServer(Handler h) : handler_(std::move(h)) {
    listen_ = ::socket(AF_INET, SOCK_STREAM, 0);
    sockaddr_in a{};
    a.sin_family = AF_INET;
    a.sin_addr.s_addr = htonl(INADDR_LOOPBACK);
    EXPECT_EQ(::bind(listen_, reinterpret_cast<sockaddr*>(&a), sizeof a), 0);
    EXPECT_EQ(::listen(listen_, 16), 0);
    socklen_t len = sizeof a;
    ::getsockname(listen_, reinterpret_cast<sockaddr*>(&a), &len);
    port_ = ntohs(a.sin_port);
    thread_ = std::thread([this] { serve(); });
  }
  ~ScriptedServer() {
    stop_ = true;
    thread_.join();
    for (auto& c : clients_) ::close(c.fd);
    ::close(listen_);
  }
  int port() const { return port_; }
  int accepted() const { return accepted_; }
  std::vector<std::vector<std::string>> received() {
    std::lock_guard<std::mutex> l(mu_);
    return received_;
  }

 private:
  struct Client {
    int fd;
    std::string buf;
  };
  void serve() {
    while (!stop_) {
      std::vector<pollfd> fds{{listen_, POLLIN, 0}};
      for (auto& c : clients_) fds.push_back({c.fd, POLLIN, 0});
      if (::poll(fds.data(), fds.size(), 20) <= 0) continue;
      if (fds[0].revents & POLLIN) {
        clients_.push_back({::accept(listen_, nullptr, nullptr), {}});
        ++accepted_;
      }
      for (std::size_t i = 1; i < fds.size(); ++i) {
        if (!(fds[i].revents & (POLLIN | POLLHUP))) continue;
        Client& c = clients_[i - 1];
        char tmp[4096];
        ssize_t n = ::read(c.fd, tmp, sizeof tmp);
        if (n <= 0) continue;
        c.buf.append(tmp, static_cast<std::size_t>(n));
        auto reqs = decodeResp(c.buf);  // requests arrive whole on loopback
        if (!reqs.ok()) continue;
        c.buf.clear();
        for (const auto& req : *reqs) {
          std::vector<std::string> argv;
          for (const auto& e : req.elements) argv.push_back(e.str);
          {
            std::lock_guard<std::mutex> l(mu_);
            received_.push_back(argv);
          }
          std::string out = handler_(argv);
          if (out == "<close>") {
            ::shutdown(c.fd, SHUT_RDWR);
          } else if (!out.empty()) {
            EXPECT_EQ(::write(c.fd, out.data(), out.size()), static_cast<ssize_t>(out.size()));
          }
        }
      }
    }
  }

  Handler handler_;
  int listen_ = -1;
  int port_ = 0;
  std::atomic<bool> stop_{false};
  std::atomic<int> accepted_{0};
  std::vector<Client> clients_;
  std::mutex mu_;
  std::vector<std::vector<std::string>> received_;
  std::thread thread_;
};

std::string redisLike(const std::vector<std::string>& argv) {
  if (argv[0] == "AUTH") return argv.at(1) == "secret" ? "+OK\r\n" : "-WRONGPASS invalid username-password pair or user is disabled.\r\n";
  if (argv[0] == "PING") return "+PONG\r\n";
  if (argv[0] == "GET") return argv.at(1) == "k" ? "$5\r\nhello\r\n" : "$-1\r\n";
  if (argv[0] == "ROLE") return "*3\r\n$6\r\nmaster\r\n:7\r\n*0\r\n";
  if (argv[0] == "HANG") return "";
  if (argv[0] == "CLOSE") return "<close>";
  return "-ERR unknown command '" + argv[0] + "'\r\n";
}

HiredisOptions fast() {
  HiredisOptions o;
  o.connectTimeout = std::chrono::milliseconds(500);
  o.commandTimeout = std::chrono::milliseconds(100);
  return o;
}

TEST(HiredisAdmin, RepliesAreConvertedAndTheConnectionIsReused) {
  ScriptedServer server(redisLike);
  HiredisAdmin admin(fast());
  RedisEndpoint ep{"127.0.0.1", server.port()};
  auto pong = admin.command(ep, {"PING"});
  ASSERT_TRUE(pong.ok()) << pong.error().message;
  EXPECT_EQ(pong->type, RedisReply::Type::Status);
  EXPECT_EQ(pong->str, "PONG");
  auto get = admin.command(ep, {"GET", "k"});
  ASSERT_TRUE(get.ok());
  EXPECT_EQ(get->str, "hello");
  auto missing = admin.command(ep, {"GET", "other"});
  ASSERT_TRUE(missing.ok());
  EXPECT_EQ(missing->type, RedisReply::Type::Nil);
  auto role = admin.command(ep, {"ROLE"});
  ASSERT_TRUE(role.ok());
  EXPECT_EQ(role->elements.at(1).integer, 7);
  auto err = admin.command(ep, {"NOPE"});
  ASSERT_TRUE(err.ok());  // an error reply is a reply
  EXPECT_EQ(err->errorCode(), "ERR");
  EXPECT_EQ(server.accepted(), 1);
  EXPECT_EQ(admin.openConnections(), 1u);
}

TEST(HiredisAdmin, AuthenticatesOncePerConnection) {
  ScriptedServer server(redisLike);
  HiredisAdmin admin(fast());
  RedisEndpoint ep{"127.0.0.1", server.port()};
  ASSERT_TRUE(admin.command(ep, {"PING"}, "secret").ok());
  ASSERT_TRUE(admin.command(ep, {"PING"}, "secret").ok());
  auto got = server.received();
  ASSERT_EQ(got.size(), 3u);
  EXPECT_EQ(got[0], (std::vector<std::string>{"AUTH", "secret"}));
  EXPECT_EQ(got[1][0], "PING");
  EXPECT_EQ(got[2][0], "PING");
}

TEST(HiredisAdmin, WrongPasswordReturnsAuthsErrorAndSkipsTheCommand) {
  ScriptedServer server(redisLike);
  HiredisAdmin admin(fast());
  RedisEndpoint ep{"127.0.0.1", server.port()};
  auto r = admin.command(ep, {"GET", "k"}, "wrong");
  ASSERT_TRUE(r.ok());
  EXPECT_EQ(r->errorCode(), "WRONGPASS");
  auto got = server.received();
  ASSERT_EQ(got.size(), 1u);
  EXPECT_EQ(got[0][0], "AUTH");
  EXPECT_EQ(admin.openConnections(), 0u);
}

TEST(HiredisAdmin, RefusedConnectionIsUnavailable) {
  int port = 0;
  {
    ScriptedServer gone(redisLike);
    port = gone.port();
  }  // closed: nothing listens there now
  HiredisAdmin admin(fast());
  auto r = admin.command({"127.0.0.1", port}, {"PING"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Unavailable) << r.error().message;
}

TEST(HiredisAdmin, NoReplyIsTimeoutAndDropsTheConnection) {
  ScriptedServer server(redisLike);
  HiredisAdmin admin(fast());
  RedisEndpoint ep{"127.0.0.1", server.port()};
  auto r = admin.command(ep, {"HANG"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Timeout) << r.error().message;
  EXPECT_EQ(admin.openConnections(), 0u);
  ASSERT_TRUE(admin.command(ep, {"PING"}).ok());  // reconnects
  EXPECT_EQ(server.accepted(), 2);
}

TEST(HiredisAdmin, PeerClosingIsUnavailableAndTheNextCallReconnects) {
  ScriptedServer server(redisLike);
  HiredisAdmin admin(fast());
  RedisEndpoint ep{"127.0.0.1", server.port()};
  auto r = admin.command(ep, {"CLOSE"});
  ASSERT_FALSE(r.ok());
  EXPECT_EQ(r.error().reason, Reason::Unavailable) << r.error().message;
  ASSERT_TRUE(admin.command(ep, {"PING"}).ok());
  EXPECT_EQ(server.accepted(), 2);
}

TEST(HiredisAdmin, EmptyCommandIsBadRequest) {
  HiredisAdmin admin(fast());
  EXPECT_TRUE(admin.command({"127.0.0.1", 1}, {}).is(Reason::BadRequest));
}

}  // namespace
}  // namespace kun
