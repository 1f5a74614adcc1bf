#pragma once
// A fixed set of keys a parser reads (Sentinel entry fields, INFO keys), and which of them a
// key of a reply is. Replies are matched in one pass, a key looked up among the table's
// keys of the same length (a compare or two), where looking each wanted key up in turn
// compared most keys of the reply with most of the table. Built at compile time; at() names
// a key by its text and is checked at compile time too.
#include <array>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string_view>
#include <type_traits>

namespace kun {

template <std::size_t N>
class KeyTable {
 public:
  static constexpr std::size_t kMaxLength = 31;  // a longer key of a reply is none of ours

  consteval explicit KeyTable(const std::string_view (&keys)[N]) {
    static_assert(N < 256, "indices are kept in bytes");
    std::array<std::size_t, kMaxLength + 2> count{};
    for (std::size_t i = 0; i < N; ++i) {
      keys_[i] = keys[i];
      if (keys[i].empty() || keys[i].size() > kMaxLength) throw "KeyTable: key length out of range";
      ++count[keys[i].size() + 1];
    }
    for (std::size_t len = 1; len < count.size(); ++len) count[len] += count[len - 1];
    for (std::size_t len = 0; len < first_.size(); ++len) first_[len] = static_cast<std::uint8_t>(count[len]);
    for (std::size_t i = 0; i < N; ++i) byLength_[count[keys[i].size()]++] = static_cast<std::uint8_t>(i);
  }

  static constexpr std::size_t size() { return N; }
  // The index of `key`; a key not in the table does not compile.
  consteval std::size_t at(std::string_view key) const {
    for (std::size_t i = 0; i < N; ++i)
      if (keys_[i] == key) return i;
    throw "KeyTable: no such key";
  }
  std::string_view name(std::size_t i) const { return keys_[i]; }
  // The index of `key`, or size() when it is none of the table's.
  std::size_t indexOf(std::string_view key) const {
    if (key.size() > kMaxLength) return N;
    for (std::size_t j = first_[key.size()]; j < first_[key.size() + 1]; ++j)
      if (sameBytes(keys_[byLength_[j]].data(), key.data(), key.size())) return byLength_[j];
    return N;
  }
  // Whether `key` is the table's key i (a guess checked without the search).
  bool is(std::size_t i, std::string_view key) const {
    return i < N && keys_[i].size() == key.size() && sameBytes(keys_[i].data(), key.data(), key.size());
  }

 private:
  // a[0, n) == b[0, n) for n <= kMaxLength, in a few word compares (two loads from each end,
  // overlapping) rather than a memcmp call: keys are looked up once per field of a reply.
  static bool sameBytes(const char* a, const char* b, std::size_t n) {
    if (n >= 8) {
      if (n > 16 && (load<8>(a + 8) != load<8>(b + 8) || load<8>(a + n - 16) != load<8>(b + n - 16))) return false;
      return load<8>(a) == load<8>(b) && load<8>(a + n - 8) == load<8>(b + n - 8);
    }
    if (n >= 4) return load<4>(a) == load<4>(b) && load<4>(a + n - 4) == load<4>(b + n - 4);
    for (std::size_t i = 0; i < n; ++i)
      if (a[i] != b[i]) return false;
    return true;
  }
  template <std::size_t W>
  static auto load(const char* p) {
    std::conditional_t<W == 8, std::uint64_t, std::uint32_t> v;
    std::memcpy(&v, p, W);
    return v;
  }

  std::array<std::string_view, N> keys_{};
  std::array<std::uint8_t, kMaxLength + 2> first_{};  // keys of length L: byLength_[first_[L], first_[L + 1])
  std::array<std::uint8_t, N> byLength_{};
};

}  // namespace kun
