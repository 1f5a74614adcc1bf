#include "fakeapi/controllers/ip_pool.h"

#include <charconv>

#include <fmt/format.h>

namespace kun::sim {

std::string IpPool::format(std::uint32_t ip) {
  return fmt::format("{}.{}.{}.{}", ip >> 24, (ip >> 16) & 0xff, (ip >> 8) & 0xff, ip & 0xff);
}

std::optional<std::uint32_t> IpPool::parse(std::string_view ip) {
  std::uint32_t out = 0;
  const char* p = ip.data();
  const char* end = ip.data() + ip.size();
  for (int i = 0; i < 4; ++i) {
    unsigned octet = 0;
    auto [q, ec] = std::from_chars(p, end, octet);
    if (ec != std::errc() || q == p || octet > 255) return std::nullopt;
    out = (out << 8) | octet;
    p = q;
    if (i < 3) {
      if (p == end || *p != '.') return std::nullopt;
      ++p;
    }
  }
  if (p != end) return std::nullopt;
  return out;
}

Result<IpPool> IpPool::fromCidr(std::string_view cidr, Duration quarantine) {
  const auto slash = cidr.find('/');
  if (slash == std::string_view::npos) return makeError(Reason::Invalid, fmt::format("bad CIDR {}", cidr));
  auto base = parse(cidr.substr(0, slash));
  unsigned bits = 0;
  const auto lenText = cidr.substr(slash + 1);
  auto [q, ec] = std::from_chars(lenText.data(), lenText.data() + lenText.size(), bits);
  if (!base || ec != std::errc() || q != lenText.data() + lenText.size() || bits < 8 || bits > 30) {
    return makeError(Reason::Invalid, fmt::format("bad CIDR {}", cidr));
  }
  const std::uint32_t mask = bits == 0 ? 0 : ~std::uint32_t{0} << (32 - bits);
  const std::uint32_t net = *base & mask;
  const std::uint32_t broadcast = net | ~mask;
  return IpPool(std::string(cidr), net + 2, broadcast - 1, quarantine);
}

Result<std::string> IpPool::allocate(TimePoint now, std::string_view avoid) {
  // The loops test plain values, not the optional: GCC 12 with -fprofile-use
  // (scripts/build-pgo.sh) warns that the optional's value may be read uninitialized.
  const std::optional<std::uint32_t> parsed = avoid.empty() ? std::nullopt : parse(avoid);
  const bool avoiding = parsed.has_value();
  const std::uint32_t avoidIp = parsed.value_or(0);
  auto take = [&](std::uint32_t ip) {
    used_.insert(ip);
    return format(ip);
  };
  // A freed address whose quarantine is over comes first.
  for (auto it = freed_.begin(); it != freed_.end() && it->at + quarantine_ <= now; ++it) {
    if (avoiding && avoidIp == it->ip) continue;
    const std::uint32_t ip = it->ip;
    freed_.erase(it);
    return take(ip);
  }
  while (next_ <= last_) {
    const std::uint32_t ip = next_++;
    if (!used_.count(ip)) return take(ip);
  }
  // Range exhausted: hand out a quarantined address rather than fail.
  for (auto it = freed_.begin(); it != freed_.end(); ++it) {
    if (avoiding && avoidIp == it->ip) continue;
    const std::uint32_t ip = it->ip;
    freed_.erase(it);
    return take(ip);
  }
  return makeError(Reason::Unavailable, fmt::format("no free address in {}", cidr_));
}

void IpPool::release(std::string_view ip, TimePoint now) {
  auto v = parse(ip);
  if (!v || !used_.erase(*v)) return;
  freed_.push_back(Freed{*v, now});
}

}  // namespace kun::sim
