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

inline void digestOne(ViewHash& out, std::string_view s) {
  out.add(s.size());
  std::size_t i = 0;
  for (; i + 8 <= s.size(); i += 8) {
    std::uint64_t w;
    std::memcpy(&w, s.data() + i, 8);
    out.add(w);
  }
  if (i < s.size()) {
    std::uint64_t w = 0;
    std::memcpy(&w, s.data() + i, s.size() - i);
    out.add(w);
  }
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
