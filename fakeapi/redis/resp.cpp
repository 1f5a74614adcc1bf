#include "fakeapi/redis/resp.h"

#include <algorithm>
#include <cctype>
#include <limits>

namespace kun::redissim {

namespace {
// ASCII only, inline: command and parameter names are ASCII (std::tolower is a locale call).
inline int asciiLower(unsigned char c) { return (c >= 'A' && c <= 'Z') ? c + ('a' - 'A') : c; }
}  // namespace

std::string lower(std::string_view s) {
  std::string out(s);
  for (char& c : out) c = static_cast<char>(asciiLower(static_cast<unsigned char>(c)));
  return out;
}

std::string_view LowerName::of(std::string_view s) {
  if (s.size() > sizeof buf) {
    spill = lower(s);
    return spill;
  }
  for (std::size_t i = 0; i < s.size(); ++i) buf[i] = static_cast<char>(asciiLower(static_cast<unsigned char>(s[i])));
  return {buf, s.size()};
}

bool CaseLess::operator()(std::string_view a, std::string_view b) const {
  const std::size_t n = std::min(a.size(), b.size());
  for (std::size_t i = 0; i < n; ++i) {
    const int x = asciiLower(static_cast<unsigned char>(a[i]));
    const int y = asciiLower(static_cast<unsigned char>(b[i]));
    if (x != y) return x < y;
  }
  return a.size() < b.size();
}

std::optional<std::int64_t> parseInt(std::string_view s) {
  if (s.empty() || s.size() > 20) return std::nullopt;
  std::size_t i = 0;
  bool neg = false;
  if (s[0] == '-') {
    neg = true;
    i = 1;
    if (s.size() == 1) return std::nullopt;
  }
  if (s[i] == '0' && s.size() > i + 1) return std::nullopt;
  if (s.size() - i <= 18) {  // cannot overflow: no checks per digit
    std::int64_t v = 0;
    for (; i < s.size(); ++i) {
      const unsigned d = static_cast<unsigned char>(s[i]) - static_cast<unsigned>('0');
      if (d > 9) return std::nullopt;
      v = v * 10 + static_cast<std::int64_t>(d);
    }
    return neg ? -v : v;
  }
  unsigned long long v = 0;
  for (; i < s.size(); ++i) {
    if (s[i] < '0' || s[i] > '9') return std::nullopt;
    const unsigned d = static_cast<unsigned>(s[i] - '0');
    if (v > (std::numeric_limits<unsigned long long>::max() - d) / 10) return std::nullopt;
    v = v * 10 + d;
  }
  if (neg) {
    if (v > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max()) + 1ULL)
      return std::nullopt;
    return static_cast<std::int64_t>(0 - v);
  }
  if (v > static_cast<unsigned long long>(std::numeric_limits<std::int64_t>::max())) return std::nullopt;
  return static_cast<std::int64_t>(v);
}

std::optional<std::int64_t> parseMemory(std::string_view s) {
  std::size_t n = 0;
  while (n < s.size() && std::isdigit(static_cast<unsigned char>(s[n]))) ++n;
  if (n == 0) return std::nullopt;
  const std::string unit = lower(s.substr(n));
  std::int64_t mul = 1;
  if (unit.empty() || unit == "b") mul = 1;
  else if (unit == "k") mul = 1000;
  else if (unit == "kb") mul = 1024;
  else if (unit == "m") mul = 1000LL * 1000;
  else if (unit == "mb") mul = 1024LL * 1024;
  else if (unit == "g") mul = 1000LL * 1000 * 1000;
  else if (unit == "gb") mul = 1024LL * 1024 * 1024;
  else return std::nullopt;
  std::int64_t v = 0;
  for (std::size_t i = 0; i < n; ++i) {
    if (v > (std::numeric_limits<std::int64_t>::max() - 9) / 10) return std::nullopt;
    v = v * 10 + (s[i] - '0');
  }
  if (v > std::numeric_limits<std::int64_t>::max() / mul) return std::nullopt;
  return v * mul;
}

namespace {
bool matchImpl(std::string_view p, std::string_view s, bool nocase, int depth) {
  if (depth > 1000) return false;
  auto eq = [nocase](char a, char b) {
    return nocase ? std::tolower(static_cast<unsigned char>(a)) == std::tolower(static_cast<unsigned char>(b))
                  : a == b;
  };
  std::size_t pi = 0, si = 0;
  while (pi < p.size()) {
    const char c = p[pi];
    if (c == '*') {
      while (pi + 1 < p.size() && p[pi + 1] == '*') ++pi;
      if (pi + 1 == p.size()) return true;
      for (std::size_t k = si; k <= s.size(); ++k)
        if (matchImpl(p.substr(pi + 1), s.substr(k), nocase, depth + 1)) return true;
      return false;
    }
    if (si >= s.size()) return false;
    if (c == '?') {
      ++pi;
      ++si;
      continue;
    }
    if (c == '[') {
      std::size_t j = pi + 1;
      bool negate = false;
      if (j < p.size() && p[j] == '^') {
        negate = true;
        ++j;
      }
      bool found = false;
      while (j < p.size() && p[j] != ']') {
        if (p[j] == '\\' && j + 1 < p.size()) {
          ++j;
          if (eq(p[j], s[si])) found = true;
        } else if (j + 2 < p.size() && p[j + 1] == '-') {
          char lo = p[j], hi = p[j + 2];
          if (lo > hi) std::swap(lo, hi);
          char ch = s[si];
          if (nocase) {
            ch = static_cast<char>(std::tolower(static_cast<unsigned char>(ch)));
            lo = static_cast<char>(std::tolower(static_cast<unsigned char>(lo)));
            hi = static_cast<char>(std::tolower(static_cast<unsigned char>(hi)));
          }
          if (ch >= lo && ch <= hi) found = true;
          j += 2;
        } else if (eq(p[j], s[si])) {
          found = true;
        }
        ++j;
      }
      if (negate) found = !found;
      if (!found) return false;
      pi = j < p.size() ? j + 1 : j;
      ++si;
      continue;
    }
    if (c == '\\' && pi + 1 < p.size()) {
      ++pi;
    }
    if (!eq(p[pi], s[si])) return false;
    ++pi;
    ++si;
  }
  return si == s.size();
}
}  // namespace

bool globMatch(std::string_view pattern, std::string_view str, bool nocase) {
  return matchImpl(pattern, str, nocase, 0);
}

namespace {
std::int64_t digits(std::int64_t v) {
  std::int64_t n = 1;
  while (v >= 10) {
    v /= 10;
    ++n;
  }
  return n;
}

// *<n>\r\n then $<len>\r\n<arg>\r\n per argument; text(a) is an argument's bytes.
template <class Args, class Text>
std::int64_t multibulkLength(const Args& args, Text text) {
  std::int64_t n = 1 + digits(static_cast<std::int64_t>(args.size())) + 2;
  for (const auto& a : args) {
    const auto len = static_cast<std::int64_t>(text(a).size());
    n += 1 + digits(len) + 2 + len + 2;
  }
  return n;
}
}  // namespace

std::int64_t respLength(const Argv& argv) {
  return multibulkLength(argv, [](const std::string& a) -> const std::string& { return a; });
}

std::int64_t respLength(const std::vector<RedisReply>& command) {
  return multibulkLength(command, [](const RedisReply& a) -> const std::string& { return a.str; });
}

RedisReply errArity(std::string_view name) {
  return RedisReply::error("ERR wrong number of arguments for '" + std::string(name) + "' command");
}

RedisReply errUnknownCommand(const Argv& argv) {
  std::string msg = "ERR unknown command '" + (argv.empty() ? std::string() : argv[0]) +
                    "', with args beginning with: ";
  for (std::size_t i = 1; i < argv.size() && i <= 128; ++i) msg += "'" + argv[i] + "' ";
  return RedisReply::error(msg);
}

RedisReply errSyntax() { return RedisReply::error("ERR syntax error"); }
RedisReply ok() { return RedisReply::status("OK"); }

RedisReply bulkArray(const std::vector<std::string>& items) {
  std::vector<RedisReply> e;
  e.reserve(items.size());
  for (const auto& i : items) e.push_back(RedisReply::bulk(i));
  return RedisReply::array(std::move(e));
}

RedisReply intReply(std::int64_t v) { return RedisReply::integerReply(v); }

std::string hexId(Random& rng) {
  static const char* kHex = "0123456789abcdef";
  std::string id(40, '0');
  for (auto& c : id) c = kHex[rng.below(16)];
  return id;
}

}  // namespace kun::redissim
