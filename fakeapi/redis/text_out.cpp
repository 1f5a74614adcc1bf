#include "fakeapi/redis/text_out.h"

#include <fmt/format.h>

namespace kun::redissim {

TextOut& TextOut::megabytes(std::int64_t bytes) {
  // Below 2^53 bytes the quotient is exact in a double, so its correctly rounded two
  // decimals are found in integers; an exact tie (half a cent) is left to fmt's rule.
  constexpr std::int64_t kUnit = std::int64_t{1} << 20;
  if (bytes >= 0 && bytes < (std::int64_t{1} << 53) / 100) {
    const std::int64_t hundredths = bytes * 100;
    std::int64_t cents = hundredths >> 20;
    const std::int64_t rem = hundredths & (kUnit - 1);
    if (rem != kUnit / 2) {
      if (rem > kUnit / 2) ++cents;
      const char frac[3] = {static_cast<char>('0' + cents % 100 / 10), static_cast<char>('0' + cents % 10), '\0'};
      return *this << cents / 100 << "." << std::string_view(frac, 2);
    }
  }
  char tmp[48];
  const auto r = fmt::format_to_n(tmp, sizeof tmp, "{:.2f}", static_cast<double>(bytes) / (1024.0 * 1024.0));
  return *this << std::string_view(tmp, r.size);
}

}  // namespace kun::redissim
