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

// The length, then whole words; the bytes left over are read with loads of a fixed size
// (a copy of a variable size was a call to memcpy per string): the last 8 bytes again,
// overlapping the words before, or two overlapping halves, or three single bytes. With the
// length known, those reads still cover every byte exactly where it stands, so two
// different strings of the same length still feed different inputs.
inline void digestOne(ViewHash& out, std::string_view s) {
  const std::size_t n = s.size();
  const char* p = s.data();
  out.add(n);
  std::size_t i = 0;
  for (; i + 8 <= n; i += 8) {
    std::uint64_t w;
    std::memcpy(&w, p + i, 8);
    out.add(w);
  }
  if (i == n) return;
  if (n >= 8) {
    std::uint64_t w;
    std::memcpy(&w, p + n - 8, 8);
    out.add(w);
  } else if (n >= 4) {
    std::uint32_t lo, hi;
    std::memcpy(&lo, p, 4);
    std::memcpy(&hi, p + n - 4, 4);
    out.add((std::uint64_t{hi} << 32) | lo);
  } else {
    const auto b = [p](std::size_t k) { return std::uint64_t{static_cast<unsigned char>(p[k])}; };
    out.add(b(0) | b(n / 2) << 8 | b(n - 1) << 16);
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
