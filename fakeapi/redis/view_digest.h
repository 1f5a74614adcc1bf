#pragma once
// Appending values to a digest: what a reader's derived state depends on, to tell whether
// it must derive again. Two forms:
// - a string of raw bytes, no formatting (readers that keep the bytes, e.g. the kubelet's
//   readiness inputs);
// - ViewHash, 64 bits mixed from the same values (multiply, rotate: each step a bijection
//   of the state), for the harness sampler, which digests every node of a cluster every
//   half second of virtual time: appending and comparing kilobytes of bytes there was most
//   of its cost, and a second 64-bit lane cost 2 % of a property run. A collision (a kept
//   view after a change) needs two different inputs to meet in 2^64 states between two
//   samples: too unlikely to matter; the verifyViewCache test compares kept and fresh
//   views all the same.
// Strings carry their length, so two different sequences never feed the same input.
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace kun::redissim {

inline void digestOne(std::string& out, std::string_view s) {
  const auto n = static_cast<std::uint32_t>(s.size());
  out.append(reinterpret_cast<const char*>(&n), sizeof n);
  out.append(s);
}

template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
inline void digestOne(std::string& out, T v) {
  const auto x = static_cast<std::int64_t>(v);
  out.append(reinterpret_cast<const char*>(&x), sizeof x);
}

struct ViewHash {
  std::uint64_t a = 0x9e3779b97f4a7c15ULL;
  bool operator==(const ViewHash&) const = default;
  void add(std::uint64_t v) {
    a = (a ^ v) * 0xff51afd7ed558ccdULL;
    a = (a << 31) | (a >> 33);
  }
};

// The last n (1..7) bytes at p as memcpy into a zeroed word would give them, without a
// library call of variable length (most strings digested end in such a tail). whole: the
// 8 bytes before p + n belong to the string, so one load and a shift take them.
inline std::uint64_t viewTail(const char* p, std::size_t n, bool whole) {
  std::uint64_t w;
  if (whole) {
    std::memcpy(&w, p + n - 8, 8);
    return w >> (8 * (8 - n));
  }
  const auto byte = [p](std::size_t k) { return static_cast<std::uint64_t>(static_cast<unsigned char>(p[k])); };
  if (n >= 4) {  // two 4-byte loads that overlap: the shared bytes are the same
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    return lo | (static_cast<std::uint64_t>(hi) << (8 * (n - 4)));
  }
  return byte(0) | (byte(n / 2) << (8 * (n / 2))) | (byte(n - 1) << (8 * (n - 1)));
}

inline void digestOne(ViewHash& out, std::string_view s) {
  out.add(s.size());
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    out.add(w);
  }
  if (i < s.size()) out.add(viewTail(s.data() + i, s.size() - i, s.size() >= 8));
}

template <class T>
  requires std::is_integral_v<T> || std::is_enum_v<T>
inline void digestOne(ViewHash& out, T v) {
  out.add(static_cast<std::uint64_t>(static_cast<std::int64_t>(v)));
}

template <class Out, class... T>
void digest(Out& out, const T&... v) {
  (digestOne(out, v), ...);
}

}  // namespace kun::redissim
