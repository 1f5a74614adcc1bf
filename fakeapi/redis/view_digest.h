#pragma once
// Appending values to a digest string: raw bytes, no formatting (the sampler builds one
// per cluster every half second of virtual time, so it must cost next to nothing). Strings
// carry their length, so two different sequences never append the same bytes.
#include <cstdint>
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

template <class... T>
void digest(std::string& out, const T&... v) {
  (digestOne(out, v), ...);
}

}  // namespace kun::redissim
