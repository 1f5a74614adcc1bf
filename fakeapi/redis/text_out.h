#pragma once
// Appends text and decimal numbers to a string, as fmt's "{}" writes them, without a
// format string to parse: INFO and Sentinel's hello payloads are built tens of thousands
// of times per simulated run, and fmt's parsing of the pattern (and its growth of the
// output) was most of their cost.
//
//   TextOut(out) << "tcp_port:" << port_ << "\r\n";
//
// Pieces are gathered in a small buffer and reach `out` when it fills and when the
// TextOut goes away (end of the statement for a temporary): read `out` only after that.
#include <charconv>
#include <cstddef>
#include <cstdint>
#include <cstring>
#include <string>
#include <string_view>
#include <type_traits>

namespace kun::redissim {

class TextOut {
 public:
  explicit TextOut(std::string& out) : out_(out) {}
  ~TextOut() { flush(); }
  TextOut(const TextOut&) = delete;
  TextOut& operator=(const TextOut&) = delete;

  // A literal: its length is known at compile time.
  template <std::size_t N>
  [[gnu::always_inline]] TextOut& operator<<(const char (&s)[N]) {
    put(s, N - 1);
    return *this;
  }
  [[gnu::always_inline]] TextOut& operator<<(std::string_view s) {
    put(s.data(), s.size());
    return *this;
  }
  template <class Int>
    requires(std::is_integral_v<Int> && !std::is_same_v<Int, bool> && !std::is_same_v<Int, char>)
  [[gnu::always_inline]] TextOut& operator<<(Int v) {
    if (kCap - len_ < kMaxDigits) flush();
    len_ = static_cast<std::size_t>(std::to_chars(buf_ + len_, buf_ + kCap, v).ptr - buf_);
    return *this;
  }
  // bytes / 2^20 with two decimals, as fmt's "{:.2f}" writes it (INFO's *_human sizes).
  TextOut& megabytes(std::int64_t bytes);

  void flush() {
    out_.append(buf_, len_);
    len_ = 0;
  }

 private:
  static constexpr std::size_t kCap = 512;
  static constexpr std::size_t kMaxDigits = 21;  // "-9223372036854775808"

  // Inlined: the call cost more than the copy of a short piece.
  [[gnu::always_inline]] void put(const char* s, std::size_t n) {
    if (n > kCap - len_) {
      flush();
      if (n > kCap) {
        out_.append(s, n);
        return;
      }
    }
    std::memcpy(buf_ + len_, s, n);
    len_ += n;
  }

  std::string& out_;
  std::size_t len_ = 0;
  char buf_[kCap];
};

}  // namespace kun::redissim
