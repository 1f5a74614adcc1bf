#pragma once
// A node's pod IP range (host-local IPAM style): addresses are simulated only, never
// contacted. Policy, chosen so that reuse happens as it does in real clusters yet stays
// deterministic: a freed address waits out a quarantine, then is handed out again before
// any fresh one (FIFO by release time); a pod that is recreated never gets back the
// address it had just before (the caller passes it as `avoid`).
#include <cstdint>
#include <deque>
#include <optional>
#include <set>
#include <string>
#include <string_view>

#include "core/runtime/result.h"
#include "core/runtime/time.h"

namespace kun::sim {

class IpPool {
 public:
  // cidr: "10.244.1.0/24". The network address and .1 (the bridge) are never handed out,
  // nor the broadcast address.
  static Result<IpPool> fromCidr(std::string_view cidr, Duration quarantine);

  // The next address, or Unavailable when the range is exhausted.
  Result<std::string> allocate(TimePoint now, std::string_view avoid = {});
  // Returns an address to the pool (ignored if it was not allocated here).
  void release(std::string_view ip, TimePoint now);

  std::size_t inUse() const { return used_.size(); }
  std::size_t capacity() const { return static_cast<std::size_t>(last_ - first_ + 1); }
  const std::string& cidr() const { return cidr_; }

  static std::string format(std::uint32_t ip);
  static std::optional<std::uint32_t> parse(std::string_view ip);

 private:
  IpPool(std::string cidr, std::uint32_t first, std::uint32_t last, Duration quarantine)
      : cidr_(std::move(cidr)), first_(first), last_(last), next_(first), quarantine_(quarantine) {}

  struct Freed {
    std::uint32_t ip;
    TimePoint at;
  };
  std::string cidr_;
  std::uint32_t first_, last_, next_;
  Duration quarantine_;
  std::set<std::uint32_t> used_;
  std::deque<Freed> freed_;  // oldest release first
};

}  // namespace kun::sim
