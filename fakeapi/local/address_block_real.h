#pragma once
// A block of loopback addresses 127.77.K.1 ... 127.77.K.N reserved by this process, so two
// local clusters (a measurement and an e2e test, or two people) never collide. The
// reservation is an flock on /tmp/kun-local-127.77.K.lock, held until destruction, and
// every address's ports must be free to bind.
#include <string>
#include <vector>

#include "core/runtime/result.h"

namespace kun::local {

class AddressBlock {
 public:
  // `ports` are checked free on each of the `count` addresses.
  static Result<AddressBlock> reserve(int count, const std::vector<int>& ports);
  ~AddressBlock();
  AddressBlock(AddressBlock&& o) noexcept;
  AddressBlock& operator=(AddressBlock&& o) noexcept;
  AddressBlock(const AddressBlock&) = delete;
  AddressBlock& operator=(const AddressBlock&) = delete;

  // i in [0, count): "127.77.K.(i+1)".
  std::string address(int i) const;
  int block() const { return block_; }

 private:
  AddressBlock(int block, int lockFd) : block_(block), lockFd_(lockFd) {}
  int block_ = 0;
  int lockFd_ = -1;
};

}  // namespace kun::local
