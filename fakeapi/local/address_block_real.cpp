#include "fakeapi/local/address_block_real.h"

#include <arpa/inet.h>
#include <fcntl.h>
#include <netinet/in.h>
#include <sys/file.h>
#include <sys/socket.h>
#include <unistd.h>

#include <cerrno>
#include <cstring>

namespace kun::local {

namespace {

bool portFree(const std::string& ip, int port) {
  const int fd = ::socket(AF_INET, SOCK_STREAM | SOCK_CLOEXEC, 0);
  if (fd < 0) return false;
  int one = 1;
  // As Redis binds: SO_REUSEADDR, so a port in TIME_WAIT from the previous run still counts
  // as free, and only a listener makes it busy.
  ::setsockopt(fd, SOL_SOCKET, SO_REUSEADDR, &one, sizeof one);
  sockaddr_in a{};
  a.sin_family = AF_INET;
  a.sin_port = htons(static_cast<uint16_t>(port));
  ::inet_pton(AF_INET, ip.c_str(), &a.sin_addr);
  const bool ok = ::bind(fd, reinterpret_cast<sockaddr*>(&a), sizeof a) == 0;
  ::close(fd);
  return ok;
}

std::string addressIn(int block, int i) {
  return "127.77." + std::to_string(block) + "." + std::to_string(i + 1);
}

}  // namespace

Result<AddressBlock> AddressBlock::reserve(int count, const std::vector<int>& ports) {
  if (count < 1 || count > 250) return makeError(Reason::BadRequest, "address block: bad count");
  for (int block = 1; block <= 250; ++block) {
    const std::string lockPath = "/tmp/kun-local-127.77." + std::to_string(block) + ".lock";
    const int fd = ::open(lockPath.c_str(), O_RDWR | O_CREAT | O_CLOEXEC, 0666);
    if (fd < 0) continue;
    if (::flock(fd, LOCK_EX | LOCK_NB) != 0) {
      ::close(fd);
      continue;
    }
    bool free = true;
    for (int i = 0; i < count && free; ++i) {
      for (int p : ports) free = free && portFree(addressIn(block, i), p);
    }
    if (free) return AddressBlock(block, fd);
    ::close(fd);  // someone outside our locking protocol uses it
  }
  return makeError(Reason::Unavailable, "no free loopback block 127.77.K.0/24 (all locked or busy)");
}

AddressBlock::~AddressBlock() {
  if (lockFd_ >= 0) ::close(lockFd_);  // releases the flock
}

AddressBlock::AddressBlock(AddressBlock&& o) noexcept : block_(o.block_), lockFd_(o.lockFd_) {
  o.lockFd_ = -1;
}

AddressBlock& AddressBlock::operator=(AddressBlock&& o) noexcept {
  if (this != &o) {
    if (lockFd_ >= 0) ::close(lockFd_);
    block_ = o.block_;
    lockFd_ = o.lockFd_;
    o.lockFd_ = -1;
  }
  return *this;
}

std::string AddressBlock::address(int i) const { return addressIn(block_, i); }

}  // namespace kun::local
